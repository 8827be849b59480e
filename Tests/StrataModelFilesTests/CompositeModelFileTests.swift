import Foundation
import StrataCore
import StrataModelFiles
import StrataTestSupport
import Testing

/// Composite attributes in `.xcdatamodel` contents: `<attribute attributeType="Composite"
/// composite="Definition">` and the model-level `<composite name="Definition">`.
@Suite("Composite attributes in model files")
struct CompositeModelFileTests {
    @Test("the fixture's composite is read with its elements and its empty nested composite")
    func fixture() throws {
        let path = "phimage__MomXML/Tests/Model.xcdatamodeld/Model.xcdatamodel/contents"
        let loaded = try ModelFile.read(at: Fixtures.url(path))
        #expect(loaded.warnings.isEmpty)
        let produit = try #require(loaded.model.entity(named: "Produit"))
        let composite = try #require(produit.compositeAttribute(named: "attribute1"))
        #expect(composite.definitionName == "Composite")
        #expect(composite.elements.map(\.name) == ["one", "two", "three"])
        guard case .composite(let nested) = composite.element(named: "three") else {
            Issue.record("'three' is not a nested composite")
            return
        }
        #expect(nested.definitionName == "Composite1" && nested.elements.isEmpty)
        #expect(produit.attribute(named: "attribute1.one")?.type == .integer16)
        #expect(produit.attribute(named: "attribute1.one")?.defaultValue == .integer(0))
        #expect(produit.attribute(named: "attribute1.two")?.type == .string)
    }

    @Test("a model with composites is written and read back the same, version hashes included")
    func roundTrip() throws {
        let model = try ManagedObjectModel {
            EntityDescription("Quake") {
                Attribute("code", .string)
                Composite("magnitude", optional: false, versionHashModifier: "v2") {
                    Attribute("richter", .double, optional: false)
                    Composite("source") {
                        Attribute("agency", .string)
                    }
                }
            }
        }
        let text = try ModelFileWriter().contents(of: model)
        #expect(text.contains("<composite name=\"magnitude\">"))
        #expect(text.contains("composite=\"source\""))
        let read = try readContents(text)
        #expect(read.warnings.isEmpty)
        let quake = try #require(read.model.entity(named: "Quake"))
        #expect(quake.compositeAttributes == model.entity(named: "Quake")?.compositeAttributes)
        #expect(quake.attributes.map(\.name) == ["code", "magnitude.richter", "magnitude.source.agency"])
        #expect(quake.versionHash == model.entity(named: "Quake")?.versionHash)
    }

    @Test("a composite's version hash is that of one attribute of type code 2100; its elements do not enter")
    func versionHash() throws {
        func hash(_ elements: [AttributeDescription]) throws -> Data? {
            try ManagedObjectModel {
                EntityDescription("Quake") {
                    CompositeAttributeDescription(name: "magnitude", attributes: elements)
                }
            }.entity(named: "Quake")?.versionHash
        }
        let one = try hash([AttributeDescription(name: "richter", type: .double)])
        let two = try hash([AttributeDescription(name: "scale", type: .string), AttributeDescription(name: "x", type: .date)])
        #expect(one == two)
        #expect(one != (try ManagedObjectModel { EntityDescription("Quake") { Attribute("magnitude", .double) } }
            .entity(named: "Quake")?.versionHash))
    }

    @Test("a composite naming no definition is skipped with a warning; one containing itself is an error")
    func badDefinitions() throws {
        let missing = try readContents(contentsDocument("""
            <entity name="A">
                <attribute name="kept" optional="YES" attributeType="String"/>
                <attribute name="odd" optional="YES" attributeType="Composite" composite="Nowhere"/>
            </entity>
            """))
        #expect(missing.model.entity(named: "A")?.attributes.map(\.name) == ["kept"])
        #expect(missing.warnings.map(\.kind) == [
            .unsupportedAttributeType(entity: "A", attribute: "odd", type: "Composite 'Nowhere' (no <composite> definition)"),
        ])
        #expect(throws: ModelFileError.self) {
            try readContents(contentsDocument("""
                <entity name="A">
                    <attribute name="loop" optional="YES" attributeType="Composite" composite="C"/>
                </entity>
                <composite name="C">
                    <attribute name="inner" optional="YES" attributeType="Composite" composite="C"/>
                </composite>
                """))
        }
        #expect(throws: ModelFileError.self) {
            try readContents(contentsDocument("""
                <entity name="A">
                    <attribute name="noDefinition" optional="YES" attributeType="Composite"/>
                </entity>
                """))
        }
    }

    @Test("an ObjectID element is refused, naming the entity, composite and element")
    func objectIDElement() throws {
        #expect(throws: ModelError.invalidCompositeElement(
            entity: "A", attribute: "c", element: "ref", reason: "a composite cannot hold an ObjectID")) {
            try ManagedObjectModel {
                EntityDescription("A") {
                    CompositeAttributeDescription(name: "c", attributes: [AttributeDescription(name: "ref", type: .objectID)])
                }
            }
        }
    }

    @Test("a composite named like another property of its entity is a duplicate property")
    func duplicateName() throws {
        #expect(throws: ModelError.duplicateProperty(entity: "A", property: "c")) {
            try ManagedObjectModel {
                EntityDescription("A") {
                    Attribute("c", .string)
                    CompositeAttributeDescription(name: "c", attributes: [AttributeDescription(name: "x", type: .string)])
                }
            }
        }
        #expect(throws: ModelError.duplicateProperty(entity: "A", property: "c")) {
            try ManagedObjectModel {
                EntityDescription("A") {
                    CompositeAttributeDescription(name: "c", attributes: [AttributeDescription(name: "x", type: .string)])
                    CompositeAttributeDescription(name: "c", attributes: [AttributeDescription(name: "y", type: .string)])
                }
            }
        }
    }

    @Test("a compiled model keeps composites, nested ones and their elements' options, with the same hashes")
    func compiledRoundTrip() throws {
        let model = try ManagedObjectModel {
            EntityDescription("Quake") {
                Attribute("code", .string)
                Composite("magnitude", optional: false, renamingIdentifier: "size", userInfo: ["k": "v"]) {
                    Attribute("richter", .double, optional: false, defaultValue: .double(1))
                    Composite("source") { Attribute("agency", .string, maximum: 8) }
                }
                Attribute("zone", .string)
            }
            EntityDescription("Aftershock", parent: "Quake") {
                Composite("delay") { Attribute("seconds", .integer32) }
            }
        }
        let reread = try CompiledModel.model(fromStoreCache: try CompiledModel.storeCache(of: model))
        #expect(reread == model)
        #expect(reread.entity(named: "Aftershock")?.compositeAttributes.map(\.name) == ["magnitude", "delay"])
        #expect(reread.entity(named: "Quake")?.versionHash == model.entity(named: "Quake")?.versionHash)
    }
}
