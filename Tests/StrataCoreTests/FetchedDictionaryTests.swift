import Foundation
import StrataCore
import Testing

/// Fetched dictionaries, expressions and sort descriptors as plain values, without a store.
@Suite("FetchedDictionary")
struct FetchedDictionaryTests {
    private let row = FetchedDictionary(
        requestedKeys: ["name", "age", "whereIWork.name", "whereIWork.city", "missing"],
        storedValues: ["name": .string("Ann"), "age": .integer(30), "whereIWork.name": .string("Acme"),
                       "whereIWork.city": .string("Köln")],
        attributes: ["age": AttributeDescription(name: "age", type: .integer16)],
        entityName: "Employee")

    @Test("Values come as their attribute's Swift type; nil keys are absent")
    func values() throws {
        #expect(row["age"] as? Int16 == 30)
        #expect(row["age", as: Int16.self] == 30)
        #expect(row["name"] as? String == "Ann")
        #expect(row["missing"] == nil)
        #expect(row["nope"] == nil)
        #expect(row.keys == ["name", "age", "whereIWork.name", "whereIWork.city"])
        #expect(row.dictionary.count == 4)
        #expect(row.dictionary["age"] as? Int16 == 30)
        // Without a declared type, integers are Int64.
        let untyped = FetchedDictionary(requestedKeys: ["n"], storedValues: ["n": .integer(3)])
        #expect(untyped["n"] as? Int64 == 3)
        #expect(row.description == "{name = Ann; age = 30; whereIWork.name = Acme; whereIWork.city = Köln}")
    }

    @Test("Key paths walk dotted keys; predicates evaluate against a dictionary")
    func keyPaths() throws {
        #expect(try row.value(forKeyPath: "whereIWork.city") as? String == "Köln")
        let nested = try #require(try row.value(forKey: "whereIWork") as? FetchedDictionary)
        #expect(nested.keys == ["name", "city"])
        #expect(try ObjectPredicate(format: "whereIWork.name BEGINSWITH 'A' AND age > 20").evaluate(with: row))
        #expect(try !ObjectPredicate(format: "missing != nil").evaluate(with: row))
    }

    @Test("Equal values are equal dictionaries, whatever the key order or types declared")
    func equality() {
        let same = FetchedDictionary(requestedKeys: ["age", "name", "whereIWork.city", "whereIWork.name"],
                                     storedValues: row.storedValues)
        #expect(same == row)
        #expect(Set([row, same]).count == 1)
        let other = FetchedDictionary(requestedKeys: ["name"], storedValues: ["name": .string("Ben")])
        #expect(other != row)
    }

    @Test("A transformable value comes back through its transformer; a failing one is an error from value(forKey:)")
    func transformable() throws {
        ValueTransformerRegistry.register(CodableValueTransformer<[String]>(), forName: "FetchedDictionaryTests.Colors")
        let colors = AttributeDescription(name: "colors", type: .transformable, valueTransformerName: "FetchedDictionaryTests.Colors")
        let good = FetchedDictionary(requestedKeys: ["colors"], storedValues: ["colors": .binary(Data(#"["red","blue"]"#.utf8))],
                                     attributes: ["colors": colors], entityName: "Mood")
        #expect(good["colors"] as? [String] == ["red", "blue"])
        let bad = FetchedDictionary(requestedKeys: ["colors"], storedValues: ["colors": .binary(Data("not json".utf8))],
                                    attributes: ["colors": colors], entityName: "Mood")
        // The subscript gives the bytes; value(forKey:) says what went wrong, naming entity and key.
        #expect(bad["colors"] as? Data == Data("not json".utf8))
        #expect {
            try bad.value(forKey: "colors")
        } throws: { error in
            guard case ObjectError.transformationFailed(let entity, let key, _) = error else { return false }
            return entity == "Mood" && key == "colors"
        }
    }

    @Test("Expressions and properties print as Core Data writes them")
    func expressions() throws {
        #expect(FetchExpression.sum("salary").description == "sum:(salary)")
        #expect(FetchExpression.count().description == "count:(SELF)")
        #expect(FetchExpression.count("salary") == .function(.count, .keyPath("salary")))
        #expect(try FetchExpression(function: "max:", keyPath: "date") == .max("date"))
        #expect(AggregateFunction(functionName: "average:") == .average)
        #expect(AggregateFunction(functionName: "median:") == nil)
        #expect(AggregateFunction.allCases.map(\.functionName) == ["count:", "sum:", "average:", "min:", "max:"])
        #expect(FetchExpression.min("x").isAggregate)
        #expect(!FetchExpression.keyPath("x").isAggregate)
        let total = ExpressionDescription(name: "total", expression: .sum("age"), resultType: .integer64)
        #expect(total.description == "total = sum:(age) (Integer 64)")
        let properties: [FetchProperty] = ["name", .expression(total), .attribute(AttributeDescription(name: "age", type: .integer16))]
        #expect(properties.map(\.name) == ["name", "total", "age"])
        #expect(properties.map(\.description) == ["name", "total = sum:(age) (Integer 64)", "age"])
    }

    @Test("Sort descriptors order plain dictionaries: nil first, numbers across widths, strings by locale")
    func sortingDictionaries() throws {
        let people: [[String: Any?]] = [["name": "Öberg", "age": Int16(40)], ["name": "Zorn", "age": nil], ["name": "Olsen", "age": Int64(7)]]
        func sorted(_ descriptor: ObjectSortDescriptor) throws -> [String] {
            try people.sorted { try descriptor.compareObjects($0, $1) == .orderedAscending }.map { $0["name"] as? String ?? "" }
        }
        #expect(try sorted(ObjectSortDescriptor(key: "age")) == ["Zorn", "Olsen", "Öberg"])
        #expect(try sorted(ObjectSortDescriptor(key: "age", ascending: false)) == ["Öberg", "Olsen", "Zorn"])
        #expect(try sorted(ObjectSortDescriptor(key: "name", comparison: .localized(Locale(identifier: "de")))) == ["Öberg", "Olsen", "Zorn"])
        #expect(try sorted(ObjectSortDescriptor(key: "name", comparison: .localized(Locale(identifier: "sv")))) == ["Olsen", "Zorn", "Öberg"])
    }

    @Test("Errors name what is wrong in one line")
    func errorDescriptions() {
        #expect(FetchRequestError.ungroupedProperty(entity: "Employee", property: "name").description
            == "entity 'Employee': 'name' is fetched with aggregates but is not in propertiesToGroupBy")
        #expect(FetchRequestError.expressionResultType(name: "top", expected: .integer64, found: "string(\"Ian\")").description
            == "expression 'top': a string(\"Ian\") value does not fit the result type Integer 64")
        #expect(FetchRequestError.cancelled.description == "the asynchronous fetch was cancelled")
    }
}
