import Foundation
import Strata
@_spi(StoreImplementation) import StrataCore
import StrataTestSupport
@testable @_spi(StoreImplementation) import StrataXML
import Testing

/// An XML store read with a model that lacks its entities says the model does not match the
/// store, naming the entities; its UUID is in the metadata read alone.
@Suite("XML store: model mismatch and UUID")
struct XMLModelMismatchTests {
    /// A company store written without version hashes (so only its entities tell the models
    /// apart), and its file.
    private func companyFile(hashes: Bool) throws -> URL {
        let model = try SampleModels.company()
        var image = StoreImage(identifier: "COMPANY-STORE", nextPrimaryKeys: ["Employer": 2])
        let acme = ManagedObjectID(entityName: "Employer", storeIdentifier: "COMPANY-STORE", primaryKey: 1)
        image.objects[acme] = ObjectSnapshot(objectID: acme, attributes: ["name": .string("Acme")])
        if hashes { image.stampMetadata(type: .xml, model: model) }
        let url = try TemporaryFolder.make().appendingPathComponent("company.xml")
        try XMLStoreFormat().write(image, to: url, model: model)
        return url
    }

    @Test("a model without the store's entities: the model does not match the store, naming them", arguments: [false, true])
    func missingEntities(hashes: Bool) throws {
        let url = try companyFile(hashes: hashes)
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try SampleModels.student())
        #expect {
            try coordinator.addPersistentStore(type: .xml, at: url)
        } throws: { error in
            guard case let StoreError.incompatibleModel(file, entities) = error else { return false }
            let text = "\(error)"
            return file == url.path && entities.contains { $0.uppercased() == "EMPLOYER" } && text.contains("the model does not match the store")
                && !text.contains("nextPrimaryKey")
        }
    }

    @Test("the UUID of <databaseInfo> is in the metadata read alone, even when the metadata does not repeat it")
    func uuidInMetadata() throws {
        let url = try companyFile(hashes: false)
        #expect(try XMLStoreFormat.readMetadata(from: url)[StoreMetadataKey.storeUUID] == .string("COMPANY-STORE"))
    }
}
