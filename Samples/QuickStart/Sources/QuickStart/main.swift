// Strata quick start: a model in code, a coordinator with a store, a context, a save and a fetch.
//
//   swift run --package-path Samples/QuickStart [store-type]
//
// The store type is chosen at run time by name (default: InMemory); every registered type works
// the same way.
import Foundation
import Strata

do {
    // 1. The model: students who belong to a school.
    let model = try ManagedObjectModel {
        EntityDescription("School") {
            Attribute("name", .string, optional: false)
            Relationship("students", toMany: "Student", inverse: "school", deleteRule: .cascade)
        }
        EntityDescription("Student") {
            Attribute("id", .integer64, optional: false)
            Attribute("name", .string, optional: false)
            Attribute("age", .integer16, minimum: 0, maximum: 150)
            Relationship("school", to: "School", inverse: "students")
        }
    }

    // 2. The stack: a coordinator with one store, picked by name.
    let typeName = CommandLine.arguments.dropFirst().first ?? StoreType.inMemory.rawValue
    guard let type = StoreType.named(typeName) else {
        print("unknown store type '\(typeName)'; registered: \(StoreType.registeredTypes.map(\.rawValue).joined(separator: ", "))")
        exit(2)
    }
    let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
    let url = type == .inMemory ? nil
        : FileManager.default.temporaryDirectory.appendingPathComponent("quickstart-\(UUID().uuidString).\(type.rawValue.lowercased())")
    let store = try coordinator.addPersistentStore(type: type, at: url)
    print("store \(store.type) \(store.identifier)\(url.map { " at \($0.path)" } ?? "")")

    // 3. Insert and save.
    let context = ManagedObjectContext(coordinator: coordinator)
    let school = try context.insertNewObject(forEntityName: "School")
    try school.setValue("Riverside", forKey: "name")
    for (id, name, age) in [(1, "Alice", 18), (2, "Bob", 17), (3, "Chloé", 19)] {
        let student = try context.insertNewObject(forEntityName: "Student")
        try student.setValue(id, forKey: "id")
        try student.setValue(name, forKey: "name")
        try student.setValue(age, forKey: "age")
        try student.setValue(school, forKey: "school")
    }
    try context.save()
    print("saved \(context.registeredObjects.count) objects")

    // 4. Fetch them back in a fresh context: adults, oldest first.
    let reader = ManagedObjectContext(coordinator: coordinator)
    let request = FetchRequest(
        entityName: "Student",
        predicate: try ObjectPredicate(format: "age >= %@", 18),
        sortDescriptors: [ObjectSortDescriptor(key: "age", ascending: false)])
    for student in try reader.fetch(request) {
        let name = try student.value(forKey: "name") as? String ?? "?"
        let age = try student.value(forKey: "age") as? Int16 ?? 0
        let schoolName = try student.value(forKeyPath: "school.name") as? String ?? "?"
        print("fetched \(name), \(age), \(schoolName) — \(student.objectID.uriRepresentation)")
    }
    print("students in total: \(try reader.count(for: FetchRequest(entityName: "Student")))")
} catch {
    print("error: \(error)")
    exit(1)
}
