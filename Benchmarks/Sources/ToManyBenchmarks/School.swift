import BenchmarkSupport
import Foundation
import Strata

/// The to-many benchmark's data: `students` students, each with 0–4 courses of its own (a
/// one-to-many whose inverse is `Course.student`, two on average) and 0–3 of 100 clubs (a
/// many-to-many, Core Data's join table). Values come from the index alone, so every run builds
/// the same store.
struct School: PseudoRandomValues {
    let students: Int
    static let clubs = 100

    /// Courses of student `index`: 0–4, the same count every run.
    static func courseCount(_ index: Int) -> Int { Int(bits(1, index, 1) % 5) }
    /// Clubs of student `index`: 0–3 distinct clubs.
    static func clubIndexes(_ index: Int) -> [Int] {
        let count = Int(bits(1, index, 2) % 4)
        var chosen: [Int] = []
        var field: UInt64 = 10
        while chosen.count < count {
            let club = Int(bits(1, index, field) % UInt64(clubs))
            if !chosen.contains(club) { chosen.append(club) }
            field += 1
        }
        return chosen
    }

    static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel {
            EntityDescription("Student") {
                Attribute("name", .string)
                Attribute("year", .integer16)
                Relationship("courses", toMany: "Course", inverse: "student")
                Relationship("clubs", toMany: "Club", inverse: "members")
            }
            EntityDescription("Course") {
                Attribute("title", .string)
                Attribute("credits", .integer16)
                Attribute("grade", .double)
                Relationship("student", to: "Student", inverse: "courses")
            }
            EntityDescription("Club") {
                Attribute("name", .string)
                Relationship("members", toMany: "Student", inverse: "clubs")
            }
        }
    }

    /// Writes the store at `file` with Strata, 10,000 students to a save; returns the objects
    /// written.
    func write(_ file: URL) throws -> Int {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try Self.model())
        try coordinator.addPersistentStore(type: .sqlite, at: file)
        var written = 0
        var context = ManagedObjectContext(coordinator: coordinator)
        var clubs: [ManagedObject] = []
        for index in 0..<Self.clubs {
            let club = try context.insertNewObject(forEntityName: "Club")
            try club.setValue("club \(index)", forKey: "name")
            clubs.append(club)
        }
        try context.save()
        written += clubs.count
        let clubIDs = clubs.map(\.objectID)
        let batch = 10_000
        for start in stride(from: 0, to: students, by: batch) {
            context = ManagedObjectContext(coordinator: coordinator)
            let clubs = try clubIDs.map { try context.existingObject(with: $0) }
            for index in start..<min(start + batch, students) {
                let student = try context.insertNewObject(forEntityName: "Student")
                try student.setValue(Self.phrase(1, index, words: 2), forKey: "name")
                try student.setValue(Int16(2020 + index % 5), forKey: "year")
                for course in 0..<Self.courseCount(index) {
                    let object = try context.insertNewObject(forEntityName: "Course")
                    try object.setValue(Self.phrase(2, index * 8 + course, words: 3), forKey: "title")
                    try object.setValue(Int16(1 + Self.bits(2, index * 8 + course, 3) % 6), forKey: "credits")
                    // One grade in ten is nil.
                    let grade = Self.unit(2, index * 8 + course, 4)
                    try object.setValue(grade < 0.1 ? nil : (grade - 0.1) / 0.9 * 100, forKey: "grade")
                    try object.setValue(student, forKey: "student")
                    written += 1
                }
                try student.setValue(Self.clubIndexes(index).map { clubs[$0] }, forKey: "clubs")
                written += 1
            }
            try context.save()
        }
        return written
    }
}
