import Foundation
import Strata
import StrataTestSupport
import Testing

/// A comparison that can never match for its types (`age == 'x'` with `age` an Integer 16) and
/// a sort key through a to-many are refused before any store runs the request, the same on
/// every store, for fetches, counts and batch requests, instead of an empty answer on one store
/// and something else on another. What Core Data accepts is kept (the whole predicate table runs
/// in ``PredicateTableTests``; a few mixed-kind cases are checked here too).
@Suite("Mismatched comparisons and to-many sort keys")
struct MismatchedComparisonTests {
    /// A refused format, on `Person` unless it names another entity, and the key path and
    /// type the error must name.
    struct Refused: Sendable, CustomStringConvertible {
        var format: String
        var key: String
        var keyType: String
        var entity = "Person"
        var description: String { "\(entity): \(format)" }
    }

    static let refused: [Refused] = [
        Refused(format: "age == 'x'", key: "age", keyType: "Integer 16"),
        Refused(format: "'x' == age", key: "age", keyType: "Integer 16"),
        Refused(format: "name > 5", key: "name", keyType: "String"),
        Refused(format: "born == 'yesterday'", key: "born", keyType: "Date"),
        Refused(format: "born > 5", key: "born", keyType: "Date"),
        Refused(format: "active == 'yes'", key: "active", keyType: "Boolean"),
        Refused(format: "age BEGINSWITH '3'", key: "age", keyType: "Integer 16"),
        Refused(format: "name IN {1, 2}", key: "name", keyType: "String"),
        Refused(format: "age BETWEEN {'a', 'z'}", key: "age", keyType: "Integer 16"),
        Refused(format: "photo == 'AQI='", key: "photo", keyType: "Binary"),
        Refused(format: "employer == 'Acme'", key: "employer", keyType: "an object"),
        Refused(format: "employer.name == 3", key: "employer.name", keyType: "String"),
        Refused(format: "ANY pets.legs == 'four'", key: "pets.legs", keyType: "Integer 32"),
        Refused(format: "age > 20 AND (name == 'Bob' OR born < 'now')", key: "born", keyType: "Date"),
        Refused(format: "NOT salary == 'much'", key: "salary", keyType: "Decimal"),
        Refused(format: "founded == 'long ago'", key: "founded", keyType: "Date", entity: "Company"),
    ]

    private func expectRefused(_ item: Refused, sourceLocation: SourceLocation = #_sourceLocation,
                               _ body: () throws -> Void) {
        #expect(sourceLocation: sourceLocation) {
            try body()
        } throws: { error in
            guard case let FetchRequestError.mismatchedComparison(entity, key, keyType, _, _) = error else { return false }
            let text = "\(error)"
            return entity == item.entity && key == item.key && keyType == item.keyType
                && text.contains("'\(item.key)' (\(item.keyType))")
        }
    }

    @Test("fetches, counts and batch requests refuse a comparison of mismatched types, naming the key and the types",
          arguments: StoreUnderTest.all, refused)
    func refusedOnEveryPath(store: StoreUnderTest, item: Refused) throws {
        let context = try store.makeContext(model: PredicateFixture.model())
        try PredicateFixture.insert(into: context)
        try context.save()
        let fresh = context.freshContext()
        let predicate = try ObjectPredicate(format: item.format)
        let request = FetchRequest(entityName: item.entity, predicate: predicate)
        expectRefused(item) { _ = try fresh.fetch(request) }
        expectRefused(item) { _ = try fresh.count(for: request) }
        expectRefused(item) { _ = try fresh.fetchObjectIDs(request) }
        var dictionaries = request
        dictionaries.resultType = .dictionary
        expectRefused(item) { _ = try fresh.fetchDictionaries(dictionaries) }
        expectRefused(item) {
            _ = try fresh.execute(BatchDeleteRequest(fetchRequest: request))
        }
        let key = item.entity == "Person" ? "nickname" : "city"
        expectRefused(item) {
            _ = try fresh.execute(BatchUpdateRequest(entityName: item.entity, predicate: predicate, propertiesToUpdate: [key: "x"]))
        }
        // Nothing was changed or deleted.
        #expect(try fresh.count(for: FetchRequest(entityName: "Person")) == 8)
    }

    @Test("comparisons Core Data accepts across kinds still run", arguments: StoreUnderTest.all)
    func acceptedMixes(store: StoreUnderTest) throws {
        let context = try store.makeContext(model: PredicateFixture.model())
        try PredicateFixture.insert(into: context)
        try context.save()
        let fresh = context.freshContext()
        let formats = [
            "age == 30.0", "age == YES", "active == 1", "salary > 4000", "height > 1", "age == nil", "name == nil",
            "employer == nil", "employer.founded == nil", "pets.@count > 1", "ANY pets.name == 'Rex'",
            "name IN {'Alice', nil}", "age IN {30, 40.0}", "tasks.@max.priority > 2",
            "SUBQUERY(pets, $p, $p.legs == 4).@count > 0", "'li' IN name", "pets CONTAINS %@",
        ]
        let rex = try fresh.fetch(FetchRequest(entityName: "Pet", predicate: try ObjectPredicate(format: "name == 'Rex'")))
        for format in formats {
            let predicate = format.contains("%@") ? try ObjectPredicate(format: format, rex[0]) : try ObjectPredicate(format: format)
            #expect(throws: Never.self, "\(format)") { _ = try fresh.fetch(FetchRequest(entityName: "Person", predicate: predicate)) }
        }
    }

    @Test("a sort key through a to-many is refused, naming it; through to-ones it sorts", arguments: StoreUnderTest.all)
    func toManySortKey(store: StoreUnderTest) throws {
        let context = try store.makeContext(model: PredicateFixture.model())
        try PredicateFixture.insert(into: context)
        try context.save()
        let fresh = context.freshContext()
        for key in ["pets", "pets.name", "employer.employees.name"] {
            let request = FetchRequest(entityName: "Person", sortDescriptors: [ObjectSortDescriptor(key: key)])
            #expect {
                _ = try fresh.fetch(request)
            } throws: { error in
                guard case let FetchRequestError.toManySortKey(entity, found, _) = error else { return false }
                return entity == "Person" && found == key && "\(error)".contains("cannot sort by '\(key)'")
            }
        }
        let sorted = try fresh.fetch(FetchRequest(entityName: "Person", predicate: try ObjectPredicate(format: "employer != nil"),
                                                  sortDescriptors: [ObjectSortDescriptor(key: "employer.name"), ObjectSortDescriptor(key: "age")]))
        #expect(try sorted.map { try $0.string("name") } == ["Bob", "Rene\u{301}", "Alice", "Chlo\u{E9}", "Дмитрий"])
    }
}
