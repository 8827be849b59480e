import Foundation
@_spi(StoreImplementation) import StrataCore

/// Reads an XML store document into a ``StoreImage``, checking it against the model.
struct XMLStoreDecoder {
    let reader: XMLStreamReader
    let model: ManagedObjectModel

    func decode(objects readObjects: Bool) throws -> StoreImage {
        let document = XMLDocumentReader(reader: reader, model: model, readObjects: readObjects)
        try reader.parse(into: document)
        return try document.result()
    }
}

/// How names in a file find the model's: exactly first, then ignoring case.
enum XMLNameLookup {
    static func entity(_ name: String, in model: ManagedObjectModel) -> EntityDescription? {
        model.entitiesByName[name] ?? model.entities.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }
    }

    static func property(_ name: String, in entity: EntityDescription) -> PropertyDescription? {
        entity.propertiesByName[name] ?? entity.properties.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }
    }
}

/// Reads a store document from the parser's events: `<databaseInfo>` (once) as a small
/// element tree, every `<object>` straight from the events without building a tree; the
/// snapshots are assembled once every object (and so every `id`) is known.
///
/// It is built for files of hundreds of thousands of objects: element and attribute names are
/// compared as bytes; entity and property lookups are cached per spelling met in the file;
/// `id`s and `idrefs` of Core Data's `z<number>` form become integers; numbers, Booleans, UUIDs
/// and base64 are read from the bytes; Strings are made only for string values and for text the
/// fast paths do not handle, which then goes through exactly the checks it always did.
final class XMLDocumentReader {
    let reader: XMLStreamReader
    let model: ManagedObjectModel
    let readObjects: Bool

    init(reader: XMLStreamReader, model: ManagedObjectModel, readObjects: Bool) {
        self.reader = reader
        self.model = model
        self.readObjects = readObjects
    }

    // MARK: Events

    // Unchecked exclusivity: touched by every SAX callback of one parse, on one thread; the run-time checks cost more than the work they guard.
    @exclusivity(unchecked) private var image = StoreImage(identifier: "")
    @exclusivity(unchecked) private var storeIdentifier = ""
    /// The depth of the element being read: 1 for `<database>`, 2 for `<object>`, 3 for its properties.
    @exclusivity(unchecked) private var depth = 0
    @exclusivity(unchecked) private var sawRoot = false
    @exclusivity(unchecked) private var sawInfo = false
    /// What went wrong; the parse stops at once.
    @exclusivity(unchecked) private var failure: StoreError?
    /// `<databaseInfo>` and the elements in it being read (empty outside it).
    @exclusivity(unchecked) private var infoStack: [XMLElementNode] = []
    /// The object being read, from its start tag to its end tag, and its snapshot.
    @exclusivity(unchecked) private var object: OpenObject?
    @exclusivity(unchecked) private var snapshot: ObjectSnapshot?
    /// The `<attribute>` being read, whose text goes to `text`.
    @exclusivity(unchecked) private var attribute: OpenAttribute?

    private struct OpenAttribute {
        // unowned(unsafe): the decoder's entity and property tables outlive every value that points into them; no reference counting per element.
        unowned(unsafe) let attribute: Attribute
        let base64: Bool
        let line: Int
    }

    // The entities, attributes and relationships are kept by `entities`; the structs that
    // refer to them while reading do not retain them.

    private struct OpenObject {
        let id: ManagedObjectID
        // unowned(unsafe): the decoder's entity and property tables outlive every value that points into them; no reference counting per element.
        unowned(unsafe) let entity: Entity
        let key: Int?
        let primaryKey: Int64
        let firstReference: Int
        let line: Int
    }

    /// The image read, or the error that stopped the parse.
    func result() throws -> StoreImage {
        if let failure { throw failure }
        guard sawRoot else { throw reader.error("the root element is not <database>") }
        guard sawInfo else { throw reader.error("no <databaseInfo>") }
        if readObjects { try finish(into: &image) }
        return image
    }

    private func fail(_ error: StoreError) -> Bool {
        failure = error
        return false
    }

    func startElement(_ name: XMLName, attributes: XMLAttributes) -> Bool {
        depth += 1
        do {
            if !infoStack.isEmpty {
                // Nested no deeper than 32 levels below <databaseInfo>.
                guard depth - 2 <= 32 else { return fail(reader.error("elements nested too deeply")) }
                infoStack.append(XMLElementNode(name: name.qualified, attributes: attributes.dictionary, text: "",
                                                children: [], line: reader.line))
                return true
            }
            switch depth {
            case 1:
                guard name.is("database") else { return fail(reader.error("the root element is not <database>")) }
                sawRoot = true
            case 2:
                if name.is("object") {
                    guard sawInfo else { return fail(reader.error("<object> before <databaseInfo>")) }
                    try startObject(attributes)
                } else if name.is("databaseInfo") {
                    infoStack = [XMLElementNode(name: "databaseInfo", attributes: attributes.dictionary, text: "",
                                                children: [], line: reader.line)]
                } else {
                    return fail(reader.error("unexpected element <\(name.qualified)> in <database>"))
                }
            case 3:
                if object != nil { try startProperty(name, attributes) }
            default:
                // A property's children may have no children.
                if object != nil, depth > 4 { return fail(reader.error("elements nested too deeply")) }
            }
            return true
        } catch let error as StoreError {
            return fail(error)
        } catch {
            return fail(reader.error("\(error)"))
        }
    }

    func endElement() -> Bool {
        defer { depth -= 1 }
        do {
            if let node = infoStack.popLast() {
                if infoStack.isEmpty {
                    try endInfo(node)
                    // Reading the metadata alone ends here.
                    return readObjects
                }
                infoStack[infoStack.count - 1].children.append(node)
            } else if depth == 3, let attribute {
                self.attribute = nil
                let value = try value(for: attribute.attribute, base64: attribute.base64,
                                      entity: object?.entity.name ?? "", line: attribute.line)
                snapshot?.attributes[attribute.attribute.name] = value
            } else if depth == 2, object != nil {
                try endObject()
            }
            return true
        } catch let error as StoreError {
            return fail(error)
        } catch {
            return fail(reader.error("\(error)"))
        }
    }

    func characters(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        if attribute != nil, depth == 3 {
            text.append(contentsOf: bytes)
        } else if !infoStack.isEmpty {
            infoStack[infoStack.count - 1].text += String(decoding: bytes, as: UTF8.self)
        }
        // Text between elements is layout.
        return true
    }

    func entityReference() -> Bool {
        fail(reader.error("entity references are not allowed in a store file"))
    }

    private func endInfo(_ node: XMLElementNode) throws {
        try readInfo(node, into: &image, primaryKeys: readObjects)
        sawInfo = true
        storeIdentifier = image.identifier
        if readObjects, let text = node.child("nextObjectID")?.text.trimmingCharacters(in: .whitespacesAndNewlines),
           let next = Int(text) {
            reserveCapacity(next - XMLStoreFormat.firstObjectID)
        }
    }

    /// Reads the UUID, the metadata and (with `primaryKeys`) the next primary keys, whose
    /// entities only a real model knows: reading the metadata alone uses an empty one.
    private func readInfo(_ node: XMLElementNode, into image: inout StoreImage, primaryKeys: Bool) throws {
        guard let uuid = node.child("UUID")?.text.trimmingCharacters(in: .whitespacesAndNewlines), !uuid.isEmpty else {
            throw reader.error("<databaseInfo> has no <UUID>", line: node.line)
        }
        image.identifier = uuid
        if let plist = node.child("metadata")?.child("plist")?.children.first {
            guard case .dictionary(let metadata) = try XMLPropertyList.read(plist, reader: reader) else {
                throw reader.error("<metadata> is not a dictionary", line: plist.line)
            }
            image.metadata = metadata
        }
        for entry in node.children where primaryKeys && entry.name == "nextPrimaryKey" {
            guard let name = entry.attributes["entity"] else {
                throw reader.error("<nextPrimaryKey> names no entity", line: entry.line)
            }
            guard let entity = XMLNameLookup.entity(name, in: model) else {
                throw modelMismatch(entity: name, metadata: image.metadata)
            }
            let text = entry.text.trimmingCharacters(in: .whitespaces)
            guard let next = Int64(text), next > 0 else {
                throw reader.error("<nextPrimaryKey entity=\"\(name)\"> holds '\(text.prefix(40))', not a positive integer", line: entry.line)
            }
            image.nextPrimaryKeys[entity.rootEntityName] = next
        }
    }

    /// The error for a store naming an entity the model does not have: the model does not match
    /// the store. Names the entities whose version hashes differ (when the store recorded them)
    /// and the entity met.
    private func modelMismatch(entity name: String, metadata: [String: PropertyListValue]) -> StoreError {
        let hashes = StoreMetadataKey.versionHashes(in: metadata)
        var differing = hashes.isEmpty ? [] : model.entitiesDiffering(fromVersionHashes: hashes)
        // The file may spell the name in capitals, as Core Data's XML stores do.
        if !differing.contains(where: { $0.caseInsensitiveCompare(name) == .orderedSame }) { differing.append(name) }
        return .incompatibleModel(file: reader.file, entities: differing.sorted())
    }

    // MARK: Model lookups, cached

    /// One inheritance root: primary keys in use and the next key the objects call for.
    final class Root {
        let name: String
        // Unchecked exclusivity: touched by every SAX callback of one parse, on one thread; the run-time checks cost more than the work they guard.
        /// Primary key → index (in `entities`) of the entity of the object holding it.
        @exclusivity(unchecked) var keys = IntTable()
        /// The largest next key the objects call for; 0 before the first object.
        @exclusivity(unchecked) var nextKey: Int64 = 0
        init(name: String) { self.name = name }
    }

    final class Attribute {
        let description: AttributeDescription
        let name: String
        let type: AttributeType
        init(_ description: AttributeDescription) {
            self.description = description
            name = description.name
            type = description.type
        }
    }

    final class Relationship {
        let name: String
        let destination: String
        let isToMany: Bool
        // Unchecked exclusivity: touched by every SAX callback of one parse, on one thread; the run-time checks cost more than the work they guard.
        /// Per entity index: 0 not yet known, 1 a kind of the destination, 2 not.
        @exclusivity(unchecked) var accepts: [UInt8] = []
        init(_ description: RelationshipDescription) {
            name = description.name
            destination = description.destinationEntityName
            isToMany = description.isToMany
        }
    }

    /// A class reference that is not retained (its entity's `owners` keep it alive).
    struct Unretained<Object: AnyObject> {
        // unowned(unsafe): the decoder's entity and property tables outlive every value that points into them; no reference counting per element.
        unowned(unsafe) let object: Object
    }

    enum Property {
        case attribute(Unretained<Attribute>)
        case relationship(Unretained<Relationship>)
        case other
    }

    final class Entity {
        let description: EntityDescription
        let name: String
        let index: Int
        let root: Root
        // Unchecked exclusivity: touched by every SAX callback of one parse, on one thread; the run-time checks cost more than the work they guard.
        @exclusivity(unchecked) var propertiesByName: [String: Property] = [:]
        @exclusivity(unchecked) var spellings = SpellingCache<Property>()
        /// The attributes and relationships that `Property` values refer to.
        var owners: [AnyObject] = []
        init(_ description: EntityDescription, index: Int, root: Root) {
            self.description = description
            name = description.name
            self.index = index
            self.root = root
        }
    }

    // Unchecked exclusivity: touched by every SAX callback of one parse, on one thread; the run-time checks cost more than the work they guard.
    @exclusivity(unchecked) private var entities: [Entity] = []
    @exclusivity(unchecked) private var entitiesByName: [String: Entity] = [:]
    @exclusivity(unchecked) private var roots: [String: Root] = [:]
    @exclusivity(unchecked) private var entitySpellings = SpellingCache<Entity>()

    private func entity(named name: UnsafeBufferPointer<UInt8>) -> Entity? {
        if let found = entitySpellings.find(name) { return found }
        let text = String(decoding: name, as: UTF8.self)
        guard let description = XMLNameLookup.entity(text, in: model) else { return nil }
        let entity: Entity
        if let known = entitiesByName[description.name] {
            entity = known
        } else {
            let rootName = model.entitiesByName[description.name]?.rootEntityName ?? description.name
            let root = roots[rootName] ?? Root(name: rootName)
            roots[rootName] = root
            entity = Entity(description, index: entities.count, root: root)
            entities.append(entity)
            entitiesByName[description.name] = entity
        }
        entitySpellings.add(name, value: entity)
        return entity
    }

    private func property(named name: UnsafeBufferPointer<UInt8>, in entity: Entity) -> Property? {
        if let found = entity.spellings.find(name) { return found }
        let text = String(decoding: name, as: UTF8.self)
        guard let description = XMLNameLookup.property(text, in: entity.description) else { return nil }
        let property: Property
        if let known = entity.propertiesByName[description.name] {
            property = known
        } else {
            switch description {
            case .attribute(let attribute):
                let owner = Attribute(attribute)
                entity.owners.append(owner)
                property = .attribute(Unretained(object: owner))
            case .relationship(let relationship):
                let owner = Relationship(relationship)
                entity.owners.append(owner)
                property = .relationship(Unretained(object: owner))
            case .fetchedProperty: property = .other
            }
            entity.propertiesByName[description.name] = property
        }
        entity.spellings.add(name, value: property)
        return property
    }

    private func accepts(_ relationship: Relationship, _ entity: Entity) -> Bool {
        if entity.index < relationship.accepts.count, relationship.accepts[entity.index] != 0 {
            return relationship.accepts[entity.index] == 1
        }
        let accepted = model.entity(entity.name, isKindOf: relationship.destination)
        if relationship.accepts.count <= entity.index {
            relationship.accepts.append(contentsOf: repeatElement(0, count: entity.index + 1 - relationship.accepts.count))
        }
        relationship.accepts[entity.index] = accepted ? 1 : 2
        return accepted
    }

    // MARK: Object ids

    // Unchecked exclusivity: touched by every SAX callback of one parse, on one thread; the run-time checks cost more than the work they guard.
    /// `id`s as integer keys: Core Data's `z<number>` (no leading zero, at most 18 digits) is
    /// the number; any other text is numbered from -1 down, so distinct texts get distinct
    /// keys (and texts Swift compares equal, one key).
    @exclusivity(unchecked) private var internedKeys: [String: Int] = [:]
    @exclusivity(unchecked) private var internedTexts: [String] = []

    private func key(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        bytes.baseAddress.flatMap { Self.number($0, count: bytes.count) } ?? intern(String(decoding: bytes, as: UTF8.self))
    }

    private func key(_ text: String) -> Int {
        var copy = text
        let number = copy.withUTF8 { utf8 in utf8.baseAddress.flatMap { Self.number($0, count: utf8.count) } }
        return number ?? intern(text)
    }

    /// The number of a canonical `z<number>`; nil for any other text.
    @inline(__always)
    private static func number(_ bytes: UnsafePointer<UInt8>, count: Int) -> Int? {
        guard count >= 2, count <= 19, bytes[0] == UInt8(ascii: "z"), bytes[1] != UInt8(ascii: "0") || count == 2 else { return nil }
        var number = 0
        for index in 1..<count {
            let digit = bytes[index] &- UInt8(ascii: "0")
            guard digit <= 9 else { return nil }
            number = number * 10 + Int(digit)
        }
        return number
    }

    private func intern(_ text: String) -> Int {
        if let known = internedKeys[text] { return known }
        internedTexts.append(text)
        internedKeys[text] = -internedTexts.count
        return -internedTexts.count
    }

    private func text(ofKey key: Int) -> String { key >= 0 ? "z\(key)" : internedTexts[-key - 1] }

    /// Appends the keys of an `idrefs` value (separated by spaces) to `targets`.
    private func appendKeys(_ value: UnsafeBufferPointer<UInt8>) {
        var ascii = true
        for byte in value where byte >= 0x80 { ascii = false; break }
        guard ascii else {
            // Split as Characters, as it always was: a space followed by a combining mark is not a separator.
            for token in String(decoding: value, as: UTF8.self).split(separator: " ") { targets.append(key(String(token))) }
            return
        }
        var start = 0
        for index in 0...value.count where index == value.count || value[index] == UInt8(ascii: " ") {
            if index > start { targets.append(key(UnsafeBufferPointer(rebasing: value[start..<index]))) }
            start = index + 1
        }
    }

    // MARK: Objects

    /// An object read, but for its snapshot (in `snapshots`, at the same index).
    private struct PendingObject {
        let id: ManagedObjectID
        // unowned(unsafe): the decoder's entity and property tables outlive every value that points into them; no reference counting per element.
        unowned(unsafe) let entity: Entity
        /// This object's references, in `references`.
        let references: Range<Int>
    }

    private struct PendingReference {
        // unowned(unsafe): the decoder's entity and property tables outlive every value that points into them; no reference counting per element.
        unowned(unsafe) let relationship: Relationship
        /// The destinations' keys, in `targets`.
        let targets: Range<Int>
        let line: Int
    }

    // Unchecked exclusivity: touched by every SAX callback of one parse, on one thread; the run-time checks cost more than the work they guard.
    @exclusivity(unchecked) private var pending: [PendingObject] = []
    @exclusivity(unchecked) private var snapshots: [ObjectSnapshot] = []
    @exclusivity(unchecked) private var references: [PendingReference] = []
    @exclusivity(unchecked) private var targets: [Int] = []
    /// Object key → index in `pending`.
    @exclusivity(unchecked) private var indexByKey = IntTable()
    /// The text of the `<attribute>` being read.
    @exclusivity(unchecked) private var text: [UInt8] = []

    /// Makes room for the number of objects `<nextObjectID>` announces, no more than the
    /// document's size allows (an object takes more than 40 bytes).
    private func reserveCapacity(_ count: Int) {
        let count = min(max(0, count), reader.byteCount / 40)
        pending.reserveCapacity(count)
        snapshots.reserveCapacity(count)
    }

    private enum Number {
        case absent
        case value(Int64)
        case invalid(String)

        init(_ bytes: UnsafeBufferPointer<UInt8>) {
            if let value = XMLBytes.int64(bytes) {
                self = .value(value)
            } else {
                self = .invalid(String(decoding: bytes, as: UTF8.self))
            }
        }
    }

    /// Reads the start tag of an `<object>`.
    private func startObject(_ attributes: XMLAttributes) throws {
        let line = reader.line
        func fail(_ reason: String) -> StoreError { reader.error(reason, line: line) }
        var entity: Entity?
        var typeText = ""
        var objectKey: Int?
        var primaryKey = Number.absent
        var version = Number.absent
        attributes.forEach { name, value in
            if name.is("type") {
                entity = self.entity(named: value)
                if entity == nil { typeText = String(decoding: value, as: UTF8.self) }
            } else if name.is("id") {
                objectKey = key(value)
            } else if name.is("pk") {
                primaryKey = Number(value)
            } else if name.is("version") {
                version = Number(value)
            }
        }
        guard let entity else {
            throw fail("unknown entity '\(typeText)': the model has no such entity, so it does not match the store")
        }
        guard !entity.description.isAbstract else { throw fail("object of abstract entity '\(entity.name)'") }
        let pk: Int64?
        let pkText: String
        switch primaryKey {
        case .value(let value):
            pk = value
            pkText = String(value)
        case .invalid(let text):
            pk = nil
            pkText = text
        case .absent:
            // A file Core Data wrote has no pk: the key is the number of the id.
            if let objectKey, objectKey >= 0 {
                pk = Int64(objectKey)
                pkText = String(objectKey)
            } else {
                pkText = objectKey.map { String(text(ofKey: $0).drop(while: { !$0.isNumber })) } ?? ""
                pk = Int64(pkText)
            }
        }
        guard let pk, pk > 0 else { throw fail("invalid primary key '\(pkText)'") }
        var objectVersion: Int64 = 1
        switch version {
        case .absent: break
        case .value(let value): objectVersion = value
        case .invalid(let text): throw fail("invalid version '\(text)'")
        }
        let id = ManagedObjectID(entityName: entity.name, storeIdentifier: storeIdentifier, primaryKey: pk)
        var snapshot = ObjectSnapshot(objectID: id, version: objectVersion)
        snapshot.attributes = AttributeValues(layout: entity.description.attributeLayout)
        self.snapshot = snapshot
        object = OpenObject(id: id, entity: entity, key: objectKey, primaryKey: pk,
                            firstReference: references.count, line: line)
    }

    /// Checks the object's id and key at its end tag and keeps it.
    private func endObject() throws {
        guard let object = object.take(), let snapshot = snapshot.take() else { return }
        func fail(_ reason: String) -> StoreError { reader.error(reason, line: object.line) }
        guard let key = object.key, indexByKey.updateValue(pending.count, forKey: Int64(key)) == nil else {
            throw fail("missing or duplicate object id '\(object.key.map(text(ofKey:)) ?? "")'")
        }
        // Keys are numbered per inheritance root: Book/p3 and Magazine/p3 cannot both exist.
        let entity = object.entity
        let root = entity.root
        let pk = object.primaryKey
        if let holder = root.keys.updateValue(entity.index, forKey: pk) {
            throw fail(holder == entity.index ? "duplicate object \(object.id)"
                                              : "primary key \(pk) is used twice under '\(root.name)'")
        }
        root.nextKey = max(root.nextKey, pk == .max ? pk : pk + 1)
        pending.append(PendingObject(id: object.id, entity: entity, references: object.firstReference..<references.count))
        snapshots.append(snapshot)
    }

    /// Reads the start tag of an `<attribute>` or `<relationship>` of the open object.
    private func startProperty(_ name: XMLName, _ attributes: XMLAttributes) throws {
        guard let entity = object?.entity else { return }
        let line = reader.line
        let isAttribute = name.is("attribute")
        let isRelationship = !isAttribute && name.is("relationship")
        var property: Property?
        var sawName = false
        var nameText = ""
        var base64 = false
        let firstTarget = targets.count
        attributes.forEach { attributeName, value in
            if attributeName.is("name") {
                sawName = true
                property = self.property(named: value, in: entity)
                if property == nil { nameText = String(decoding: value, as: UTF8.self) }
            } else if attributeName.is("encoding") {
                base64 = CBytes.equal(value, "base64")
            } else if isRelationship, attributeName.is("idrefs") {
                appendKeys(value)
            }
        }
        guard sawName, let property else {
            throw reader.error("entity '\(entity.name)' has no property '\(nameText)'", line: line)
        }
        switch property {
        case .attribute(let unretained) where isAttribute:
            let attribute = unretained.object
            text.removeAll(keepingCapacity: true)
            self.attribute = OpenAttribute(attribute: attribute, base64: base64, line: line)
        case .relationship(let unretained) where isRelationship:
            let relationship = unretained.object
            references.append(PendingReference(relationship: relationship, targets: firstTarget..<targets.count, line: line))
        default:
            let propertyName = switch property {
            case .attribute(let attribute): attribute.object.name
            case .relationship(let relationship): relationship.object.name
            case .other: nameText
            }
            throw reader.error("<\(name.qualified) name=\"\(propertyName)\"> does not match the model's property", line: line)
        }
    }

    // MARK: Values

    private func value(for attribute: Attribute, base64: Bool, entity: String, line: Int) throws -> AttributeValue {
        if !base64, let value = text.withUnsafeBufferPointer({ XMLBytes.value($0, type: attribute.type) }),
           value.matches(attribute.type) {
            return value
        }
        let object = self.object?.id.uriRepresentation.absoluteString ?? "?"
        return try Self.value(String(decoding: text, as: UTF8.self), base64: base64, for: attribute.description,
                              entity: entity) { found in
            StoreError.invalidStoredValue(StoredValueProblem(
                file: reader.file, position: "line \(line)", entityName: entity, object: object,
                attribute: attribute.description.name, type: attribute.description.type, found: found))
        }
    }

    /// The value of `text` for `attribute`, by the general rules (any Unicode whitespace
    /// trimmed, base64 strings decoded): what the fast paths fall back to, and the source of
    /// every error message about a value. `invalid` makes the error for text that is no value
    /// of the attribute's type (or out of its range) from what the text held.
    static func value(_ text: String, base64: Bool, for attribute: AttributeDescription, entity: String,
                      invalid: (String) -> StoreError) throws -> AttributeValue {
        func quoted(_ text: String) -> String { "the text '\(text.count > 40 ? text.prefix(40) + "…" : text[...])'" }
        var text = text
        if base64 {
            // String(validating:) keeps a leading U+FEFF, which String(data:encoding:) drops.
            guard let data = Data(base64Encoded: text), let decoded = String(validating: data, as: UTF8.self) else {
                throw invalid("invalid base64 text")
            }
            text = decoded
        }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let value: AttributeValue?
        switch attribute.type {
        case .integer16, .integer32, .integer64: value = Int64(trimmed).map { .integer($0) }
        case .decimal: value = Decimal(exactly: trimmed).map { .decimal($0) }
        case .double: value = XMLNumber.parse(trimmed).map { .double($0) }
        case .float: value = XMLNumber.parseFloat(trimmed).map { .float($0) }
        case .string: value = .string(text)
        case .boolean: value = ["1": true, "0": false, "YES": true, "NO": false, "true": true, "false": false][trimmed].map { .boolean($0) }
        case .date: value = XMLNumber.parse(trimmed).map { .date(Date(timeIntervalSinceReferenceDate: $0)) }
        case .binaryData, .transformable: value = Data(base64Encoded: trimmed.filter { !$0.isWhitespace }).map { .binary($0) }
        case .uuid: value = UUID(uuidString: trimmed).map { .uuid($0) }
        case .uri: value = URL(string: trimmed).map { .uri($0) }
        case .objectID: value = URL(string: trimmed).flatMap(ManagedObjectID.init(parsing:)).map { .objectID($0) }
        }
        guard let value, value.matches(attribute.type) else { throw invalid(quoted(trimmed)) }
        return value
    }

    // MARK: Assembling

    /// Resolves every reference, now that every id is known, and puts the snapshots and the
    /// next primary keys into `image`.
    func finish(into image: inout StoreImage) throws {
        image.objects.reserveCapacity(image.objects.count + pending.count)
        // The snapshots are moved out one by one (from the back, so reversed first), never copied.
        snapshots.reverse()
        for index in pending.indices {
            var snapshot = snapshots.removeLast()
            for reference in references[pending[index].references] {
                let relationship = reference.relationship
                if relationship.isToMany {
                    var ids: [ManagedObjectID] = []
                    ids.reserveCapacity(reference.targets.count)
                    for target in reference.targets {
                        if let id = try resolve(targets[target], for: reference, from: snapshot.objectID, into: &image) { ids.append(id) }
                    }
                    snapshot.toMany[relationship.name] = ids
                } else {
                    guard reference.targets.count <= 1 else {
                        throw reader.error("to-one '\(relationship.name)' has \(reference.targets.count) idrefs", line: reference.line)
                    }
                    for target in reference.targets {
                        if let id = try resolve(targets[target], for: reference, from: snapshot.objectID, into: &image) {
                            snapshot.toOne[relationship.name] = id
                        }
                    }
                }
            }
            image.objects[snapshot.objectID] = snapshot
        }
        finishKeys(into: &image)
    }

    private func finishKeys(into image: inout StoreImage) {
        for root in roots.values where root.nextKey > 0 {
            image.nextPrimaryKeys[root.name] = max(image.nextPrimaryKeys[root.name] ?? 1, root.nextKey)
        }
    }

    /// The object `key` names for `reference` of `source`; nil for a key no object of the file
    /// has, which is recorded in `image`'s dangling references (reading keeps going, the
    /// relationship reads as if the reference were not there).
    private func resolve(_ key: Int, for reference: PendingReference, from source: ManagedObjectID,
                         into image: inout StoreImage) throws -> ManagedObjectID? {
        guard let index = indexByKey[Int64(key)] else {
            image.danglingReferences.append(DanglingReference(
                source: source, relationship: reference.relationship.name,
                destinationEntityName: reference.relationship.destination, destinationName: text(ofKey: key)))
            return nil
        }
        let id = pending[index].id
        guard accepts(reference.relationship, pending[index].entity) else {
            throw reader.error("'\(reference.relationship.name)' refers to '\(text(ofKey: key))', an object of entity '\(id.entityName)'",
                               line: reference.line)
        }
        return id
    }
}

/// The spellings of names met in a file and what they resolved to: found by comparing bytes,
/// starting after the last one found, since objects of one entity list their properties in
/// the same order. Holds at most `limit` spellings, so a hostile file cannot make it grow.
struct SpellingCache<Value> {
    /// The spellings' bytes, one after another.
    private var bytes: [UInt8] = []
    private var starts: [Int] = [0]
    private var values: [Value] = []
    private var next = 0
    static var limit: Int { 128 }

    mutating func find(_ name: UnsafeBufferPointer<UInt8>) -> Value? {
        let total = values.count
        guard total > 0 else { return nil }
        var index = next < total ? next : 0
        let found: Int? = bytes.withUnsafeBufferPointer { stored in
            for _ in 0..<total {
                let start = starts[index]
                let count = starts[index + 1] - start
                if count == name.count, count == 0 || memcmp(stored.baseAddress! + start, name.baseAddress!, count) == 0 {
                    return index
                }
                index = index + 1 == total ? 0 : index + 1
            }
            return nil
        }
        guard let found else { return nil }
        next = found + 1
        return values[found]
    }

    mutating func add(_ name: UnsafeBufferPointer<UInt8>, value: Value) {
        guard values.count < Self.limit else { return }
        bytes.append(contentsOf: name)
        starts.append(bytes.count)
        values.append(value)
        next = values.count
    }
}

/// Integer keys to integer values, for object keys and primary keys: an array for the keys
/// from 0 below `limit` (as a file's keys are), a dictionary for any other.
struct IntTable {
    /// Value + 1 by key; 0 when absent, -1 when the value is in `others`.
    private var slots: [Int32] = []
    private var others: [Int64: Int] = [:]
    /// At most 4 Mi slots (16 MB), however large the keys a file uses.
    static let limit: Int64 = 1 << 22

    /// Sets the value of `key` and returns the one it had.
    mutating func updateValue(_ value: Int, forKey key: Int64) -> Int? {
        guard key >= 0, key < Self.limit else { return others.updateValue(value, forKey: key) }
        let index = Int(key)
        if index >= slots.count {
            slots.append(contentsOf: repeatElement(0, count: min(Int(Self.limit), max(index + 1, 2 * slots.count)) - slots.count))
        }
        let old: Int?
        switch slots[index] {
        case 0: old = nil
        case -1: old = others.removeValue(forKey: key)
        case let slot: old = Int(slot - 1)
        }
        if value >= 0, value < Int(Int32.max) {
            slots[index] = Int32(value + 1)
        } else {
            slots[index] = -1
            others[key] = value
        }
        return old
    }

    subscript(key: Int64) -> Int? {
        guard key >= 0, key < Self.limit else { return others[key] }
        guard key < Int64(slots.count) else { return nil }
        let slot = slots[Int(key)]
        switch slot {
        case 0: return nil
        case -1: return others[key]
        default: return Int(slot - 1)
        }
    }
}
