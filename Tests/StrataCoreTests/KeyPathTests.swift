import Foundation
import Testing
import StrataCore
import StrataTestSupport

/// Key paths and collection operators over dictionaries and managed objects.
@Suite("KeyPath")
struct KeyPathTests {
    static var company: [String: Any] {
        [
            "name": "Acme",
            "founded": Date(timeIntervalSinceReferenceDate: 0),
            "address": ["city": "Paris", "geo": ["lat": 48.85, "lon": 2.35]] as [String: Any],
            "scores": [3, 5, 8, 5],
            "ratios": [0.5, 0.25],
            "prices": [Decimal(string: "1.10")!, Decimal(string: "2.20")!],
            "tags": ["b", "a", "b", "c", "a"],
            "tagSet": Set(["x", "y"]),
            "empty": [Int](),
            "teams": [
                ["name": "core", "members": [["name": "Ann", "age": 30], ["name": "Bob", "age": 25]] as [[String: Any]]] as [String: Any],
                ["name": "web", "members": [["name": "Cid", "age": 41]] as [[String: Any]]] as [String: Any],
                ["name": "idle", "members": [[String: Any]]()] as [String: Any],
            ],
        ]
    }

    func value(_ keyPath: String, sourceLocation: SourceLocation = #_sourceLocation) -> Any? {
        do {
            return try Self.company.value(forKeyPath: keyPath)
        } catch {
            Issue.record("\(keyPath): \(error)", sourceLocation: sourceLocation)
            return nil
        }
    }

    // MARK: Walking

    @Test("A key path walks through nested dictionaries")
    func nestedValues() {
        #expect(value("name") as? String == "Acme")
        #expect(value("address.city") as? String == "Paris")
        #expect(value("address.geo.lat") as? Double == 48.85)
        #expect(value("missing") == nil)
        #expect(value("address.missing") == nil)
        #expect(value("missing.deeper.still") == nil, "nil propagates")
    }

    @Test("Through a collection a key path gives the values of its elements, flattened")
    func throughCollections() {
        #expect(value("teams.name") as? [String] == ["core", "web", "idle"])
        #expect((value("teams.members.name") as? [Any])?.compactMap { $0 as? String } == ["Ann", "Bob", "Cid"])
        #expect((value("teams.members.age") as? [Any])?.compactMap { $0 as? Int } == [30, 25, 41])
        #expect((value("teams.nothing") as? [Any])?.isEmpty == true)
    }

    // MARK: Collection operators

    @Test("@count counts arrays, sets and nested collections")
    func count() {
        #expect(value("scores.@count") as? Int64 == 4)
        #expect(value("tagSet.@count") as? Int64 == 2)
        #expect(value("empty.@count") as? Int64 == 0)
        #expect(value("teams.@count") as? Int64 == 3)
        // Below a collection, an operator applies to each element's collection.
        #expect((value("teams.members.@count") as? [Any])?.compactMap { $0 as? Int64 } == [2, 1, 0])
        #expect(value("missing.@count") == nil)
    }

    @Test("@sum adds integers as integers, doubles as doubles, decimals as decimals")
    func sum() {
        #expect(value("scores.@sum") as? Int64 == 21)
        #expect(value("ratios.@sum") as? Double == 0.75)
        #expect(value("prices.@sum") as? Decimal == Decimal(string: "3.3"))
        #expect(value("empty.@sum") as? Int64 == 0)
        #expect((value("teams.members.@sum.age") as? [Any])?.compactMap { $0 as? Int64 } == [55, 41, 0])
        #expect(value("teams.@max.name") as? String == "web")
    }

    @Test("@sum of integers that overflow Int64 falls back to Double")
    func sumOverflow() throws {
        let values: [String: Any] = ["big": [Int64.max, Int64.max]]
        let total = try #require(try values.value(forKeyPath: "big.@sum") as? Double)
        #expect(total == Double(Int64.max) * 2)
    }

    @Test("@avg averages as Double; nil for an empty collection")
    func average() {
        #expect(value("scores.@avg") as? Double == 5.25)
        #expect(value("ratios.@avg") as? Double == 0.375)
        #expect((value("teams.members.@avg.age") as? [Any])?.compactMap { $0 as? Double } == [27.5, 41], "no average for an empty team")
        #expect(value("empty.@avg") == nil)
    }

    @Test("@min and @max return an element; nil for an empty collection")
    func minimumAndMaximum() throws {
        #expect(value("scores.@min") as? Int == 3)
        #expect(value("scores.@max") as? Int == 8)
        #expect(value("tags.@min") as? String == "a")
        #expect(value("tags.@max") as? String == "c")
        #expect((value("teams.members.@max.age") as? [Any])?.compactMap { $0 as? Int } == [30, 41])
        #expect((value("teams.members.@min.name") as? [Any])?.compactMap { $0 as? String } == ["Ann", "Cid"])
        #expect(value("empty.@min") == nil)
        #expect(value("empty.@max") == nil)
        let dates: [String: Any] = ["d": [Date(timeIntervalSinceReferenceDate: 5), Date(timeIntervalSinceReferenceDate: -5)]]
        #expect(try dates.value(forKeyPath: "d.@min") as? Date == Date(timeIntervalSinceReferenceDate: -5))
    }

    @Test("@distinctUnionOfObjects keeps the first of each value, in order")
    func distinctUnion() throws {
        #expect(value("tags.@distinctUnionOfObjects") as? [String] == ["b", "a", "c"])
        #expect((value("scores.@distinctUnionOfObjects") as? [Any])?.compactMap { $0 as? Int } == [3, 5, 8])
        let distinctNames: [String: Any] = ["people": [["name": "Ann"], ["name": "Bob"], ["name": "Ann"]] as [[String: Any]]]
        #expect((try distinctNames.value(forKeyPath: "people.@distinctUnionOfObjects.name") as? [Any])?.compactMap { $0 as? String }
            == ["Ann", "Bob"])
        #expect((value("empty.@distinctUnionOfObjects") as? [Any])?.isEmpty == true)
    }

    // MARK: Malformed key paths

    @Test("Malformed key paths are invalidKeyPath errors naming the path", arguments: [
        "", ".", "a..b", ".name", "name.", "address..city", "scores.@bogus", "@bogus", "scores.@", "scores.@COUNT",
        "name.@count", "address.city.@sum", "name.length", "scores.@sum.@bogus",
    ])
    func malformed(keyPath: String) {
        #expect {
            try Self.company.value(forKeyPath: keyPath)
        } throws: { error in
            guard case .invalidKeyPath(let reported, let reason)? = error as? ObjectError else { return false }
            return reported == keyPath && !reason.isEmpty
        }
    }

    @Test("@sum of strings is an error")
    func sumOfStrings() {
        #expect(throws: ObjectError.self) { try Self.company.value(forKeyPath: "tags.@sum") }
    }

    // MARK: Managed objects

    @Test("Key paths walk managed objects, their relationships and aggregates")
    func managedObjects() throws {
        let context = try makeContext(SampleModels.company())
        let acme = try context.insertNewObject(forEntityName: "Employer")
        try acme.setValue("Acme", forKey: "name")
        for (name, salary) in [("Ann", 100.0), ("Bob", 50.5), ("Cid", 49.5)] {
            let employee = try context.insertNewObject(forEntityName: "Employee")
            try employee.setValue(name, forKey: "name")
            try employee.setValue(salary, forKey: "salary")
            try employee.setValue(acme, forKey: "whereIWork")
        }
        try context.save()
        let ann = try #require(try context.fetch(FetchRequest(entityName: "Employee", predicate: .equal("name", "Ann"))).first)

        #expect(try ann.value(forKeyPath: "whereIWork.name") as? String == "Acme")
        #expect(try acme.value(forKeyPath: "employees.@count") as? Int64 == 3)
        #expect(try acme.value(forKeyPath: "employees.@sum.salary") as? Double == 200)
        #expect(try acme.value(forKeyPath: "employees.@avg.salary") as? Double == 200.0 / 3)
        #expect(try acme.value(forKeyPath: "employees.@max.salary") as? Double == 100)
        #expect(Set((try acme.value(forKeyPath: "employees.name") as? [Any])?.compactMap { $0 as? String } ?? [])
            == ["Ann", "Bob", "Cid"])
        #expect(try ann.value(forKeyPath: "whereIWork.employees.@count") as? Int64 == 3)
        #expect(throws: ObjectError.unknownKey(entity: "Employer", key: "nope")) {
            try ann.value(forKeyPath: "whereIWork.nope")
        }
        #expect(throws: ObjectError.self) { try ann.value(forKeyPath: "whereIWork..name") }
        #expect(throws: ObjectError.self) { try acme.value(forKeyPath: "employees.@median.salary") }

        // The same paths work in predicates and fetches.
        let rich = try context.fetch(FetchRequest(
            entityName: "Employer", predicate: try ObjectPredicate(format: "employees.@sum.salary > 150 AND ANY employees.name == 'Bob'")))
        #expect(rich == [acme])
    }
}
