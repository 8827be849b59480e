import Foundation
import Strata
import StrataTestSupport
import Testing

extension PredicateCase: CustomTestStringConvertible {
    public var testDescription: String { description }
}

/// The predicate table against every store type: saved objects fetched by a fresh context
/// (the store evaluates), and unsaved objects fetched by the context that holds them (the
/// context evaluates its pending changes).
@Suite("Predicate table")
struct PredicateTableTests {
    @Test("The table has at least 200 cases, each with a distinct format and arguments")
    func size() {
        #expect(PredicateTable.cases.count >= 200)
        // Compared by scalars: a precomposed and a decomposed format are different cases.
        let keys = PredicateTable.cases.map {
            "\($0.entity) \($0.format) \($0.arguments) \($0.variables)".unicodeScalars.map { String($0.value, radix: 16) }
        }
        #expect(Set(keys).count == keys.count)
    }

    @Test("Every case matches its objects after a save", arguments: StoreUnderTest.all)
    func saved(store: StoreUnderTest) throws {
        let context = try store.makeContext(model: PredicateFixture.model())
        try PredicateFixture.insert(into: context)
        try context.save()
        try run(on: context.freshContext(), store: store, mode: "saved")
    }

    @Test("Every case matches its objects while they are unsaved", arguments: StoreUnderTest.all)
    func unsaved(store: StoreUnderTest) throws {
        let context = try store.makeContext(model: PredicateFixture.model())
        try PredicateFixture.insert(into: context)
        try run(on: context, store: store, mode: "unsaved")
    }

    @Test("Without includesPendingChanges no unsaved object matches", arguments: StoreUnderTest.all)
    func excludingPendingChanges(store: StoreUnderTest) throws {
        let context = try store.makeContext(model: PredicateFixture.model())
        try PredicateFixture.insert(into: context)
        for item in PredicateTable.cases.prefix(20) {
            var request = FetchRequest(entityName: item.entity, predicate: try predicate(for: item, in: context))
            request.includesPendingChanges = false
            #expect(try context.fetch(request).isEmpty, "\(item.format)")
        }
    }

    @Test("description parses back to an equal predicate for every case")
    func roundTrip() throws {
        let context = try StoreUnderTest.all[0].makeContext(model: PredicateFixture.model())
        try PredicateFixture.insert(into: context)
        try context.save()
        for item in PredicateTable.cases {
            let parsed = try predicate(for: item, in: context, substitute: false)
            let printed = parsed.description
            let reparsed = try ObjectPredicate(format: printed)
            #expect(reparsed == parsed, "\(item.format) printed as \(printed)")
            #expect(reparsed.description == printed, "\(item.format): printing is stable")
        }
    }

    private func run(on context: ManagedObjectContext, store: StoreUnderTest, mode: String) throws {
        for item in PredicateTable.cases {
            do {
                let predicate = try predicate(for: item, in: context)
                let request = FetchRequest(entityName: item.entity, predicate: predicate)
                let names = Set(try context.fetch(request).map { try $0.value(forKey: "name") as? String ?? "<nil>" })
                #expect(names == item.expected, "\(store) \(mode): \(item.entity) \(item.format)")
                #expect(try context.count(for: request) == item.expected.count, "\(store) \(mode) count: \(item.format)")
                // The printed predicate fetches the same objects.
                let reparsed = try ObjectPredicate(format: predicate.description)
                let again = Set(try context.fetch(FetchRequest(entityName: item.entity, predicate: reparsed))
                    .map { try $0.value(forKey: "name") as? String ?? "<nil>" })
                #expect(again == item.expected, "\(store) \(mode) reparsed: \(predicate.description)")
            } catch {
                Issue.record("\(store) \(mode): \(item.entity) \(item.format): \(error)")
            }
        }
    }

    /// The case's predicate with its arguments (and, when `substitute`, its variables) bound to
    /// values and to the fixture objects of `context`.
    private func predicate(for item: PredicateCase, in context: ManagedObjectContext,
                           substitute: Bool = true) throws -> ObjectPredicate {
        func resolve(_ argument: TableArgument) throws -> Any? {
            switch argument {
            case .value(let value): return value
            case .object(let key): return try object(key, in: context)
            case .objects(let keys): return try keys.map { try object($0, in: context) }
            }
        }
        let parsed = try ObjectPredicate(format: item.format, argumentArray: try item.arguments.map(resolve))
        guard substitute, !item.variables.isEmpty else { return parsed }
        return parsed.withSubstitutionVariables(try item.variables.mapValues(resolve))
    }

    private func object(_ key: String, in context: ManagedObjectContext) throws -> ManagedObject {
        let parts = key.split(separator: "/", maxSplits: 1).map(String.init)
        let request = FetchRequest(entityName: parts[0], predicate: .compare("name", .equalTo, parts[1], options: .normalized))
        return try #require(try context.fetch(request).first, "no fixture object \(key)")
    }
}
