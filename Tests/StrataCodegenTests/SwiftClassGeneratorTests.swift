import Foundation
import StrataCodegen
import StrataCore
import StrataModelFiles
import Testing

/// What ``SwiftClassGenerator`` writes for inheritance, names Swift cannot take as they are, and
/// each kind of property.
@Suite("Swift class generator")
struct SwiftClassGeneratorTests {
    private static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel {
            EntityDescription("Item", isAbstract: true, managedObjectClassName: "Item") {
                Attribute("name", .string)
                Attribute("count", .integer32, optional: false, defaultValue: .integer(0))
                Attribute("default", .string)
                Attribute("entity", .string)
                Relationship("parts", toMany: "Part", inverse: "item", ordered: true)
            }
            EntityDescription("Book", parent: "Item") {
                Attribute("pages", .integer16)
            }
            EntityDescription("Part") {
                Attribute("weight", .double, optional: false, defaultValue: .double(1))
                Attribute("payload", .transformable)
                Relationship("item", to: "Item", inverse: "parts")
            }
        }
    }

    private func files(allEntities: Bool = true, settings: [String: EntityCodeGeneration] = [:]) throws -> [String: String] {
        let generator = SwiftClassGenerator(model: try Self.model(), modelName: "Shop Model", codeGeneration: settings,
                                            allEntities: allEntities)
        return Dictionary(uniqueKeysWithValues: try generator.files().map { ($0.name, $0.contents) })
    }

    @Test("A sub-entity's class derives from its parent's and declares only its own properties")
    func inheritance() throws {
        let files = try files()
        #expect(files.keys.sorted() == ["Book.swift", "Item.swift", "Part.swift", "Shop_ModelClasses.swift"])
        let item = try #require(files["Item.swift"])
        #expect(item.contains("public class Item: ManagedObject, ModelKeyPaths, Managed {"))
        #expect(item.contains("public class var modelKeyPaths"))
        let book = try #require(files["Book.swift"])
        #expect(book.contains("public final class Book: Item {"))
        #expect(book.contains("public override class var modelKeyPaths"))
        #expect(book.contains("public var pages: Int16?") && !book.contains("public var name:"))
        // The key paths list the inherited properties on the sub-class too.
        #expect(book.contains("\\Book.name: \"name\""))
    }

    @Test("Keywords are escaped, ManagedObject's members renamed, plain numbers not optional")
    func names() throws {
        let item = try #require(try files()["Item.swift"])
        #expect(item.contains("public var `default`: String?"))
        #expect(item.contains("public static let `default` = \"default\""))
        #expect(item.contains("public var entityValue: String?"))
        #expect(item.contains("public var count: Int32 {") && item.contains("?? 0"))
        #expect(item.contains("public var parts: [Part] {"))
        let part = try #require(try files()["Part.swift"])
        #expect(part.contains("public var payload: Any?") && part.contains("public var item: Item?"))
        #expect(part.contains("public var weight: Double {"))
    }

    @Test("Without --all-entities only the entities Xcode's settings name get code")
    func settings() throws {
        let files = try files(allEntities: false, settings: ["Part": .classDefinition, "Book": .category])
        #expect(files.keys.sorted() == ["Book+Properties.swift", "Part.swift", "Shop_ModelClasses.swift"])
        // Item is written by hand: Part's to-one is typed by its class name.
        #expect(try #require(files["Part.swift"]).contains("public var item: Item?"))
        #expect(try #require(files["Shop_ModelClasses.swift"]).contains("(\"Part\", Part.self)"))
        #expect(!(try #require(files["Shop_ModelClasses.swift"]).contains("Book.self")))
    }

    @Test("A class name that is not a Swift identifier is refused, naming the entity")
    func invalidClassName() throws {
        let model = try ManagedObjectModel {
            EntityDescription("Odd", managedObjectClassName: "Odd-Class") { Attribute("name", .string) }
        }
        let generator = SwiftClassGenerator(model: model, modelName: "M", codeGeneration: [:], allEntities: true)
        #expect(throws: CodegenError.invalidClassName(entity: "Odd", className: "Odd-Class")) { try generator.files() }
    }

    @Test("A composite attribute is one dictionary property, its elements are not properties of their own")
    func composite() throws {
        let model = try ManagedObjectModel {
            EntityDescription("Quake") {
                Attribute("name", .string)
                Composite("place") {
                    Attribute("city", .string)
                    Composite("geo") {
                        Attribute("latitude", .double)
                    }
                }
            }
        }
        let files = try SwiftClassGenerator(model: model, modelName: "M", codeGeneration: [:], allEntities: true).files()
        let quake = try #require(files.first { $0.name == "Quake.swift" }?.contents)
        #expect(quake.contains("public var place: [String: Any]? {"))
        #expect(quake.contains("self[typed: \"place\", as: [String: Any].self]"))
        #expect(quake.contains("\\Quake.place: \"place\""))
        #expect(quake.components(separatedBy: "public var place").count == 2)
        #expect(!quake.contains("place.city") && !quake.contains("geo"))
    }
}
