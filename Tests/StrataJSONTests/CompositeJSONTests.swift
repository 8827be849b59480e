import Foundation
import Strata
@_spi(StoreImplementation) import StrataCore
@_spi(StoreImplementation) import StrataTestSupport
import Testing
@testable @_spi(StoreImplementation) import StrataJSON

/// Composite attributes in export and import documents: one member per element, named by its
/// dotted path.
@Suite("Composite attributes in JSON")
struct CompositeJSONTests {
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

    @Test("a composite's elements are exported and imported back, each by its path")
    func roundTrip() throws {
        let model = try Self.model()
        var image = StoreImage.empty(type: .binary, model: model)
        let id = ManagedObjectID(entityName: "Quake", storeIdentifier: image.identifier, primaryKey: 1)
        var snapshot = ObjectSnapshot(objectID: id, version: 1)
        snapshot.attributes["code"] = .string("a")
        snapshot.attributes["magnitude.richter"] = .double(4.6)
        snapshot.attributes["magnitude.source.agency"] = .string("IMO")
        image.objects[id] = snapshot
        image.nextPrimaryKeys["Quake"] = 2
        let text = ExportDocument.text(of: image, storeType: .binary, model: model)
        #expect(text.contains("\"magnitude.richter\""))
        let imported = try ImportDocument.read(Data(text.utf8), model: model)
        #expect(imported.objects[id]?.attributes["magnitude.richter"] == .double(4.6))
        #expect(imported.objects[id]?.attributes["magnitude.source.agency"] == .string("IMO"))
    }

    @Test("an element of the wrong type or an unknown element is a problem naming its path")
    func badElement() throws {
        let model = try Self.model()
        var image = StoreImage.empty(type: .binary, model: model)
        let id = ManagedObjectID(entityName: "Quake", storeIdentifier: image.identifier, primaryKey: 1)
        var snapshot = ObjectSnapshot(objectID: id, version: 1)
        snapshot.attributes["magnitude.richter"] = .double(4.6)
        image.objects[id] = snapshot
        image.nextPrimaryKeys["Quake"] = 2
        let text = ExportDocument.text(of: image, storeType: .binary, model: model)
        for (bad, path) in [("\"magnitude.richter\": \"high\"", "magnitude.richter"), ("\"magnitude.depth\": 1", "magnitude.depth")] {
            let edited = text.replacingOccurrences(of: "\"magnitude.richter\": 4.6", with: bad)
            #expect(edited != text)
            let error = try #require(throws: ImportError.self) { try ImportDocument.read(Data(edited.utf8), model: model) }
            #expect("\(error)".contains(path))
        }
    }
}
