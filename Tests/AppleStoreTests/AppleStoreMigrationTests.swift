import Foundation
import Strata
@_spi(StoreImplementation) import StrataCore
import StrataTestSupport
import Testing

/// Stores Apple's Core Data wrote, migrated in place (SQL in one transaction) to a newer version
/// of the bundle that wrote them: every object keeps its key, values and relationships, ordered
/// ones in order.
@Suite struct AppleStoreMigrationTests {
    /// The fixture stores of a bundle with a newer version than the one that wrote them, and the
    /// version each is migrated to.
    static let cases: [(AppleStoreFixture, String)] = AppleStoreFixture.withModelVersion.compactMap { fixture in
        if fixture.store.contains("Bookmarks_V") { return (fixture, "BookmarksModel 6") }
        if fixture.store.hasSuffix("SampleModel_V1.sqlite") { return (fixture, "SampleModel2") }
        return nil
    }

    @Test(arguments: cases.map(\.0))
    func migratedKeepsEveryObject(_ fixture: AppleStoreFixture) throws {
        let targetName = try #require(Self.cases.first { $0.0.store == fixture.store }?.1)
        let bundle = try ModelBundle(at: try #require(fixture.bundleURL))
        let source = try fixture.model()
        let target = try #require(bundle.versions[targetName])
        let file = try fixture.workingCopy()
        let before = try StoreType.sqlite.makeStore(StoreDescription(type: .sqlite, url: file, model: source,
                                                                      options: [StoreOption.readOnly: .bool(true)])).contentsImage()
        let chain = bundle.versionChain.prefix { $0.name != targetName } + [ModelVersion(name: targetName, model: target)]

        let coordinator = PersistentStoreCoordinator(managedObjectModel: target)
        coordinator.migrationPlanner = MigrationPlanner(versions: Array(chain))
        let store = try coordinator.addPersistentStore(type: .sqlite, at: file, options: [StoreOption.shouldMigrateStoreAutomatically: .bool(true)])
        let after = try store.contentsImage()
        #expect(after.identifier == before.identifier)
        #expect(bundle.versionNames(matchingStoreMetadata: store.metadata) == [targetName])

        let entities = try InferredMapping(source: source, destination: target)
        #expect(after.objects.count == before.objects.count)
        func moved(_ id: ManagedObjectID) -> ManagedObjectID? {
            entities.destinationEntity(forSource: id.entityName).map {
                ManagedObjectID(entityName: $0, storeIdentifier: after.identifier, primaryKey: id.primaryKey ?? 0)
            }
        }
        for (id, old) in before.objects {
            let newID = try #require(moved(id), "\(id) has no entity in \(targetName)")
            let new = try #require(after.objects[newID], "\(id) was lost")
            for (key, value) in old.attributes where target.entity(named: newID.entityName)?.attribute(named: key) != nil {
                #expect(new.attributes[key] == value, "\(id).\(key)")
            }
            for (key, destination) in old.toOne where new.toOne[key] != nil || target.entity(named: newID.entityName)?.relationship(named: key) != nil {
                #expect(new.toOne[key] == moved(destination), "\(id).\(key)")
            }
            for (key, destinations) in old.toMany {
                guard let relationship = target.entity(named: newID.entityName)?.relationship(named: key) else { continue }
                let kept = destinations.compactMap(moved)
                if relationship.isOrdered {
                    #expect(new.toMany[key] == kept, "\(id).\(key) in order")
                } else {
                    #expect(Set(new.toMany[key] ?? []) == Set(kept), "\(id).\(key)")
                }
            }
        }
    }

    @Test("a Bookmarks_V1 favorite folder is still its favorites' folder after favoriteFolder became to-many")
    func favoriteFolders() throws {
        let fixture = try #require(AppleStoreFixture.all.first { $0.store.hasSuffix("Bookmarks_V1.sqlite") })
        let bundle = try ModelBundle(at: try #require(fixture.bundleURL))
        let file = try fixture.workingCopy()
        let before = try StoreType.sqlite.makeStore(StoreDescription(type: .sqlite, url: file, model: try fixture.model(),
                                                                      options: [StoreOption.readOnly: .bool(true)])).contentsImage()
        let folders = before.objects.values.filter { $0.toOne["favoriteFolder"] != nil }
        #expect(folders.count == 5)
        let coordinator = PersistentStoreCoordinator(managedObjectModel: bundle.currentModel)
        coordinator.migrationPlanner = MigrationPlanner(versions: bundle.versionChain)
        let store = try coordinator.addPersistentStore(type: .sqlite, at: file, options: [StoreOption.shouldMigrateStoreAutomatically: .bool(true)])
        let after = try store.contentsImage()
        for favorite in folders {
            let folder = try #require(favorite.toOne["favoriteFolder"])
            #expect(after.objects[favorite.objectID]?.toMany["favoriteFolders"] == [folder])
        }
    }
}

extension AppleStoreMigrationTests {
    @Test("CoreDataPlus SampleModel_V1: its ExpensiveSportCar objects are LuxuryCar objects of SampleModel2, same keys and values")
    func renamedEntity() throws {
        let fixture = try #require(AppleStoreFixture.all.first { $0.store.hasSuffix("SampleModel_V1.sqlite") })
        let bundle = try ModelBundle(at: try #require(fixture.bundleURL))
        let file = try fixture.workingCopy()
        let before = try StoreType.sqlite.makeStore(StoreDescription(type: .sqlite, url: file, model: try fixture.model(),
                                                                      options: [StoreOption.readOnly: .bool(true)])).contentsImage()
        let cars = before.objects.values.filter { $0.objectID.entityName == "ExpensiveSportCar" }
        #expect(!cars.isEmpty)
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try #require(bundle.versions["SampleModel2"]))
        coordinator.migrationPlanner = MigrationPlanner(versions: Array(bundle.versionChain.prefix(2)))
        let store = try coordinator.addPersistentStore(type: .sqlite, at: file, options: [StoreOption.shouldMigrateStoreAutomatically: .bool(true)])
        let after = try store.contentsImage()
        #expect(!after.objects.keys.contains { $0.entityName == "ExpensiveSportCar" })
        for car in cars {
            let id = ManagedObjectID(entityName: "LuxuryCar", storeIdentifier: after.identifier, primaryKey: try #require(car.objectID.primaryKey))
            let renamed = try #require(after.objects[id], "\(car.objectID) is not a LuxuryCar")
            for (key, value) in car.attributes { #expect(renamed.attributes[key] == value, "\(id).\(key)") }
        }
    }
}
