import Foundation
import Strata
import StrataTestSupport
import Testing

/// The company of the dictionary tests (`SampleModels.company()`): who works where, for how much.
enum Payroll {
    /// `(name, salary, employer)`; Gus's salary is unknown, Dan works nowhere.
    static let employees: [(String, Double?, String?)] = [
        ("Ann", 100, "Acme"), ("Ben", 200, "Acme"), ("Eva", 300, "Acme"),
        ("Cat", 50, "Globex"), ("Gus", nil, "Globex"),
        ("Ian", 80, "Initech"),
        ("Dan", 40, nil),
    ]

    /// A context on a fresh store holding the company, saved; the objects by name.
    static func seed(_ store: StoreUnderTest) throws -> (ManagedObjectContext, [String: ManagedObject]) {
        let context = try store.makeContext(model: SampleModels.company())
        var objects: [String: ManagedObject] = [:]
        for employer in ["Acme", "Globex", "Initech"] {
            objects[employer] = try context.insert("Employer", ["name": employer])
        }
        for (name, salary, employer) in employees {
            let employee = try context.insert("Employee", ["name": name, "salary": salary])
            try employee.setValue(employer.flatMap { objects[$0] }, forKey: "whereIWork")
            objects[name] = employee
        }
        try context.save()
        return (context, objects)
    }

    /// An expression description.
    static func expression(_ name: String, _ expression: FetchExpression, _ type: AttributeType) -> FetchProperty {
        .expression(ExpressionDescription(name: name, expression: expression, resultType: type))
    }

    /// Employees grouped by employer name, with a headcount and salary aggregates.
    static func byEmployer() -> FetchRequest<ManagedObject> {
        var request = FetchRequest(entityName: "Employee")
        request.propertiesToFetch = [
            "whereIWork.name",
            expression("headcount", .count(), .integer64),
            expression("paid", .count("salary"), .integer64),
            expression("payroll", .sum("salary"), .double),
            expression("meanPay", .average("salary"), .double),
            expression("lowest", .min("salary"), .double),
            expression("highest", .max("salary"), .double),
        ]
        request.propertiesToGroupBy = ["whereIWork.name"]
        request.sortDescriptors = [ObjectSortDescriptor(key: "whereIWork.name")]
        return request
    }

    /// One group's expected values (nil ones left out, as in the result).
    static func group(
        _ employer: String?, headcount: Int64, paid: Int64, payroll: Double,
        mean: Double? = nil, lowest: Double? = nil, highest: Double? = nil
    ) -> [String: AttributeValue] {
        var values: [String: AttributeValue] = ["headcount": .integer(headcount), "paid": .integer(paid), "payroll": .double(payroll)]
        if let employer { values["whereIWork.name"] = .string(employer) }
        if let mean { values["meanPay"] = .double(mean) }
        if let lowest { values["lowest"] = .double(lowest) }
        if let highest { values["highest"] = .double(highest) }
        return values
    }
}

/// Every result type of a fetch request, dictionaries with properties, key paths, expressions,
/// grouping, having and distinct, and the errors of requests that cannot be carried out.
@Suite("Fetch result types")
struct FetchResultTests {
    @Test("Scenario 4: one request as objects, object IDs, a count and dictionaries, with the sum of age",
          arguments: StoreUnderTest.all)
    func resultTypes(store: StoreUnderTest) throws {
        let context = try store.makeContext(model: SampleModels.student())
        for (id, name, age) in [(1, "Alice", 18), (2, "Bob", 20), (3, "Carol", 22), (4, "Dave", 19)] {
            try context.insert("Student", ["id": id, "name": name, "age": age])
        }
        try context.insert("Student", ["id": 5, "name": "Eve"])
        try context.save()
        let fresh = context.freshContext()
        var request = sortedRequest("Student", by: "id", predicate: try ObjectPredicate(format: "age >= 19"))

        let objects = try fresh.fetch(request)
        #expect(try objects.map { try $0.string("name") } == ["Bob", "Carol", "Dave"])
        #expect(try fresh.fetchObjectIDs(request) == objects.map(\.objectID))
        #expect(try fresh.count(for: request) == 3)

        request.propertiesToFetch = ["id", "name", "age"]
        let rows = try fresh.fetchDictionaries(request)
        #expect(rows.map(\.storedValues) == [
            ["id": .integer(2), "name": .string("Bob"), "age": .integer(20)],
            ["id": .integer(3), "name": .string("Carol"), "age": .integer(22)],
            ["id": .integer(4), "name": .string("Dave"), "age": .integer(19)],
        ])
        // Values come back as the attribute's Swift type.
        #expect(rows[0]["id"] as? Int64 == 2)
        #expect(rows[0]["age"] as? Int16 == 20)
        #expect(rows[0]["name", as: String.self] == "Bob")
        #expect(rows[0].keys == ["id", "name", "age"])

        request.propertiesToFetch = [Payroll.expression("totalAge", .sum("age"), .integer64)]
        let total = try fresh.fetchDictionaries(request)
        #expect(total.map(\.storedValues) == [["totalAge": .integer(61)]])
        #expect(total.first?["totalAge"] as? Int64 == 61)

        // execute(_:) returns what resultType asks for.
        request.propertiesToFetch = ["name"]
        request.resultType = .managedObject
        guard case .objects(let results) = try fresh.execute(request) else { Issue.record("not objects"); return }
        #expect(Array(results) == objects)
        request.resultType = .managedObjectID
        guard case .objectIDs(let ids) = try fresh.execute(request) else { Issue.record("not IDs"); return }
        #expect(ids == objects.map(\.objectID))
        request.resultType = .count
        guard case .count(let count) = try fresh.execute(request) else { Issue.record("not a count"); return }
        #expect(count == 3)
        request.resultType = .dictionary
        guard case .dictionaries(let dictionaries) = try fresh.execute(request) else { Issue.record("not dictionaries"); return }
        #expect(dictionaries.map { $0["name"] as? String } == ["Bob", "Carol", "Dave"])
        #expect(try fresh.execute(request).resultCount == 3)
    }

    @Test("Dictionaries: to-one relationships as IDs, key paths through them, the object's own ID, nil left out",
          arguments: StoreUnderTest.all)
    func dictionaryValues(store: StoreUnderTest) throws {
        let (context, objects) = try Payroll.seed(store)
        let fresh = context.freshContext()
        var request = sortedRequest("Employee", by: "name", predicate: try ObjectPredicate(format: "name IN %@", ["Ann", "Dan", "Gus"]))
        request.propertiesToFetch = ["name", "whereIWork", "whereIWork.name", Payroll.expression("me", .evaluatedObject, .objectID)]
        let rows = try fresh.fetchDictionaries(request)
        let id = { (name: String) in try #require(objects[name]).objectID }
        #expect(try rows.map(\.storedValues) == [
            ["name": .string("Ann"), "whereIWork": .objectID(id("Acme")), "whereIWork.name": .string("Acme"), "me": .objectID(id("Ann"))],
            ["name": .string("Dan"), "me": .objectID(id("Dan"))],
            ["name": .string("Gus"), "whereIWork": .objectID(id("Globex")), "whereIWork.name": .string("Globex"), "me": .objectID(id("Gus"))],
        ])
        #expect(try rows[0]["whereIWork"] as? ManagedObjectID == id("Acme"))
        #expect(rows[1].keys == ["name", "me"])
        #expect(rows[1].requestedKeys == ["name", "whereIWork", "whereIWork.name", "me"])
        #expect(rows[1]["whereIWork"] == nil)
        // A dotted key is one key; as a key path it walks into a dictionary of the keys under
        // "whereIWork." only where "whereIWork" has no value of its own (see the having test).
        #expect(rows[2]["whereIWork.name"] as? String == "Globex")
        let names = FetchedDictionary(requestedKeys: ["whereIWork.name"], storedValues: ["whereIWork.name": .string("Acme")])
        #expect(try names.value(forKeyPath: "whereIWork.name") as? String == "Acme")
        #expect(rows[2].dictionary.keys.sorted() == ["me", "name", "whereIWork", "whereIWork.name"])
        // Nothing was registered: dictionaries do not make objects of the rows.
        #expect(fresh.registeredObjects.filter { $0.entity.name == "Employee" }.isEmpty)

        // Without propertiesToFetch: every attribute of the entity, no relationship (as Core Data).
        var all = sortedRequest("Employee", by: "name", predicate: try ObjectPredicate(format: "name == 'Gus'"))
        all.resultType = .dictionary
        let gus = try fresh.fetchDictionaries(all)
        #expect(gus.map(\.storedValues) == [["name": .string("Gus")]])
        #expect(gus.first?.requestedKeys == ["name", "salary"])

        // A key path expression under a name of its own, converted to its result type.
        var renamed = sortedRequest("Employee", by: "name", predicate: try ObjectPredicate(format: "name == 'Ann'"))
        renamed.propertiesToFetch = [Payroll.expression("employer", .keyPath("whereIWork.name"), .string),
                                     Payroll.expression("pay", .keyPath("salary"), .integer32)]
        #expect(try fresh.fetchDictionaries(renamed).map(\.storedValues) == [["employer": .string("Acme"), "pay": .integer(100)]])
        #expect(try fresh.fetchDictionaries(renamed).first?["pay"] as? Int32 == 100)
    }

    @Test("Group by with count, sum, average, min and max; having filters groups; order, offset and limit apply to groups",
          arguments: StoreUnderTest.all)
    func groupByAndHaving(store: StoreUnderTest) throws {
        let (context, _) = try Payroll.seed(store)
        let fresh = context.freshContext()
        let nobody = Payroll.group(nil, headcount: 1, paid: 1, payroll: 40, mean: 40, lowest: 40, highest: 40)
        let acme = Payroll.group("Acme", headcount: 3, paid: 3, payroll: 600, mean: 200, lowest: 100, highest: 300)
        // Gus's unknown salary counts in the headcount but in no salary aggregate.
        let globex = Payroll.group("Globex", headcount: 2, paid: 1, payroll: 50, mean: 50, lowest: 50, highest: 50)
        let initech = Payroll.group("Initech", headcount: 1, paid: 1, payroll: 80, mean: 80, lowest: 80, highest: 80)

        var request = Payroll.byEmployer()
        // The group of no employer (nil) sorts first.
        #expect(try fresh.fetchDictionaries(request).map(\.storedValues) == [nobody, acme, globex, initech])

        request.havingPredicate = try ObjectPredicate(format: "headcount > 1")
        #expect(try fresh.fetchDictionaries(request).map(\.storedValues) == [acme, globex])
        request.havingPredicate = try ObjectPredicate(format: "whereIWork.name BEGINSWITH 'I' OR payroll >= 600")
        #expect(try fresh.fetchDictionaries(request).map(\.storedValues) == [acme, initech])

        request.havingPredicate = nil
        request.sortDescriptors = [ObjectSortDescriptor(key: "payroll", ascending: false)]
        #expect(try fresh.fetchDictionaries(request).map(\.storedValues) == [acme, initech, globex, nobody])
        request.fetchOffset = 1
        request.fetchLimit = 2
        #expect(try fresh.fetchDictionaries(request).map(\.storedValues) == [initech, globex])

        // Grouped by a property that is not fetched: one row per group all the same.
        var counts = FetchRequest(entityName: "Employee")
        counts.propertiesToFetch = [Payroll.expression("n", .count(), .integer16)]
        counts.propertiesToGroupBy = ["whereIWork"]
        counts.sortDescriptors = [ObjectSortDescriptor(key: "n", ascending: false)]
        #expect(try fresh.fetchDictionaries(counts).map { $0["n"] as? Int16 } == [3, 2, 1, 1])
    }

    @Test("Aggregates with nil values, with no rows at all, and converted to their result types",
          arguments: StoreUnderTest.all)
    func aggregatesAndNil(store: StoreUnderTest) throws {
        let (context, _) = try Payroll.seed(store)
        let fresh = context.freshContext()

        // Only Gus, whose salary is nil: the sum of nothing is 0 (SQLite's total()); no average, min or max.
        var gus = Payroll.byEmployer()
        gus.predicate = try ObjectPredicate(format: "name == 'Gus'")
        #expect(try fresh.fetchDictionaries(gus).map(\.storedValues) == [Payroll.group("Globex", headcount: 1, paid: 0, payroll: 0)])

        // Without grouping, aggregates fold every row into one dictionary, even when none matches.
        var everyone = Payroll.byEmployer()
        everyone.propertiesToFetch?.removeFirst()
        everyone.propertiesToGroupBy = nil
        everyone.sortDescriptors = []
        // 100 + 200 + 300 + 50 + 80 + 40 = 770 over six known salaries.
        #expect(try fresh.fetchDictionaries(everyone).map(\.storedValues)
            == [Payroll.group(nil, headcount: 7, paid: 6, payroll: 770, mean: 770.0 / 6.0, lowest: 40, highest: 300)])
        everyone.predicate = try ObjectPredicate(format: "name == 'Nobody'")
        #expect(try fresh.fetchDictionaries(everyone).map(\.storedValues) == [Payroll.group(nil, headcount: 0, paid: 0, payroll: 0)])

        // Result types: an average into an integer rounds toward zero; sums as decimals and integers.
        var typed = FetchRequest(entityName: "Employee")
        typed.propertiesToFetch = [
            Payroll.expression("meanInt", .average("salary"), .integer64),
            Payroll.expression("sumDecimal", .sum("salary"), .decimal),
            Payroll.expression("sumInt", .sum("salary"), .integer32),
            Payroll.expression("maxName", .max("name"), .string),
            Payroll.expression("minName", .min("name"), .string),
        ]
        let row = try #require(try fresh.fetchDictionaries(typed).first)
        #expect(row.storedValues == [
            "meanInt": .integer(128), "sumDecimal": .decimal(770), "sumInt": .integer(770),
            "maxName": .string("Ian"), "minName": .string("Ann"),
        ])
        #expect(row["meanInt"] as? Int64 == 128)
        #expect(row["sumInt"] as? Int32 == 770)
        #expect(row["sumDecimal"] as? Decimal == 770)
    }

    @Test("Distinct results: equal dictionaries once, before offset and limit", arguments: StoreUnderTest.all)
    func distinct(store: StoreUnderTest) throws {
        let (context, _) = try Payroll.seed(store)
        let fresh = context.freshContext()
        var request = sortedRequest("Employee", by: "whereIWork.name")
        request.propertiesToFetch = ["whereIWork.name"]
        #expect(try fresh.fetchDictionaries(request).count == 7)
        request.returnsDistinctResults = true
        // Dan works nowhere: his dictionary is empty, and sorts first.
        #expect(try fresh.fetchDictionaries(request).map { $0["whereIWork.name"] as? String } == [nil, "Acme", "Globex", "Initech"])
        request.predicate = try ObjectPredicate(format: "whereIWork != nil")
        #expect(try fresh.fetchDictionaries(request).map { $0["whereIWork.name"] as? String } == ["Acme", "Globex", "Initech"])
        request.fetchOffset = 1
        request.fetchLimit = 1
        #expect(try fresh.fetchDictionaries(request).map { $0["whereIWork.name"] as? String } == ["Globex"])
    }

    @Test("Scenario 9's transformable colors come back through their transformer in dictionaries",
          arguments: StoreUnderTest.all)
    func transformableValues(store: StoreUnderTest) throws {
        ValueTransformerRegistry.register(CodableValueTransformer<[String]>(), forName: "FetchResultTests.Colors")
        let model = try ManagedObjectModel {
            EntityDescription("Mood") {
                Attribute("date", .date, optional: false)
                Attribute("colors", .transformable, valueTransformerName: "FetchResultTests.Colors")
            }
        }
        let context = try store.makeContext(model: model)
        try context.insert("Mood", ["date": Date(timeIntervalSinceReferenceDate: 0), "colors": ["red", "blue"]])
        try context.insert("Mood", ["date": Date(timeIntervalSinceReferenceDate: 60)])
        try context.save()
        var request = FetchRequest(entityName: "Mood", sortDescriptors: [ObjectSortDescriptor(key: "date")])
        request.propertiesToFetch = ["colors", "date"]
        let rows = try context.freshContext().fetchDictionaries(request)
        #expect(rows.map { $0["colors"] as? [String] } == [["red", "blue"], nil])
        #expect(rows.map { $0["date"] as? Date } == [Date(timeIntervalSinceReferenceDate: 0), Date(timeIntervalSinceReferenceDate: 60)])
        request.propertiesToFetch = [Payroll.expression("first", .min("date"), .date), Payroll.expression("last", .max("date"), .date)]
        #expect(try context.fetchDictionaries(request).map(\.storedValues)
            == [["first": .date(Date(timeIntervalSinceReferenceDate: 0)), "last": .date(Date(timeIntervalSinceReferenceDate: 60))]])
    }

    @Test("A request that cannot be carried out says which property, expression or key is at fault",
          arguments: StoreUnderTest.all)
    func invalidRequests(store: StoreUnderTest) throws {
        let (context, _) = try Payroll.seed(store)
        let count = Payroll.expression("n", .count(), .integer64)
        func dictionaries(_ entity: String = "Employee", _ change: (inout FetchRequest<ManagedObject>) throws -> Void) throws {
            var request = FetchRequest(entityName: entity)
            try change(&request)
            _ = try context.fetchDictionaries(request)
        }
        #expect(throws: FetchRequestError.ungroupedProperty(entity: "Employee", property: "name")) {
            try dictionaries { $0.propertiesToFetch = ["name", count]; $0.propertiesToGroupBy = ["whereIWork.name"] }
        }
        #expect(throws: FetchRequestError.ungroupedProperty(entity: "Employee", property: "name")) {
            try dictionaries { $0.propertiesToFetch = ["name", count] }
        }
        #expect(throws: FetchRequestError.havingWithoutGroupBy(entity: "Employee")) {
            try dictionaries { $0.propertiesToFetch = [count]; $0.havingPredicate = try ObjectPredicate(format: "n > 1") }
        }
        #expect(throws: FetchRequestError.sortKeyNotInResult(entity: "Employee", key: "salary")) {
            try dictionaries {
                $0.propertiesToFetch = ["whereIWork", count]
                $0.propertiesToGroupBy = ["whereIWork"]
                $0.sortDescriptors = [ObjectSortDescriptor(key: "salary")]
            }
        }
        #expect(throws: FetchRequestError.duplicatePropertyName("name")) {
            try dictionaries { $0.propertiesToFetch = ["name", Payroll.expression("name", .keyPath("salary"), .double)] }
        }
        #expect(throws: FetchRequestError.expressionResultType(name: "top", expected: .integer64, found: "string(\"Ian\")")) {
            try dictionaries { $0.propertiesToFetch = [Payroll.expression("top", .max("name"), .integer64)] }
        }
        #expect(throws: FetchRequestError.invalidPrefetchKeyPath(
            entity: "Employee", keyPath: "whereIWork.name", reason: "'name' is not a relationship of entity 'Employer'")) {
            var request = FetchRequest(entityName: "Employee")
            request.relationshipKeyPathsForPrefetching = ["whereIWork.name"]
            _ = try context.fetch(request)
        }
        func reason(_ body: () throws -> Void) -> FetchRequestError? {
            do { try body() } catch let error as FetchRequestError { return error } catch {}
            return nil
        }
        // To-many relationships, unknown keys and walking through an attribute are refused.
        for (entity, path) in [("Employer", "employees"), ("Employee", "nope"), ("Employee", "name.first"), ("Employee", "whereIWork..name")] {
            let error = reason { try dictionaries(entity) { $0.propertiesToFetch = [.keyPath(path)] } }
            guard case .invalidProperty(let inEntity, let property, _)? = error else {
                Issue.record("\(entity).\(path): expected invalidProperty, got \(String(describing: error))")
                continue
            }
            #expect(inEntity == entity)
            #expect(property == path)
        }
        // sum: and average: need numbers; count: alone takes the object itself; no nesting.
        for expression in [FetchExpression.sum("name"), .function(.average, .evaluatedObject),
                           .function(.sum, .function(.count, .evaluatedObject))] {
            let error = reason { try dictionaries { $0.propertiesToFetch = [Payroll.expression("x", expression, .double)] } }
            guard case .invalidExpression(let name, _)? = error else {
                Issue.record("\(expression): expected invalidExpression, got \(String(describing: error))")
                continue
            }
            #expect(name == "x")
        }
        #expect(throws: FetchRequestError.invalidExpression(
            name: "median:", reason: "unsupported function (use count:, sum:, average:, min: or max:)")) {
            try FetchExpression(function: "median:", keyPath: "salary")
        }
        #expect(try FetchExpression(function: "sum:", keyPath: "salary") == .sum("salary"))
        #expect(FetchExpression.count().description == "count:(SELF)")
        #expect(FetchExpression.average("salary").description == "average:(salary)")
    }
}
