import Foundation
import Strata
import StrataTestSupport
import Testing

/// Scenario 7: key paths across relationships, in values, predicates and collection operators.
@Suite("Key paths")
struct KeyPathTests {
    /// Acme employs Alice (100) and Bob (200.5); Bolt employs Carol (50); Dora works nowhere.
    private func seed(_ store: StoreUnderTest) throws -> ManagedObjectContext {
        let context = try store.makeContext(model: SampleModels.company())
        let acme = try context.insert("Employer", ["name": "Acme"])
        let bolt = try context.insert("Employer", ["name": "Bolt"])
        try context.insert("Employee", ["name": "Alice", "salary": 100.0, "whereIWork": acme])
        try context.insert("Employee", ["name": "Bob", "salary": 200.5, "whereIWork": acme])
        try context.insert("Employee", ["name": "Carol", "salary": 50.0, "whereIWork": bolt])
        try context.insert("Employee", ["name": "Dora", "salary": 75.0])
        try context.save()
        return context
    }

    private func employee(_ name: String, in context: ManagedObjectContext) throws -> ManagedObject {
        try #require(try context.fetch(FetchRequest(
            entityName: "Employee", predicate: try ObjectPredicate(format: "name == %@", name))).first)
    }

    private func employer(_ name: String, in context: ManagedObjectContext) throws -> ManagedObject {
        try #require(try context.fetch(FetchRequest(
            entityName: "Employer", predicate: try ObjectPredicate(format: "name == %@", name))).first)
    }

    private var worksAtA: FetchRequest<ManagedObject> {
        get throws {
            sortedRequest("Employee", predicate: try ObjectPredicate(format: "whereIWork.name BEGINSWITH %@", "A"))
        }
    }

    @Test("Scenario 7: value(forKeyPath:) walks a to-one", arguments: StoreUnderTest.all)
    func valueForKeyPath(store: StoreUnderTest) throws {
        let context = try seed(store).freshContext()
        #expect(try employee("Alice", in: context).value(forKeyPath: "whereIWork.name") as? String == "Acme")
        #expect(try employee("Carol", in: context).value(forKeyPath: "whereIWork.name") as? String == "Bolt")
        #expect(try employee("Dora", in: context).value(forKeyPath: "whereIWork.name") == nil)
        #expect(try employee("Alice", in: context).value(forKeyPath: "name") as? String == "Alice")
        let names = try employer("Acme", in: context).value(forKeyPath: "employees.name") as? [Any]
        #expect(names?.compactMap { $0 as? String }.sorted() == ["Alice", "Bob"])
    }

    @Test("Scenario 7: a key-path predicate in a fetch of saved objects", arguments: StoreUnderTest.all)
    func keyPathPredicateSaved(store: StoreUnderTest) throws {
        let context = try seed(store).freshContext()
        #expect(try context.strings(worksAtA) == ["Alice", "Bob"])
        #expect(try context.count(for: worksAtA) == 2)
        #expect(try context.strings(sortedRequest(
            "Employee", predicate: try ObjectPredicate(format: "whereIWork == nil"))) == ["Dora"])
        #expect(try context.strings(sortedRequest(
            "Employer", predicate: try ObjectPredicate(format: "ANY employees.salary > 150"))) == ["Acme"])
    }

    @Test("Scenario 7: a key-path predicate in a fetch of unsaved objects", arguments: StoreUnderTest.all)
    func keyPathPredicateUnsaved(store: StoreUnderTest) throws {
        let context = try seed(store).freshContext()
        let apex = try context.insert("Employer", ["name": "Apex"])
        try context.insert("Employee", ["name": "Eli", "salary": 10.0, "whereIWork": apex])
        try employee("Carol", in: context).setValue(apex, forKey: "whereIWork")
        try employee("Bob", in: context).setValue(nil, forKey: "whereIWork")
        try context.insert("Employee", ["name": "Finn", "whereIWork": try employer("Bolt", in: context)])
        #expect(try context.strings(worksAtA) == ["Alice", "Carol", "Eli"])
        #expect(try context.count(for: worksAtA) == 3)

        try context.save()
        #expect(try context.freshContext().strings(worksAtA) == ["Alice", "Carol", "Eli"])
    }

    @Test("Scenario 7: @count, @sum, @avg, @max and @min over a to-many", arguments: StoreUnderTest.all)
    func collectionOperators(store: StoreUnderTest) throws {
        let context = try seed(store).freshContext()
        let acme = try employer("Acme", in: context)
        #expect(try acme.value(forKeyPath: "employees.@count") as? Int64 == 2)
        #expect(try acme.value(forKeyPath: "employees.@sum.salary") as? Double == 300.5)
        #expect(try acme.value(forKeyPath: "employees.@avg.salary") as? Double == 150.25)
        #expect(try acme.value(forKeyPath: "employees.@max.salary") as? Double == 200.5)
        #expect(try acme.value(forKeyPath: "employees.@min.salary") as? Double == 100.0)

        let bolt = try employer("Bolt", in: context)
        #expect(try bolt.value(forKeyPath: "employees.@count") as? Int64 == 1)
        #expect(try bolt.value(forKeyPath: "employees.@sum.salary") as? Double == 50.0)

        // Unsaved changes count at once.
        try context.insert("Employee", ["name": "Gil", "salary": 99.5, "whereIWork": acme])
        #expect(try acme.value(forKeyPath: "employees.@count") as? Int64 == 3)
        #expect(try acme.value(forKeyPath: "employees.@sum.salary") as? Double == 400.0)

        // The same operators in a predicate.
        let big = sortedRequest("Employer", predicate: try ObjectPredicate(format: "employees.@count >= 2"))
        #expect(try context.strings(big) == ["Acme"])
        #expect(try context.freshContext().strings(big) == ["Acme"])
        let rich = sortedRequest("Employer", predicate: try ObjectPredicate(format: "employees.@sum.salary > 60"))
        #expect(try context.freshContext().strings(rich) == ["Acme"])
    }
}
