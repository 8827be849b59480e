import Foundation
import Strata
@_spi(StoreImplementation) import StrataCore
import StrataTestSupport
import Testing
@testable import StrataSQLite

/// Composite attributes on SQLite: one column per element, named `Z` + the element's path in
/// upper case with `_` between its parts; `composite.element` key paths become SQL.
@Suite("SQLite composite attributes")
struct SQLiteCompositeTests {
    private static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel {
            EntityDescription("Quake") {
                Attribute("code", .string)
                Composite("magnitude") {
                    Attribute("richter", .double)
                    Composite("source") { Attribute("agency", .string) }
                }
            }
        }
    }

    @Test("each element has its own column")
    func columns() throws {
        let url = try TemporaryFolder.make().appendingPathComponent("quakes.sqlite")
        let base = try TwoWayStore(model: Self.model(), url: url)
        try base.context.insertNewObject(forEntityName: "Quake").setValue(["richter": 4.6, "source": ["agency": "IMO"]], forKey: "magnitude")
        try base.context.save()
        let connection = try SQLiteConnection(path: url.path, create: false)
        let columns = try connection.rows("PRAGMA table_info(ZQUAKE)") { $0.text(1) ?? "" }
        #expect(columns.contains("ZMAGNITUDE_RICHTER") && columns.contains("ZMAGNITUDE_SOURCE_AGENCY"), "\(columns)")
        let stored = try connection.rows("SELECT ZMAGNITUDE_RICHTER, ZMAGNITUDE_SOURCE_AGENCY FROM ZQUAKE") { ($0.double(0), $0.text(1)) }
        #expect(stored.count == 1 && stored[0].0 == 4.6 && stored[0].1 == "IMO")
    }

    @Test("a predicate and a sort on an element path are SQL on its column")
    func sql() throws {
        let base = try TwoWayStore(model: Self.model())
        let predicate = try ObjectPredicate(format: "magnitude.richter > 4.5 AND magnitude.source.agency == 'IMO'")
        let request = base.request("Quake", predicate, sort: [ObjectSortDescriptor(key: "magnitude.richter", ascending: false)])
        let plan = try #require(try base.store.fetchPlan(for: request))
        #expect(plan.select.sql.contains("t0.ZMAGNITUDE_RICHTER > ?"), "\(plan.select.sql)")
        #expect(plan.select.sql.contains("t0.ZMAGNITUDE_SOURCE_AGENCY"), "\(plan.select.sql)")
        #expect(plan.select.sql.contains("ORDER BY t0.ZMAGNITUDE_RICHTER DESC"), "\(plan.select.sql)")
    }
}
