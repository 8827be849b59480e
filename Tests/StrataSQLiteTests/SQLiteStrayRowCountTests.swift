import Foundation
import Strata
@testable @_spi(StoreImplementation) import StrataCore
import StrataTestSupport
import Testing
@testable import StrataSQLite

/// Counts on a store another program wrote a stray row into (a row whose `Z_ENT` is the code of
/// no entity stored in its table): a count gives what a fetch of the same request gives, the
/// number of objects or the same corrupt-store error, whether the entities fill the table or not.
@Suite("SQLite store: counts agree with fetches on rows of unknown entities")
struct SQLiteStrayRowCountTests {
    static let model: ManagedObjectModel = {
        do {
            return try ManagedObjectModel {
                EntityDescription("Book") {
                    Attribute("title", .string)
                    Attribute("year", .integer32)
                }
                EntityDescription("Item") {
                    Attribute("name", .string)
                }
                EntityDescription("Gadget", parent: "Item") {
                    Attribute("watts", .integer32)
                }
            }
        } catch {
            preconditionFailure("the test model is valid: \(error)")
        }
    }()

    /// A saved store of three books (1990, 2000, 2010), two items and two gadgets, at a file of
    /// its own.
    static func store() throws -> (store: TwoWayStore, url: URL) {
        let url = try TemporaryFolder.make().appendingPathComponent("store.sqlite")
        let store = try TwoWayStore(model: model, url: url)
        for (index, year) in [1990, 2000, 2010].enumerated() {
            let book = try store.context.insertNewObject(forEntityName: "Book")
            try book.setValue("b\(index)", forKey: "title")
            try book.setValue(Int32(year), forKey: "year")
        }
        for index in 0..<4 {
            let item = try store.context.insertNewObject(forEntityName: index < 2 ? "Item" : "Gadget")
            try item.setValue("i\(index)", forKey: "name")
        }
        try store.context.save()
        return (store, url)
    }

    /// Writes `sql` through a connection of its own, as another program would.
    static func write(_ sql: String, to url: URL) throws {
        let other = try SQLiteConnection(path: url.path, create: false)
        try other.run(sql)
    }

    /// What a store call gives: a number, or the error it throws.
    enum Outcome: Equatable, CustomStringConvertible {
        case number(Int)
        case failure(StoreError)
        case otherFailure(String)

        init(_ body: () throws -> Int) {
            do {
                self = .number(try body())
            } catch let error as StoreError {
                self = .failure(error)
            } catch {
                self = .otherFailure(String(describing: error))
            }
        }

        var description: String {
            switch self {
            case .number(let number): "\(number)"
            case .failure(let error): "\(error)"
            case .otherFailure(let error): "other error: \(error)"
            }
        }
    }

    /// Expects `count` of `request` to give what `fetch(_:).count` gives, translated into SQL and
    /// read in memory; returns what the translated fetch gave.
    @discardableResult
    static func expectAgreement(_ store: TwoWayStore, _ request: StoreFetchRequest, _ label: String,
                                sourceLocation: SourceLocation = #_sourceLocation) -> Outcome {
        var translated = Outcome.number(-1)
        for translates in [true, false] {
            store.store.translatesQueries = translates
            let fetched = Outcome { try store.store.fetch(request).count }
            let counted = Outcome { try store.store.count(request) }
            #expect(counted == fetched, "\(label) (\(translates ? "SQL" : "memory")): count \(counted), fetch \(fetched)",
                    sourceLocation: sourceLocation)
            if translates { translated = fetched }
        }
        store.store.translatesQueries = true
        return translated
    }

    /// Whether `outcome` is the corrupt-store error naming a row of unknown `Z_ENT`.
    static func isUnknownEntity(_ outcome: Outcome, code: Int64) -> Bool {
        guard case .failure(.corruptStore(_, _, let reason)) = outcome else { return false }
        return reason.contains("unknown Z_ENT \(code)")
    }

    /// Through a context of `store`'s coordinator, a fetch of every `entityName` fails on the
    /// row of `code`, and `count(for:)` fails the same way.
    static func expectContextCountFailsAsFetch(_ store: TwoWayStore, _ entityName: String, code: Int64,
                                               sourceLocation: SourceLocation = #_sourceLocation) {
        let context = ManagedObjectContext(coordinator: store.coordinator)
        let request = FetchRequest(entityName: entityName)
        let fetched = Outcome { try context.fetch(request).count }
        #expect(isUnknownEntity(fetched, code: code), sourceLocation: sourceLocation)
        #expect(Outcome { try context.count(for: request) } == fetched, sourceLocation: sourceLocation)
    }

    @Test("A count of a table one entity fills fails as the fetch does on a row of an unknown code")
    func singleEntityTable() throws {
        let (store, url) = try Self.store()
        try Self.write("INSERT INTO ZBOOK (Z_PK, Z_ENT, Z_OPT, ZTITLE, ZYEAR) VALUES (50, 99, 1, 'stray', 2100)", to: url)
        let all = Self.expectAgreement(store, store.request("Book", nil), "every book")
        #expect(Self.isUnknownEntity(all, code: 99))
        let recent = Self.expectAgreement(store, store.request("Book", try ObjectPredicate(format: "year >= 2000")), "recent books")
        #expect(Self.isUnknownEntity(recent, code: 99))
        // A predicate the stray row does not meet: SQL never reads it, and the fetch succeeds.
        let old = Self.expectAgreement(store, store.request("Book", try ObjectPredicate(format: "year < 2000")), "old books")
        #expect(old == .number(1))
        // In year order the stray row comes last: a range that stops before it never reads it.
        let byYear = [ObjectSortDescriptor(key: "year")]
        #expect(Self.expectAgreement(store, store.request("Book", nil, sort: byYear, limit: 2), "first two") == .number(2))
        let lastTwo = Self.expectAgreement(store, store.request("Book", nil, sort: byYear, offset: 2, limit: 2), "last two")
        #expect(Self.isUnknownEntity(lastTwo, code: 99))
        // Through a context: count(for:) fails as fetch does.
        Self.expectContextCountFailsAsFetch(store, "Book", code: 99)
    }

    @Test("A count of an entity and its sub-entities fails as the fetch does; a count of some of them leaves the row out as the fetch does")
    func entityHierarchy() throws {
        let (store, url) = try Self.store()
        try Self.write("INSERT INTO ZITEM (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (50, 99, 1, 'stray')", to: url)
        let all = Self.expectAgreement(store, store.request("Item", nil), "every item")
        #expect(Self.isUnknownEntity(all, code: 99))
        let named = Self.expectAgreement(store, store.request("Item", try ObjectPredicate(format: "name BEGINSWITH 's'")), "named s…")
        #expect(Self.isUnknownEntity(named, code: 99))
        #expect(Self.expectAgreement(store, store.request("Gadget", nil), "gadgets") == .number(2))
        let itemsOnly = StoreFetchRequest(entityNames: ["Item"], predicate: nil)
        #expect(Self.expectAgreement(store, itemsOnly, "items, not gadgets") == .number(2))
        Self.expectContextCountFailsAsFetch(store, "Item", code: 99)
    }

    @Test("A row holding the code of an entity of another table is a stray row too, with or without values")
    func codeOfAnotherTable() throws {
        let (store, url) = try Self.store()
        let itemCode = try #require(store.store.schema.codes["Item"])
        try Self.write("INSERT INTO ZBOOK (Z_PK, Z_ENT, Z_OPT, ZTITLE, ZYEAR) VALUES (50, \(itemCode), 1, 'stray', 2100)", to: url)
        for values in [true, false] {
            let all = Self.expectAgreement(store, store.request("Book", nil, values: values), "every book, values \(values)")
            #expect(Self.isUnknownEntity(all, code: itemCode))
        }
    }

    @Test("On a store without stray rows a count stays count(*) with no Z_ENT condition, and the check is remembered until another connection writes")
    func cleanStoreKeepsPlainCount() throws {
        let (store, url) = try Self.store()
        let request = store.request("Book", nil)
        let first = try statementsRun(on: store.store) { try store.store.count(request) }
        #expect(first.result == 3)
        #expect(first.sql.contains("SELECT count(*) FROM ZBOOK t0"))
        // A table of one entity has no entity index: one comparison a row.
        #expect(first.sql.contains("SELECT 1 FROM ZBOOK WHERE Z_ENT IS NOT ? LIMIT 1"))
        let second = try statementsRun(on: store.store) { try store.store.count(request) }
        #expect(second.result == 3)
        #expect(second.sql == ["PRAGMA data_version", "SELECT count(*) FROM ZBOOK t0"])
        // Another connection commits a stray row: the store looks again, and the count fails.
        try Self.write("INSERT INTO ZBOOK (Z_PK, Z_ENT, Z_OPT, ZTITLE, ZYEAR) VALUES (50, 99, 1, 'stray', 2100)", to: url)
        #expect(Self.isUnknownEntity(Outcome { try store.store.count(request) }, code: 99))
    }

    @Test("A fetch that read a whole table stands for the check: the count after it is count(*) alone, until another connection writes")
    func wholeTableFetchStandsForCheck() throws {
        let (store, url) = try Self.store()
        let request = store.request("Book", nil)
        #expect(try store.store.fetch(request).count == 3)
        let counted = try statementsRun(on: store.store) { try store.store.count(request) }
        #expect(counted.result == 3)
        #expect(counted.sql == ["PRAGMA data_version", "SELECT count(*) FROM ZBOOK t0"])
        // A fetch with a condition or a range leaves rows unread and stands for nothing.
        let items = store.request("Item", nil, sort: [ObjectSortDescriptor(key: "name")], limit: 2)
        #expect(try store.store.fetch(items).count == 2)
        let itemCount = try statementsRun(on: store.store) { try store.store.count(store.request("Item", nil)) }
        #expect(itemCount.result == 4)
        #expect(itemCount.sql.contains { $0.hasPrefix("SELECT 1 FROM ZITEM WHERE") })
        // Another connection commits a stray row after the fetch: the count looks again and fails.
        try Self.write("INSERT INTO ZBOOK (Z_PK, Z_ENT, Z_OPT, ZTITLE, ZYEAR) VALUES (50, 99, 1, 'stray', 2100)", to: url)
        #expect(Self.isUnknownEntity(Outcome { try store.store.count(request) }, code: 99))
        // The failed fetch records nothing either.
        #expect(Self.isUnknownEntity(Outcome { try store.store.fetch(request).count }, code: 99))
        #expect(Self.isUnknownEntity(Outcome { try store.store.count(request) }, code: 99))
    }

    @Test("Where entities share a table, the check for stray rows is range searches of the entity index")
    func checkUsesEntityIndex() throws {
        let (store, url) = try Self.store()
        let counted = try statementsRun(on: store.store) { try store.store.count(store.request("Item", nil)) }
        #expect(counted.result == 4)
        let check = try #require(counted.sql.first { $0.hasPrefix("SELECT 1 FROM ZITEM WHERE") })
        let other = try SQLiteConnection(path: url.path, create: false)
        let item = try #require(store.store.schema.codes["Item"])
        let gadget = try #require(store.store.schema.codes["Gadget"])
        let codes: [SQLiteValue] = [.integer(item), .integer(item), .integer(gadget), .integer(gadget)]
        let plan = try other.rows("EXPLAIN QUERY PLAN " + check, codes) { $0.text(3) ?? "" }
        #expect(plan.first == "MULTI-INDEX OR")
        #expect(plan.dropFirst().allSatisfy { !$0.hasPrefix("SCAN") })
        #expect(plan.contains { $0.hasPrefix("SEARCH ZITEM USING COVERING INDEX ZITEM_Z_ENT_INDEX") })
    }
}
