import Foundation
@_spi(StoreImplementation) import StrataCore
import StrataModelFiles

extension MappingModel {
    /// Reads an Xcode mapping model: an `.xcmappingmodel` bundle or its `xcmapping.xml`, or a
    /// compiled `.cdm` mapping model (see ``loadCompiled(at:)``; a file is taken for one by its
    /// extension or by its binary property list header).
    ///
    /// The file is a Core Data XML store (``XcodeMappingStore``); it is read with Xcode's
    /// model of a mapping model and its objects become entity and property mappings, their
    /// archived expressions expression trees. What Xcode works out only when it compiles the
    /// mapping (types, version hashes, generated expressions) is left as the file has it; see
    /// ``resolved(source:destination:)``.
    ///
    /// - Throws: ``MappingModelError`` naming the file (and the object at fault).
    public static func load(at url: URL) throws(MappingModelError) -> MappingModel {
        if isCompiled(url) { return try loadCompiled(at: url) }
        let document = XcodeMappingStore.documentURL(for: url)
        guard FileManager.default.isReadableFile(atPath: document.path) else {
            throw .unreadable(file: document.path, reason: "no such file, or it cannot be read")
        }
        return try MappingModel(store: XcodeMappingStore.read(at: document), file: document.path)
    }

    /// Whether `url` is a compiled mapping model: a `.cdm` file, or a file that starts as a
    /// binary property list does (an `xcmapping.xml` is text).
    static func isCompiled(_ url: URL) -> Bool {
        if url.pathExtension.lowercased() == "cdm" { return true }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue,
              let handle = FileHandle(forReadingAtPath: url.path) else { return false }
        defer { try? handle.close() }
        let header = (try? handle.read(upToCount: 6)) ?? Data()
        return header == Data("bplist".utf8)
    }

    /// Builds the mapping model an `xcmapping.xml` store holds (read with
    /// ``XcodeMappingStore/model()``); `file` names it in errors.
    ///
    /// Only what the `XDDevMappingModel` reaches is read: Xcode leaves behind property mappings
    /// of entity mappings that were deleted, which belong to none.
    @_spi(StoreImplementation) public init(store: StoreImage, file: String) throws(MappingModelError) {
        let reader = MappingDocumentReader(store: store, file: file)
        self = try reader.mappingModel()
    }
}

/// Turns the objects of an `xcmapping.xml` store into a ``MappingModel``.
private struct MappingDocumentReader {
    let store: StoreImage
    let file: String

    func mappingModel() throws(MappingModelError) -> MappingModel {
        let roots = store.objects.values.filter { $0.objectID.entityName == XcodeMappingStore.mappingModel }
        guard let root = roots.first else { throw .invalidDocument(file: file, reason: "it holds no \(XcodeMappingStore.mappingModel)") }
        guard roots.count == 1 else { throw .invalidDocument(file: file, reason: "it holds \(roots.count) \(XcodeMappingStore.mappingModel) objects") }

        var numbered: [(number: Int64, mapping: EntityMapping)] = []
        for id in root.toMany["entityMappings"] ?? [] {
            let object = try snapshot(id, of: XcodeMappingStore.entityMapping)
            var number = Int64.max
            if case .integer(let value)? = object.attributes["mappingNumber"] { number = value }
            numbered.append((number, try entityMapping(object)))
        }
        let ordered = numbered.enumerated()
            .sorted { ($0.element.number, $0.offset) < ($1.element.number, $1.offset) }
            .map(\.element.mapping)
        var seen: Set<String> = []
        for mapping in ordered where !seen.insert(mapping.name).inserted {
            throw .invalidDocument(file: file, reason: "two entity mappings are named '\(mapping.name)'")
        }
        var model = MappingModel(entityMappings: ordered,
                                 sourceModelPath: text(root, "sourceModelPath"),
                                 destinationModelPath: text(root, "destinationModelPath"),
                                 file: file)
        model.sourceModelOutline = outline(root, "sourceModelData")
        model.destinationModelOutline = outline(root, "destinationModelData")
        return model
    }

    /// The outline of Xcode's copy of a model; `nil` when it cannot be read (Xcode's private
    /// classes are no part of the format a mapping model is used by).
    private func outline(_ root: ObjectSnapshot, _ key: String) -> ModelOutline? {
        guard case .binary(let data)? = root.attributes[key] else { return nil }
        return try? KeyedArchive(data).modelOutline()
    }

    private func snapshot(_ id: ManagedObjectID, of entity: String) throws(MappingModelError) -> ObjectSnapshot {
        guard let object = store.objects[id] else { throw .invalidDocument(file: file, reason: "it refers to \(label(id)), which it does not hold") }
        guard id.entityName == entity else { throw .invalidDocument(file: file, reason: "\(label(id)) is not an \(entity)") }
        return object
    }

    /// The entity and the object's `id` in the file (`XDDevAttributeMapping z104`).
    private func label(_ id: ManagedObjectID) -> String {
        "\(id.entityName) z\(id.primaryKey.map(String.init) ?? "?")"
    }

    private func entityMapping(_ object: ObjectSnapshot) throws(MappingModelError) -> EntityMapping {
        let source = text(object, "sourceName")
        let destination = text(object, "destinationName")
        var type = EntityMappingType.undefined
        if let typeName = text(object, "mappingTypeName") {
            guard let named = EntityMappingType(xcodeName: typeName) else {
                throw .invalidObject(file: file, object: label(object.objectID), reason: "unknown mapping type '\(typeName)'")
            }
            type = named
        }
        var attributes: [PropertyMapping] = []
        for id in object.toMany["attributeMappings"] ?? [] {
            attributes.append(try propertyMapping(snapshot(id, of: XcodeMappingStore.attributeMapping)))
        }
        var relationships: [PropertyMapping] = []
        for id in object.toMany["relationshipMappings"] ?? [] {
            relationships.append(try propertyMapping(snapshot(id, of: XcodeMappingStore.relationshipMapping)))
        }
        return EntityMapping(
            name: text(object, "name") ?? EntityMapping.defaultName(source: source, destination: destination),
            mappingType: type,
            sourceEntityName: source,
            destinationEntityName: destination,
            filterPredicate: text(object, "sourceFilterPredicateString"),
            generatesSourceExpression: object.attributes["autoGenerateExpression"] == .boolean(true),
            sourceExpression: try expression(object, "sourceExpressionData"),
            entityMigrationPolicyClassName: text(object, "migrationPolicyClassName"),
            attributeMappings: try sorted(attributes, in: object),
            relationshipMappings: try sorted(relationships, in: object),
            userInfo: try userInfo(object))
    }

    private func propertyMapping(_ object: ObjectSnapshot) throws(MappingModelError) -> PropertyMapping {
        guard let name = text(object, "name") else {
            throw .invalidObject(file: file, object: label(object.objectID), reason: "a property mapping without a name")
        }
        return PropertyMapping(
            name: name,
            valueExpression: try expression(object, "valueExpressionData"),
            userInfo: try userInfo(object),
            generatesValueExpression: object.attributes["autoGenerateExpression"] == .boolean(true),
            sourceKeyPath: text(object, "sourceKeyPath"),
            sourceMappingName: text(object, "sourceMappingName"))
    }

    /// Property mappings in name order (the file keeps them in a set); a name twice is an error.
    private func sorted(_ mappings: [PropertyMapping], in owner: ObjectSnapshot) throws(MappingModelError) -> [PropertyMapping] {
        let sorted = mappings.sorted { $0.name < $1.name }
        for (a, b) in zip(sorted, sorted.dropFirst()) where a.name == b.name {
            throw .invalidObject(file: file, object: label(owner.objectID), reason: "two mappings of the property '\(a.name)'")
        }
        return sorted
    }

    /// A string attribute, with Xcode's empty strings (a cleared field) read as absent.
    private func text(_ object: ObjectSnapshot, _ key: String) -> String? {
        guard case .string(let value)? = object.attributes[key], !value.isEmpty else { return nil }
        return value
    }

    private func expression(_ object: ObjectSnapshot, _ key: String) throws(MappingModelError) -> MappingExpression? {
        guard case .binary(let data)? = object.attributes[key] else { return nil }
        do {
            return try KeyedArchive(data).expression()
        } catch {
            throw .invalidObject(file: file, object: label(object.objectID), reason: "\(key): \(error)")
        }
    }

    private func userInfo(_ object: ObjectSnapshot) throws(MappingModelError) -> [String: PropertyListValue] {
        guard case .binary(let data)? = object.attributes["userInfoData"] else { return [:] }
        do {
            return try KeyedArchive(data).propertyListDictionary()
        } catch {
            throw .invalidObject(file: file, object: label(object.objectID), reason: "userInfoData: \(error)")
        }
    }
}
