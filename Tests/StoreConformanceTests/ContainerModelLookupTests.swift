import Foundation
import Strata
import StrataTestSupport
import Testing

/// `PersistentContainer(name:bundles:)` and merged models: models found among bundles'
/// resources as Core Data finds them (the test target's resources hold the objc.io book's
/// `Moody.xcdatamodeld`, six versions, current `Moody 6`).
@Suite("Models from bundles")
struct ContainerModelLookupTests {
    /// The resource bundle's own copy of the model bundle, read directly.
    private func moodyBundle() throws -> ModelBundle {
        try ModelBundle(at: try #require(Bundle.module.url(forResource: "Moody", withExtension: "xcdatamodeld")))
    }

    /// A folder that is a bundle holding `Extra.momd`: two compiled versions, the current one
    /// named by `VersionInfo.plist`, as Xcode compiles a versioned model.
    private func compiledBundle() throws -> Bundle {
        let folder = try TemporaryFolder.make().appendingPathComponent("Extras.bundle")
        let momd = folder.appendingPathComponent("Extra.momd")
        try FileManager.default.createDirectory(at: momd, withIntermediateDirectories: true)
        let first = try ManagedObjectModel { EntityDescription("Note") { Attribute("text", .string) } }
        let second = try ManagedObjectModel {
            EntityDescription("Note") {
                Attribute("text", .string)
                Attribute("pinned", .boolean)
            }
        }
        try CompiledModel.archive(of: first).write(to: momd.appendingPathComponent("Extra.mom"))
        try CompiledModel.archive(of: second).write(to: momd.appendingPathComponent("Extra 2.mom"))
        let info = try PropertyListSerialization.data(
            fromPropertyList: ["NSManagedObjectModel_CurrentVersionName": "Extra 2"], format: .binary, options: 0)
        try info.write(to: momd.appendingPathComponent("VersionInfo.plist"))
        return try #require(Bundle(url: folder))
    }

    @Test("a container named after a model bundle loads its current version", arguments: StoreUnderTest.all)
    @MainActor
    func containerByName(_ store: StoreUnderTest) throws {
        let container = try PersistentContainer(name: "Moody", bundles: [.module])
        let expected = try moodyBundle()
        #expect(expected.currentVersionName == "Moody 6")
        #expect(container.managedObjectModel.entityVersionHashesByName == expected.currentModel.entityVersionHashesByName)
        #expect(container.managedObjectModel.entityVersionHashesByName != expected.versions["Moody 5"]?.entityVersionHashesByName)

        container.storeDescriptions = [ContainerStoreDescription(type: store.type, url: store.hasFile ? try store.storeURL() : nil)]
        try container.loadPersistentStores()
        let mood = try container.viewContext.insertNewObject(forEntityName: "Mood")
        try mood.setValue(Date(timeIntervalSince1970: 1), forKey: "date")
        try container.saveContext()
        #expect(try container.viewContext.freshContext().count("Mood") == 1)
    }

    @Test("a compiled .momd is read at the version its VersionInfo.plist names")
    func compiledModel() throws {
        let model = try ManagedObjectModel.named("Extra", in: [.module, try compiledBundle()])
        #expect(model.entity(named: "Note")?.attributesByName.keys.sorted() == ["pinned", "text"])
    }

    @Test("models of several bundles merge; a missing name is named")
    @MainActor
    func merged() throws {
        let model = try ManagedObjectModel.mergedModel(from: [.module, try compiledBundle()])
        #expect(model.entities.map(\.name).sorted() == ["Continent", "Country", "Mood", "Note"])
        #expect(model.entity(named: "Mood")?.versionHash == (try moodyBundle()).currentModel.entity(named: "Mood")?.versionHash)

        #expect(throws: ModelResourceError.self) { try PersistentContainer(name: "Nowhere", bundles: [.module]) }
        #expect(throws: ModelResourceError.duplicateEntity(name: "Note", models: ["Extra", "Extra"])) {
            try ManagedObjectModel.mergedModel(from: [try compiledBundle(), try compiledBundle()])
        }
    }
}
