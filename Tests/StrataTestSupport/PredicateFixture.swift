import Foundation
import Strata

/// The object graph the predicate table and the property-based predicate tests query.
///
/// Every value is fixed, so expected results can be worked out by hand from this file:
///
/// ```
/// Company  name   city                         founded      revenue
///          Acme   "Saint-Étienne" (U+00C9)      0            1000000.50
///          Bolt   "Saint-E\u{301}tienne"        100000000    250.25
///          Ωmega  "Köln"                        nil          nil        (no employees)
///
/// Person   name     age  height salary   born           active photo  nickname  employer manager
///          Alice    30   1.70   5000.50  0              YES    01 02  "Ali"     Acme     -
///          Bob      25   1.85   4000     86400          NO     01 03  nil       Acme     Alice
///          Chloé    35   1.60   6000.25  -86400         YES    (empty) "Clo"    Bolt     -
///          Дмитрий  40   1.90   7000     1000000000     YES    FF     "Dima"    Bolt     Chloé
///          Eve      nil  1.65   nil      nil            NO     nil    ""        -        Alice
///          René     28   1.75   5000.50  500000000      YES    01 02  "STRASSE" Acme     Bob
///          Gustav   50   1.80   9999.99  -1000000000    NO     00     "Straße"  -        -
///          Ilker    19   1.55   100      700000000.5    YES    nil    "ılker"   -        -
///   (Chloé's é is precomposed U+00E9, René's is decomposed e + U+0301; dates are seconds
///    since 2001-01-01; "ılker" starts with the dotless ı U+0131)
///
/// Pet      name   species  legs  owner          Task  name    priority done due   assignee
///          Rex    dog      4     Alice                Write   1        YES  1000  Alice (1st)
///          Tom    cat      4     Alice                Review  3        NO   nil   Alice (2nd)
///          Polly  parrot   2     Bob                  Ship    2        NO   2000  Alice (3rd)
///          Nemo   fish     0     Chloé                Test    5        YES  500   Bob
///          Stray  Dog      3     -                    Plan    2        YES  3000  Дмитрий (1st)
///                                                     Deploy  4        YES  4000  Дмитрий (2nd)
///                                                     Idle    0        NO   nil   -
///
/// Club     name    dues  members (many-to-many)       Gadget  name    weight carrier owner
///          Chess   10    Alice, Bob, Eve                      Lamp    500    -       Alice
///          Choir   nil   Alice, Chloé                 Phone   Pixel   200    Orange  Alice
///          Rowing  30    Дмитрий                      Phone   Nokia   nil    nil     Bob
///          Empty   5     -                                    Kettle  1000   -       Gustav
///                                                     Phone   Brick   300    Free    -
/// ```
///
/// `Person.tasks` is ordered; `Person.reports` is the inverse of `manager`; `Company.employees`
/// of `employer`; `Person.pets` of `Pet.owner`; `Person.clubs` and `Club.members` are a
/// many-to-many (a join table in SQLite); `Person.gadgets` (inverse `Gadget.owner`) holds
/// gadgets and phones, `Phone` being a sub-entity of `Gadget` (one table in SQLite).
public enum PredicateFixture {
    /// The fixture's model: `Company`, `Person`, `Pet`, `Task`.
    public static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel {
            EntityDescription("Company") {
                Attribute("name", .string)
                Attribute("city", .string)
                Attribute("founded", .date)
                Attribute("revenue", .decimal)
                Relationship("employees", toMany: "Person", inverse: "employer")
            }
            EntityDescription("Person") {
                Attribute("name", .string)
                Attribute("age", .integer16)
                Attribute("height", .double)
                Attribute("salary", .decimal)
                Attribute("born", .date)
                Attribute("active", .boolean)
                Attribute("photo", .binaryData)
                Attribute("nickname", .string)
                Relationship("employer", to: "Company", inverse: "employees")
                Relationship("manager", to: "Person", inverse: "reports")
                Relationship("reports", toMany: "Person", inverse: "manager")
                Relationship("pets", toMany: "Pet", inverse: "owner")
                Relationship("tasks", toMany: "Task", inverse: "assignee", ordered: true)
                Relationship("clubs", toMany: "Club", inverse: "members")
                Relationship("gadgets", toMany: "Gadget", inverse: "owner")
            }
            EntityDescription("Pet") {
                Attribute("name", .string)
                Attribute("species", .string)
                Attribute("legs", .integer32)
                Relationship("owner", to: "Person", inverse: "pets")
            }
            EntityDescription("Task") {
                Attribute("name", .string)
                Attribute("priority", .integer64)
                Attribute("done", .boolean)
                Attribute("due", .date)
                Relationship("assignee", to: "Person", inverse: "tasks")
            }
            EntityDescription("Club") {
                Attribute("name", .string)
                Attribute("dues", .integer32)
                Relationship("members", toMany: "Person", inverse: "clubs")
            }
            EntityDescription("Gadget") {
                Attribute("name", .string)
                Attribute("weight", .integer32)
                Relationship("owner", to: "Person", inverse: "gadgets")
            }
            EntityDescription("Phone", parent: "Gadget") {
                Attribute("carrier", .string)
            }
        }
    }

    /// The entities of the fixture, each with the `name` of every object it holds.
    public static let names: [String: [String]] = [
        "Company": ["Acme", "Bolt", "Ωmega"],
        "Person": ["Alice", "Bob", "Chlo\u{E9}", "Дмитрий", "Eve", "Rene\u{301}", "Gustav", "Ilker"],
        "Pet": ["Rex", "Tom", "Polly", "Nemo", "Stray"],
        "Task": ["Write", "Review", "Ship", "Test", "Plan", "Deploy", "Idle"],
        "Club": ["Chess", "Choir", "Rowing", "Empty"],
        "Gadget": ["Lamp", "Pixel", "Nokia", "Kettle", "Brick"],
        "Phone": ["Pixel", "Nokia", "Brick"],
    ]

    /// Inserts the fixture graph into `context` (unsaved) and returns its objects by
    /// `"Entity/name"`.
    @discardableResult
    public static func insert(into context: ManagedObjectContext) throws -> [String: ManagedObject] {
        var objects: [String: ManagedObject] = [:]
        @discardableResult
        func make(_ entity: String, _ values: [String: Any?]) throws -> ManagedObject {
            let object = try context.insertNewObject(forEntityName: entity)
            try object.setValuesForKeys(values)
            if let name = values["name"] as? String { objects["\(entity)/\(name)"] = object }
            return object
        }
        func date(_ seconds: Double?) -> Date? { seconds.map { Date(timeIntervalSinceReferenceDate: $0) } }
        func decimal(_ text: String?) -> Decimal? { text.flatMap { Decimal(string: $0, locale: Locale(identifier: "en_US_POSIX")) } }

        let acme = try make("Company", ["name": "Acme", "city": "Saint-\u{C9}tienne", "founded": date(0),
                                        "revenue": decimal("1000000.50")])
        let bolt = try make("Company", ["name": "Bolt", "city": "Saint-E\u{301}tienne", "founded": date(100_000_000),
                                        "revenue": decimal("250.25")])
        try make("Company", ["name": "Ωmega", "city": "K\u{F6}ln"])

        @discardableResult
        func person(_ name: String, _ age: Int16?, _ height: Double, _ salary: String?, _ born: Double?, _ active: Bool,
                    _ photo: [UInt8]?, _ nickname: String?, _ employer: ManagedObject?, _ manager: ManagedObject?) throws -> ManagedObject {
            try make("Person", [
                "name": name, "age": age, "height": height, "salary": decimal(salary), "born": date(born),
                "active": active, "photo": photo.map { Data($0) }, "nickname": nickname,
                "employer": employer, "manager": manager,
            ])
        }
        let alice = try person("Alice", 30, 1.70, "5000.50", 0, true, [1, 2], "Ali", acme, nil)
        let bob = try person("Bob", 25, 1.85, "4000", 86_400, false, [1, 3], nil, acme, alice)
        let chloe = try person("Chlo\u{E9}", 35, 1.60, "6000.25", -86_400, true, [], "Clo", bolt, nil)
        let dmitri = try person("Дмитрий", 40, 1.90, "7000", 1_000_000_000, true, [0xFF], "Dima", bolt, chloe)
        try person("Eve", nil, 1.65, nil, nil, false, nil, "", nil, alice)
        try person("Rene\u{301}", 28, 1.75, "5000.50", 500_000_000, true, [1, 2], "STRASSE", acme, bob)
        try person("Gustav", 50, 1.80, "9999.99", -1_000_000_000, false, [0], "Stra\u{DF}e", nil, nil)
        try person("Ilker", 19, 1.55, "100", 700_000_000.5, true, nil, "\u{131}lker", nil, nil)

        for (name, species, legs, owner) in [("Rex", "dog", 4, alice), ("Tom", "cat", 4, alice), ("Polly", "parrot", 2, bob),
                                             ("Nemo", "fish", 0, chloe), ("Stray", "Dog", 3, nil)] as [(String, String, Int32, ManagedObject?)] {
            try make("Pet", ["name": name, "species": species, "legs": legs, "owner": owner])
        }

        let tasks: [(String, Int64, Bool, Double?)] = [
            ("Write", 1, true, 1000), ("Review", 3, false, nil), ("Ship", 2, false, 2000), ("Test", 5, true, 500),
            ("Plan", 2, true, 3000), ("Deploy", 4, true, 4000), ("Idle", 0, false, nil),
        ]
        var made: [String: ManagedObject] = [:]
        for (name, priority, done, due) in tasks {
            made[name] = try make("Task", ["name": name, "priority": priority, "done": done, "due": date(due)])
        }
        func list(_ names: [String]) -> [ManagedObject] { names.compactMap { made[$0] } }
        try alice.setValue(list(["Write", "Review", "Ship"]), forKey: "tasks")
        try bob.setValue(list(["Test"]), forKey: "tasks")
        try dmitri.setValue(list(["Plan", "Deploy"]), forKey: "tasks")

        let eve = objects["Person/Eve"]
        for (name, dues, members) in [("Chess", 10, [alice, bob, eve]), ("Choir", nil, [alice, chloe]), ("Rowing", 30, [dmitri]),
                                      ("Empty", 5, [])] as [(String, Int32?, [ManagedObject?])] {
            try make("Club", ["name": name, "dues": dues, "members": members.compactMap { $0 }])
        }
        let gustav = objects["Person/Gustav"]
        for (entity, name, weight, carrier, owner) in [("Gadget", "Lamp", 500, nil, alice), ("Phone", "Pixel", 200, "Orange", alice),
                                                       ("Phone", "Nokia", nil, nil, bob), ("Gadget", "Kettle", 1000, nil, gustav),
                                                       ("Phone", "Brick", 300, "Free", nil)]
            as [(String, String, Int32?, String?, ManagedObject?)] {
            var values: [String: Any?] = ["name": name, "weight": weight, "owner": owner]
            if entity == "Phone" { values["carrier"] = carrier }
            try make(entity, values)
        }
        return objects
    }
}
