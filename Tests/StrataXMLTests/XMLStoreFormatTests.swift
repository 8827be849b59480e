import Foundation
import Strata
@_spi(StoreImplementation) import StrataCore
@_spi(StoreImplementation) import StrataTestSupport
@testable @_spi(StoreImplementation) import StrataXML
import Testing

/// The XML format reads Core Data's layout: a document written by hand after its description,
/// and one as Core Data writes it. What every atomic format does alike is in `AtomicFormatTests`.
@Suite("XML store format")
struct XMLStoreFormatTests {
    @Test("a document written by hand after docs/formats/xml.md reads as the expected image")
    func handWritten() throws {
        let model = try PetsModel.make()
        let decoded = try XMLFixture.decode(PetsModel.xmlDocument, file: "/memory/pets.xml", model: model)
        let differences = Identical.differences(PetsModel.image(), decoded)
        #expect(differences.isEmpty, "\(differences.joined(separator: "\n"))")
    }

    @Test("a file Core Data wrote (no pk, no version, lower-case names) takes its keys from the ids")
    func coreDataFile() throws {
        let model = try PetsModel.make()
        let text = PetsModel.xmlDocument
            .replacingOccurrences(of: " pk=\"1\" version=\"1\"", with: "")
            .replacingOccurrences(of: " pk=\"2\" version=\"1\"", with: "")
            .replacingOccurrences(of: " pk=\"3\" version=\"1\"", with: "")
            .replacingOccurrences(of: "type=\"PET\"", with: "type=\"pet\"")
        let decoded = try XMLFixture.decode(text, file: "/memory/coredata.xml", model: model)
        let store = "PETS-STORE"
        #expect(decoded.objects.keys.contains(ManagedObjectID(entityName: "Person", storeIdentifier: store, primaryKey: 102)))
        #expect(decoded.objects.keys.contains(ManagedObjectID(entityName: "Pet", storeIdentifier: store, primaryKey: 103)))
        #expect(decoded.objects.keys.contains(ManagedObjectID(entityName: "Fish", storeIdentifier: store, primaryKey: 105)))
        #expect((decoded.nextPrimaryKeys["Animal"] ?? 0) > 105)
    }
}
