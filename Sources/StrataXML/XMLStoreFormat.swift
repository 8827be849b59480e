import Foundation
@_spi(StoreImplementation) import StrataCore

/// Core Data's XML store layout (`docs/formats/xml.md`): a `<databaseInfo>` with the store
/// UUID and metadata property list, then one `<object type id>` per object with
/// `<attribute name type>` and `<relationship name type destination idrefs>` children.
@_spi(StoreImplementation) public struct XMLStoreFormat: AtomicStoreFormat {
    /// The `<version>` Core Data writes.
    static let databaseVersion = "134481920"
    /// Object ids start here, as in Core Data's files.
    static let firstObjectID = 102

    /// Creates the format.
    public init() {}

    // MARK: Writing

    @_spi(StoreImplementation) public func write(_ image: StoreImage, to url: URL, model: ManagedObjectModel) throws {
        var written = image
        written.metadata = try image.metadata(withCompiledModelOf: model)
        try AtomicFileWriter.write(Data(encode(written, model: model).utf8), to: url)
    }

    func encode(_ image: StoreImage, model: ManagedObjectModel) -> String {
        let names = XMLNames(model: model)
        let objects = image.orderedObjects
        var xmlIDs: [ManagedObjectID: String] = [:]
        for (offset, object) in objects.enumerated() { xmlIDs[object.objectID] = "z\(Self.firstObjectID + offset)" }

        var out = """
        <?xml version="1.0" standalone="yes"?>
        <!DOCTYPE database SYSTEM "file:///System/Library/DTDs/CoreData.dtd">

        <database>
            <databaseInfo>
                <version>\(Self.databaseVersion)</version>
                <UUID>\(XMLText.escape(image.identifier))</UUID>
                <nextObjectID>\(Self.firstObjectID + objects.count)</nextObjectID>

        """
        for root in image.nextPrimaryKeys.keys.sorted() {
            out += "        <nextPrimaryKey entity=\"\(XMLText.escape(names.entity(root), inAttribute: true))\">\(image.nextPrimaryKeys[root] ?? 1)</nextPrimaryKey>\n"
        }
        out += "        <metadata>\n            <plist version=\"1.0\">\n"
        XMLPropertyList.write(.dictionary(image.metadata), indent: "                ", into: &out)
        out += "            </plist>\n        </metadata>\n    </databaseInfo>\n"

        for (written, object) in objects.enumerated() {
            StoreProgress.report(.writing, done: written, total: objects.count)
            let entityName = object.objectID.entityName
            out += "    <object type=\"\(XMLText.escape(names.entity(entityName), inAttribute: true))\" id=\"\(xmlIDs[object.objectID] ?? "")\" pk=\"\(object.objectID.primaryKey ?? 0)\" version=\"\(object.version)\">\n"
            for key in object.attributes.keys.sorted() {
                guard let value = object.attributes[key] else { continue }
                let (type, text, base64) = Self.encode(value, attribute: model.entitiesByName[entityName]?.attribute(named: key))
                let encoding = base64 ? " encoding=\"base64\"" : ""
                out += "        <attribute name=\"\(XMLText.escape(names.property(key, of: entityName), inAttribute: true))\" type=\"\(type)\"\(encoding)>\(text)</attribute>\n"
            }
            for key in model.entitiesByName[entityName]?.relationships.map(\.name) ?? [] {
                let destinations: [ManagedObjectID]
                let type: String
                if let single = object.toOne[key] { destinations = [single]; type = "1/1" }
                else if let many = object.toMany[key] { destinations = many; type = "0/0" }
                else { continue }
                guard let relationship = model.entitiesByName[entityName]?.relationship(named: key) else { continue }
                let idrefs = destinations.compactMap { xmlIDs[$0] }.joined(separator: " ")
                let refs = idrefs.isEmpty ? "" : " idrefs=\"\(idrefs)\""
                out += "        <relationship name=\"\(XMLText.escape(names.property(key, of: entityName), inAttribute: true))\" type=\"\(type)\" destination=\"\(XMLText.escape(names.entity(relationship.destinationEntityName), inAttribute: true))\"\(refs)></relationship>\n"
            }
            out += "    </object>\n"
        }
        out += "</database>\n"
        return out
    }

    /// The `type` attribute, the text and whether the text is base64 for one value.
    static func encode(_ value: AttributeValue, attribute: AttributeDescription?) -> (String, String, Bool) {
        switch value {
        case .integer(let v):
            let type = switch attribute?.type {
            case .integer16: "int16"
            case .integer32: "int32"
            default: "int64"
            }
            return (type, String(v), false)
        case .decimal(let v): return ("decimal", v.description, false)
        case .double(let v): return ("double", XMLNumber.format(v), false)
        case .float(let v): return ("float", XMLNumber.format(v), false)
        case .string(let v):
            return XMLText.canEscape(v) ? ("string", XMLText.escape(v), false) : ("string", Data(v.utf8).base64EncodedString(), true)
        case .boolean(let v): return ("bool", v ? "1" : "0", false)
        case .date(let v): return ("date", XMLNumber.format(v.timeIntervalSinceReferenceDate), false)
        case .binary(let v): return (attribute?.type == .transformable ? "transformable" : "binary", v.base64EncodedString(), false)
        case .uuid(let v): return ("uuid", v.uuidString, false)
        case .uri(let v): return ("uri", XMLText.escape(v.absoluteString), false)
        case .objectID(let v): return ("objectid", XMLText.escape(v.description), false)
        }
    }

    // MARK: Reading

    @_spi(StoreImplementation) public func read(from url: URL, model: ManagedObjectModel) throws -> StoreImage {
        try XMLStoreDecoder(reader: XMLStreamReader(contentsOf: url), model: model).decode(objects: true)
    }

    /// The UUID and metadata of the file at `url`; stops reading after `<databaseInfo>`. The
    /// store's `<UUID>` is the metadata's `NSStoreUUID`, whether or not the metadata repeats it.
    public static func readMetadata(from url: URL) throws -> [String: PropertyListValue] {
        let reader = try XMLStreamReader(data: databaseInfoPrefix(of: AtomicFileWriter.read(url)), file: url.path)
        let empty = try ManagedObjectModel(entities: [])
        let image = try XMLStoreDecoder(reader: reader, model: empty).decode(objects: false)
        var metadata = image.metadata
        metadata[StoreMetadataKey.storeUUID] = .string(image.identifier)
        return metadata
    }

    /// The document up to the first `</databaseInfo>`, closed with `</database>`, so that the
    /// parser (which reads ahead) never sees what follows; the whole data when there is none.
    static func databaseInfoPrefix(of data: Data) -> Data {
        guard let close = data.range(of: Data("</databaseInfo".utf8)),
              let end = data[close.upperBound...].firstIndex(of: UInt8(ascii: ">")) else { return data }
        return data[data.startIndex...end] + Data("</database>".utf8)
    }
}

/// How model names appear in the file: entity names upper-cased and property names
/// lower-cased, as Core Data writes them, unless that would make two names collide.
struct XMLNames {
    let model: ManagedObjectModel
    let exactEntities: Bool
    /// The entities whose property names are written exactly.
    let exactProperties: Set<String>

    init(model: ManagedObjectModel) {
        self.model = model
        // A written name must lead a reader (exact match, then ignoring case) back to its own
        // entity or property: "Kırmızı" upper-cased is "KIRMIZI", which no longer matches it
        // ignoring case, and "Name" lower-cased collides with "name".
        exactEntities = !model.entities.allSatisfy { entity in
            let written = entity.name.uppercased()
            let found = model.entitiesByName[written] ?? model.entities.first { $0.name.caseInsensitiveCompare(written) == .orderedSame }
            return found?.name == entity.name
        }
        exactProperties = Set(model.entities.filter { entity in
            !entity.properties.allSatisfy { property in
                let written = property.name.lowercased()
                let found = entity.propertiesByName[written]
                    ?? entity.properties.first { $0.name.caseInsensitiveCompare(written) == .orderedSame }
                return found?.name == property.name
            }
        }.map(\.name))
    }

    func entity(_ name: String) -> String { exactEntities ? name : name.uppercased() }

    func property(_ name: String, of entityName: String) -> String {
        guard model.entitiesByName[entityName] != nil, !exactProperties.contains(entityName) else { return name }
        return name.lowercased()
    }
}
