import Foundation
@_spi(StoreImplementation) import StrataCore
@_spi(StoreImplementation) import StrataXML

/// The Core Data XML store that Xcode saves as `xcmapping.xml` inside an `.xcmappingmodel`
/// bundle, and the model of Xcode's own that it is written with.
///
/// Xcode's mapping model editor keeps its document in a Core Data store: one
/// `XDDevMappingModel` with the paths and archived copies of the two models, one
/// `XDDevEntityMapping` per entity mapping, and one `XDDevAttributeMapping` or
/// `XDDevRelationshipMapping` per property mapping. ``model()`` is that model, defined here from
/// what the files hold; its entity version hashes equal, byte for byte, the
/// `NSStoreModelVersionHashes` Xcode records in every `xcmapping.xml`, so the definition is
/// the one Xcode uses, down to properties no file in the wild fills (`userInfoData`,
/// `sourceExpressionData`, `sourceFilterPredicateString`).
///
/// ```swift
/// let image = try XcodeMappingStore.read(at: URL(filePath: "V2toV3.xcmappingmodel"))
/// let entityMappings = image.objects.values.filter { $0.objectID.entityName == XcodeMappingStore.entityMapping }
/// ```
///
/// ``MappingModel/load(at:)`` reads the same store into a ``MappingModel``.
public enum XcodeMappingStore {
    /// The file inside an `.xcmappingmodel` bundle.
    public static let fileName = "xcmapping.xml"

    /// `XDDevMappingModel`: the document (one per file).
    public static let mappingModel = "XDDevMappingModel"
    /// `XDDevEntityMapping`: one entity mapping.
    public static let entityMapping = "XDDevEntityMapping"
    /// `XDDevPropertyMapping`: the parent of the two property mappings (never instantiated by Xcode).
    public static let propertyMapping = "XDDevPropertyMapping"
    /// `XDDevAttributeMapping`: one attribute mapping.
    public static let attributeMapping = "XDDevAttributeMapping"
    /// `XDDevRelationshipMapping`: one relationship mapping.
    public static let relationshipMapping = "XDDevRelationshipMapping"

    /// Xcode's model of a mapping model document.
    ///
    /// - Throws: nothing in practice (the model is fixed); `ModelError` if it were inconsistent.
    ///
    /// Every flag below is fixed by the version hashes Xcode records (see the type's
    /// discussion): the four `XDDevMappingModel` attributes are required, every other attribute
    /// is optional, and each to-one back to the owner is optional with a minimum count of 1.
    public static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            EntityDescription(mappingModel) {
                Attribute("sourceModelPath", .string, optional: false)
                Attribute("sourceModelData", .binaryData, optional: false)
                Attribute("destinationModelPath", .string, optional: false)
                Attribute("destinationModelData", .binaryData, optional: false)
                Relationship("entityMappings", toMany: entityMapping, inverse: "mappingModel", deleteRule: .cascade)
            },
            EntityDescription(entityMapping) {
                Attribute("name", .string)
                Attribute("sourceName", .string)
                Attribute("destinationName", .string)
                Attribute("mappingNumber", .integer16)
                Attribute("mappingTypeName", .string)
                Attribute("migrationPolicyClassName", .string)
                Attribute("autoGenerateExpression", .boolean)
                Attribute("sourceExpressionData", .binaryData)
                Attribute("sourceFilterPredicateString", .string)
                Attribute("userInfoData", .binaryData)
                owner("mappingModel", mappingModel, inverse: "entityMappings")
                Relationship("attributeMappings", toMany: attributeMapping, inverse: "entityMapping", deleteRule: .cascade)
                Relationship("relationshipMappings", toMany: relationshipMapping, inverse: "entityMapping", deleteRule: .cascade)
            },
            EntityDescription(propertyMapping) {
                Attribute("name", .string)
                Attribute("valueExpressionData", .binaryData)
                Attribute("userInfoData", .binaryData)
            },
            EntityDescription(attributeMapping, parent: propertyMapping) {
                owner("entityMapping", entityMapping, inverse: "attributeMappings")
            },
            EntityDescription(relationshipMapping, parent: propertyMapping) {
                Attribute("autoGenerateExpression", .boolean)
                Attribute("sourceKeyPath", .string)
                Attribute("sourceMappingName", .string)
                owner("entityMapping", entityMapping, inverse: "relationshipMappings")
            },
        ])
    }

    /// A to-one back to the owning object: optional, yet with a minimum count of 1, as Xcode's
    /// model has it (both flags enter the version hash).
    private static func owner(_ name: String, _ destination: String, inverse: String) -> PropertyDescription {
        .relationship(RelationshipDescription(name: name, destination: destination, inverse: inverse,
                                              minCount: 1, maxCount: 1, deleteRule: .nullify, isOptional: true))
    }

    /// The `xcmapping.xml` of a bundle, or the file itself when `url` is not a folder.
    public static func documentURL(for url: URL) -> URL {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue {
            return url.appending(path: fileName)
        }
        return url
    }

    /// Reads a mapping model's store (`url` is the `.xcmappingmodel` bundle or its
    /// `xcmapping.xml`) with ``model()``.
    ///
    /// - Throws: ``MappingModelError/unreadableStore(file:_:)`` when the XML store cannot be
    ///   read (its error names the file and the line).
    @_spi(StoreImplementation) public static func read(at url: URL) throws(MappingModelError) -> StoreImage {
        let document = documentURL(for: url)
        let model: ManagedObjectModel
        do { model = try self.model() } catch { throw .invalidDocument(file: document.path, reason: "\(error)") }
        do {
            let image = try XMLStoreFormat().read(from: document, model: model)
            // A store reads past a dangling reference; a mapping model missing a part is refused.
            if let dangling = image.danglingReferences.first {
                throw StoreError.corruptStore(file: document.path, offset: nil, reason: dangling.description)
            }
            return image
        } catch let error as StoreError {
            throw .unreadableStore(file: document.path, error)
        } catch {
            throw .unreadableStore(file: document.path, .io(file: document.path, operation: "read", reason: "\(error)"))
        }
    }
}
