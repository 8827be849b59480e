import Foundation

/// One question about students, as a Strata predicate and as SQL written by hand on the same
/// Core Data schema (`ZSTUDENT`, `ZCOURSE`, `ZCLUB` and the clubs' join table).
struct Query {
    var name: String
    var predicate: String
    /// The condition on `ZSTUDENT s`; `JOIN`, `MEMBER` and `CLUB` stand for the join table and
    /// its two columns (the student's and the club's).
    var condition: String

    static let all: [Query] = [
        Query(name: "ANY ==", predicate: "ANY courses.credits == 3",
              condition: "EXISTS (SELECT 1 FROM ZCOURSE c WHERE c.ZSTUDENT = s.Z_PK AND c.ZCREDITS = 3)"),
        Query(name: "ALL", predicate: "ALL courses.credits >= 2",
              condition: "NOT EXISTS (SELECT 1 FROM ZCOURSE c WHERE c.ZSTUDENT = s.Z_PK AND c.ZCREDITS < 2)"),
        Query(name: "NONE", predicate: "NONE courses.credits == 5",
              condition: "NOT EXISTS (SELECT 1 FROM ZCOURSE c WHERE c.ZSTUDENT = s.Z_PK AND c.ZCREDITS = 5)"),
        Query(name: "SUBQUERY count", predicate: "SUBQUERY(courses, $c, $c.credits >= 4 AND $c.grade > 50).@count >= 2",
              condition: "(SELECT count(*) FROM ZCOURSE c WHERE c.ZSTUDENT = s.Z_PK AND c.ZCREDITS >= 4 AND c.ZGRADE > 50) >= 2"),
        Query(name: "@count", predicate: "courses.@count > 2",
              condition: "(SELECT count(*) FROM ZCOURSE c WHERE c.ZSTUDENT = s.Z_PK) > 2"),
        Query(name: "@sum", predicate: "courses.@sum.credits > 12",
              condition: "(SELECT total(c.ZCREDITS) FROM ZCOURSE c WHERE c.ZSTUDENT = s.Z_PK) > 12"),
        Query(name: "@avg (Double)", predicate: "courses.@avg.grade > 80",
              condition: "(SELECT avg(c.ZGRADE) FROM ZCOURSE c WHERE c.ZSTUDENT = s.Z_PK) > 80"),
        Query(name: "many-to-many ANY", predicate: "ANY clubs.name == 'club 7'",
              condition: "EXISTS (SELECT 1 FROM JOIN j JOIN ZCLUB c ON c.Z_PK = j.CLUB WHERE j.MEMBER = s.Z_PK AND c.ZNAME = 'club 7')"),
    ]
}
