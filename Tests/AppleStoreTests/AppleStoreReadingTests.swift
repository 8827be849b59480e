import Foundation
import Strata
@_spi(StoreImplementation) import StrataCore
import StrataTestSupport
import Testing

/// Apple-written SQLite stores open with the model version that wrote them, with no option, and
/// every object in them is read.
@Suite struct AppleStoreReadingTests {
    /// The rows of each entity, counted by the `sqlite3` shell: `Z_PRIMARYKEY` names the
    /// entities and their codes, the root's table holds the rows.
    static func rowCounts(in file: URL, model: ManagedObjectModel) throws -> [String: Int] {
        var counts: [String: Int] = [:]
        for line in try SQLiteShell.rows(file, "SELECT Z_ENT, Z_NAME FROM Z_PRIMARYKEY") {
            let fields = line.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
            // Core Data keeps an entity's first name in Z_PRIMARYKEY when a migration renames it.
            guard fields.count == 2, let entity = model.entity(named: fields[1])
                ?? model.entities.first(where: { $0.renamingIdentifier == fields[1] }) else { continue }
            let table = "Z" + entity.rootEntityName.uppercased()
            let count = try SQLiteShell.rows(file, "SELECT COUNT(*) FROM \(table) WHERE Z_ENT = \(fields[0])")
            counts[entity.name] = Int(count.first ?? "") ?? -1
        }
        return counts
    }

    @Test(arguments: AppleStoreFixture.withModelVersion)
    func everyObjectIsRead(_ fixture: AppleStoreFixture) throws {
        let file = try fixture.workingCopy()
        let model = try fixture.model()
        let expected = try Self.rowCounts(in: file, model: model)
        let store = try StoreType.sqlite.makeStore(StoreDescription(type: .sqlite, url: file, model: model))
        let image = try store.contentsImage()
        var read: [String: Int] = [:]
        for objectID in image.objects.keys { read[objectID.entityName, default: 0] += 1 }
        for entity in model.entities where !entity.isAbstract {
            #expect(read[entity.name, default: 0] == expected[entity.name, default: 0], "\(entity.name)")
            let counted = try store.matchingCount(StoreFetchRequest(entityNames: [entity.name]))
            #expect(counted == expected[entity.name, default: 0], "\(entity.name) counted")
        }
    }
}
