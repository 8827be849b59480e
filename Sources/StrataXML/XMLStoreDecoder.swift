import Foundation
import StrataCore

/// Reads an XML store document into a ``StoreImage``, checking it against the model.
///
/// `<databaseInfo>` (read once) is read as a small element tree; every `<object>` is read
/// straight from the stream by ``XMLObjectReader``, without building an element tree.
struct XMLStoreDecoder {
    let reader: XMLStreamReader
    let model: ManagedObjectModel

    func decode(objects readObjects: Bool) throws -> StoreImage {
        guard try advanceToElement(), reader.name == "database", reader.depth == 0 else {
            throw reader.error("the root element is not <database>")
        }
        var image = StoreImage(identifier: "")
        var sawInfo = false
        let objects = XMLObjectReader(reader: reader, model: model)
        while let type = try reader.read() {
            if type == XMLStreamReader.endElementType, reader.depth == 0 { break }
            guard type == XMLStreamReader.elementType, reader.depth == 1 else { continue }
            if reader.nameIs("object") {
                guard sawInfo else { throw reader.error("<object> before <databaseInfo>") }
                try objects.readObject()
            } else if reader.nameIs("databaseInfo") {
                let info = try reader.readElement()
                try readInfo(info, into: &image, primaryKeys: readObjects)
                sawInfo = true
                if !readObjects { return image }
                objects.storeIdentifier = image.identifier
                if let text = info.child("nextObjectID")?.text.trimmingCharacters(in: .whitespacesAndNewlines),
                   let next = Int(text) {
                    objects.reserveCapacity(next - XMLStoreFormat.firstObjectID)
                }
            } else {
                throw reader.error("unexpected element <\(reader.name)> in <database>")
            }
        }
        guard sawInfo else { throw reader.error("no <databaseInfo>") }
        try objects.finish(into: &image)
        return image
    }

    private func advanceToElement() throws -> Bool {
        while try reader.next() { if reader.isStartElement { return true } }
        return false
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
            guard let name = entry.attributes["entity"], let entity = XMLNameLookup.entity(name, in: model),
                  let next = Int64(entry.text.trimmingCharacters(in: .whitespaces)), next > 0 else {
                throw reader.error("invalid <nextPrimaryKey>", line: entry.line)
            }
            image.nextPrimaryKeys[entity.rootEntityName] = next
        }
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

/// Reads the `<object>` elements of a document from the stream, one node at a time, and
/// assembles the snapshots once every object (and so every `id`) is known.
///
/// It is built for files of hundreds of thousands of objects: element and attribute names are
/// compared as bytes; entity and property lookups are cached per spelling met in the file;
/// `id`s and `idrefs` of Core Data's `z<number>` form become integers; numbers, Booleans, UUIDs
/// and base64 are read from the bytes; Strings are made only for string values and for text the
/// fast paths do not handle, which then goes through exactly the checks it always did.
final class XMLObjectReader {
    let reader: XMLStreamReader
    let model: ManagedObjectModel
    var storeIdentifier = ""

    init(reader: XMLStreamReader, model: ManagedObjectModel) {
        self.reader = reader
        self.model = model
    }

    // MARK: Model lookups, cached

    /// One inheritance root: primary keys in use and the next key the objects call for.
    final class Root {
        let name: String
        /// Primary key → index (in `entities`) of the entity of the object holding it.
        var keys: [Int64: Int] = [:]
        /// The largest next key the objects call for; 0 before the first object.
        var nextKey: Int64 = 0
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
        /// Per entity index: 0 not yet known, 1 a kind of the destination, 2 not.
        var accepts: [UInt8] = []
        init(_ description: RelationshipDescription) {
            name = description.name
            destination = description.destinationEntityName
            isToMany = description.isToMany
        }
    }

    enum Property {
        case attribute(Attribute)
        case relationship(Relationship)
        case other
    }

    final class Entity {
        let description: EntityDescription
        let name: String
        let index: Int
        let root: Root
        let attributeCount: Int
        var propertiesByName: [String: Property] = [:]
        var spellings = SpellingCache<Property>()
        init(_ description: EntityDescription, index: Int, root: Root) {
            self.description = description
            name = description.name
            self.index = index
            self.root = root
            attributeCount = description.properties.reduce(0) { $0 + ($1.attribute == nil ? 0 : 1) }
        }
    }

    private var entities: [Entity] = []
    private var entitiesByName: [String: Entity] = [:]
    private var roots: [String: Root] = [:]
    private var entitySpellings = SpellingCache<Entity>()

    private func entity(named name: UnsafePointer<UInt8>) -> Entity? {
        let count = CBytes.length(name)
        if let found = entitySpellings.find(name, count: count) { return found }
        let text = String(decoding: UnsafeBufferPointer(start: name, count: count), as: UTF8.self)
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
        entitySpellings.add(name, count: count, value: entity)
        return entity
    }

    private func property(named name: UnsafePointer<UInt8>, in entity: Entity) -> Property? {
        let count = CBytes.length(name)
        if let found = entity.spellings.find(name, count: count) { return found }
        let text = String(decoding: UnsafeBufferPointer(start: name, count: count), as: UTF8.self)
        guard let description = XMLNameLookup.property(text, in: entity.description) else { return nil }
        let property: Property
        if let known = entity.propertiesByName[description.name] {
            property = known
        } else {
            switch description {
            case .attribute(let attribute): property = .attribute(Attribute(attribute))
            case .relationship(let relationship): property = .relationship(Relationship(relationship))
            case .fetchedProperty: property = .other
            }
            entity.propertiesByName[description.name] = property
        }
        entity.spellings.add(name, count: count, value: property)
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

    /// `id`s as integer keys: Core Data's `z<number>` (no leading zero, at most 18 digits) is
    /// the number; any other text is numbered from -1 down, so distinct texts get distinct
    /// keys (and texts Swift compares equal, one key).
    private var internedKeys: [String: Int] = [:]
    private var internedTexts: [String] = []

    private func key(_ bytes: UnsafePointer<UInt8>, count: Int) -> Int {
        Self.number(bytes, count: count)
            ?? intern(String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self))
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
    private func appendKeys(_ value: UnsafePointer<UInt8>) {
        let count = CBytes.length(value)
        var ascii = true
        for index in 0..<count where value[index] >= 0x80 { ascii = false; break }
        guard ascii else {
            // Split as Characters, as it always was: a space followed by a combining mark is not a separator.
            let text = String(decoding: UnsafeBufferPointer(start: value, count: count), as: UTF8.self)
            for token in text.split(separator: " ") { targets.append(key(String(token))) }
            return
        }
        var start = 0
        for index in 0...count where index == count || value[index] == UInt8(ascii: " ") {
            if index > start { targets.append(key(value + start, count: index - start)) }
            start = index + 1
        }
    }

    // MARK: Reading objects

    private struct PendingObject {
        var snapshot: ObjectSnapshot
        /// The snapshot's ID, kept here as `finish(into:)` takes the snapshots out one by one.
        let id: ManagedObjectID
        let entity: Entity
        /// This object's references, in `references`.
        let references: Range<Int>
    }

    private struct PendingReference {
        let relationship: Relationship
        /// The destinations' keys, in `targets`.
        let targets: Range<Int>
        let line: Int
    }

    private var pending: [PendingObject] = []
    private var references: [PendingReference] = []
    private var targets: [Int] = []
    /// Object key → index in `pending`.
    private var indexByKey: [Int: Int] = [:]
    /// The text of the `<attribute>` being read.
    private var text: [UInt8] = []

    private enum Number {
        case absent
        case value(Int64)
        case invalid(String)

        init(_ bytes: UnsafePointer<UInt8>) {
            let count = CBytes.length(bytes)
            if let value = XMLBytes.int64(UnsafeBufferPointer(start: bytes, count: count)) {
                self = .value(value)
            } else {
                self = .invalid(String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self))
            }
        }
    }

    /// Makes room for the number of objects `<nextObjectID>` announces, no more than the
    /// document's size allows (an object takes more than 40 bytes).
    func reserveCapacity(_ count: Int) {
        let count = min(max(0, count), reader.byteCount / 40)
        pending.reserveCapacity(count)
        indexByKey.reserveCapacity(count)
    }

    /// Reads the `<object>` the reader stands on, up to and with its end tag.
    func readObject() throws {
        let line = reader.line
        func fail(_ reason: String) -> StoreError { reader.error(reason, line: line) }
        var entity: Entity?
        var typeText = ""
        var objectKey: Int?
        var primaryKey = Number.absent
        var version = Number.absent
        try reader.forEachAttribute { name, value in
            if CBytes.equal(name, "type") {
                entity = self.entity(named: value)
                if entity == nil { typeText = String(cString: value) }
            } else if CBytes.equal(name, "id") {
                objectKey = key(value, count: CBytes.length(value))
            } else if CBytes.equal(name, "pk") {
                primaryKey = Number(value)
            } else if CBytes.equal(name, "version") {
                version = Number(value)
            }
        }
        guard let entity else { throw fail("unknown entity '\(typeText)'") }
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
        snapshot.attributes.reserveCapacity(entity.attributeCount)
        let firstReference = references.count
        if !reader.isEmptyElement {
            while true {
                guard let type = try reader.read() else { throw reader.error("the document ends inside <object>") }
                if type == XMLStreamReader.elementType {
                    try readProperty(of: entity, into: &snapshot)
                } else if type == XMLStreamReader.endElementType, reader.depth == 1 {
                    break
                }
                // Text between the properties is layout.
            }
        }

        guard let objectKey, indexByKey.updateValue(pending.count, forKey: objectKey) == nil else {
            throw fail("missing or duplicate object id '\(objectKey.map(text(ofKey:)) ?? "")'")
        }
        // Keys are numbered per inheritance root: Book/p3 and Magazine/p3 cannot both exist.
        let root = entity.root
        if let holder = root.keys.updateValue(entity.index, forKey: pk) {
            throw fail(holder == entity.index ? "duplicate object \(id)" : "primary key \(pk) is used twice under '\(root.name)'")
        }
        root.nextKey = max(root.nextKey, pk == .max ? pk : pk + 1)
        pending.append(PendingObject(snapshot: snapshot, id: id, entity: entity, references: firstReference..<references.count))
    }

    /// Reads one `<attribute>` or `<relationship>` (the reader stands on its start tag) into the
    /// snapshot or the pending references.
    private func readProperty(of entity: Entity, into snapshot: inout ObjectSnapshot) throws {
        let line = reader.line
        let isAttribute = reader.nameIs("attribute")
        let isRelationship = !isAttribute && reader.nameIs("relationship")
        var property: Property?
        var sawName = false
        var nameText = ""
        var base64 = false
        let firstTarget = targets.count
        try reader.forEachAttribute { name, value in
            if CBytes.equal(name, "name") {
                sawName = true
                property = self.property(named: value, in: entity)
                if property == nil { nameText = String(cString: value) }
            } else if CBytes.equal(name, "encoding") {
                base64 = CBytes.equal(value, "base64")
            } else if isRelationship, CBytes.equal(name, "idrefs") {
                appendKeys(value)
            }
        }
        guard sawName, let property else {
            throw reader.error("entity '\(entity.name)' has no property '\(nameText)'", line: line)
        }
        switch property {
        case .attribute(let attribute) where isAttribute:
            text.removeAll(keepingCapacity: true)
            try skipContent(of: "attribute", collectingText: true)
            snapshot.attributes[attribute.name] = try value(for: attribute, base64: base64, entity: entity.name, line: line)
        case .relationship(let relationship) where isRelationship:
            try skipContent(of: "relationship", collectingText: false)
            references.append(PendingReference(relationship: relationship, targets: firstTarget..<targets.count, line: line))
        default:
            let name = switch property {
            case .attribute(let attribute): attribute.name
            case .relationship(let relationship): relationship.name
            case .other: nameText
            }
            throw reader.error("<\(reader.name) name=\"\(name)\"> does not match the model's property", line: line)
        }
    }

    /// Reads up to the end tag of the element at depth 2 that the reader stands on, keeping its
    /// own text in `text`; its children may have no children.
    private func skipContent(of name: String, collectingText: Bool) throws {
        guard !reader.isEmptyElement else { return }
        while let type = try reader.read() {
            if type == XMLStreamReader.endElementType {
                if reader.depth == 2 { return }
            } else if type == XMLStreamReader.elementType {
                if reader.depth > 3 { throw reader.error("elements nested too deeply") }
            } else if collectingText, XMLStreamReader.isTextType(type), reader.depth == 3 {
                reader.appendValue(to: &text)
            }
        }
        throw reader.error("the document ends inside <\(name)>")
    }

    // MARK: Values

    private func value(for attribute: Attribute, base64: Bool, entity: String, line: Int) throws -> AttributeValue {
        if !base64, let value = text.withUnsafeBufferPointer({ XMLBytes.value($0, type: attribute.type) }),
           value.matches(attribute.type) {
            return value
        }
        return try Self.value(String(decoding: text, as: UTF8.self), base64: base64, for: attribute.description,
                              entity: entity) { reader.error($0, line: line) }
    }

    /// The value of `text` for `attribute`, by the general rules (any Unicode whitespace
    /// trimmed, base64 strings decoded): what the fast paths fall back to, and the source of
    /// every error message about a value.
    static func value(_ text: String, base64: Bool, for attribute: AttributeDescription, entity: String,
                      error: (String) -> StoreError) throws -> AttributeValue {
        func fail(_ reason: String) -> StoreError { error("'\(entity).\(attribute.name)': \(reason)") }
        var text = text
        if base64 {
            // String(validating:) keeps a leading U+FEFF, which String(data:encoding:) drops.
            guard let data = Data(base64Encoded: text), let decoded = String(validating: data, as: UTF8.self) else {
                throw fail("invalid base64 text")
            }
            text = decoded
        }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let value: AttributeValue?
        switch attribute.type {
        case .integer16, .integer32, .integer64: value = Int64(trimmed).map { .integer($0) }
        case .decimal: value = Decimal(string: trimmed, locale: XMLBytes.posix).map { .decimal($0) }
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
        guard let value, value.matches(attribute.type) else {
            throw fail("'\(trimmed.prefix(40))' is not a valid \(attribute.type.rawValue) value")
        }
        return value
    }

    // MARK: Assembling

    /// Resolves every reference, now that every id is known, and puts the snapshots and the
    /// next primary keys into `image`.
    func finish(into image: inout StoreImage) throws {
        image.objects.reserveCapacity(image.objects.count + pending.count)
        guard let placeholder = pending.first?.snapshot else { return finishKeys(into: &image) }
        for index in pending.indices {
            // Taken out (not copied), so that filling in its relationships copies nothing.
            var snapshot = placeholder
            swap(&snapshot, &pending[index].snapshot)
            for reference in references[pending[index].references] {
                let relationship = reference.relationship
                if relationship.isToMany {
                    var ids: [ManagedObjectID] = []
                    ids.reserveCapacity(reference.targets.count)
                    for target in reference.targets { ids.append(try resolve(targets[target], for: reference)) }
                    snapshot.toMany[relationship.name] = ids
                } else {
                    var first: ManagedObjectID?
                    for target in reference.targets {
                        let id = try resolve(targets[target], for: reference)
                        if first == nil { first = id }
                    }
                    guard let first else { continue }
                    guard reference.targets.count == 1 else {
                        throw reader.error("to-one '\(relationship.name)' has \(reference.targets.count) idrefs", line: reference.line)
                    }
                    snapshot.toOne[relationship.name] = first
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

    private func resolve(_ key: Int, for reference: PendingReference) throws -> ManagedObjectID {
        guard let index = indexByKey[key] else {
            throw reader.error("'\(reference.relationship.name)' refers to '\(text(ofKey: key))', which the store does not hold",
                               line: reference.line)
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
    private var spellings: [[UInt8]] = []
    private var values: [Value] = []
    private var next = 0
    static var limit: Int { 128 }

    mutating func find(_ bytes: UnsafePointer<UInt8>, count: Int) -> Value? {
        let total = spellings.count
        var index = next < total ? next : 0
        for _ in 0..<total {
            let match = spellings[index].withUnsafeBufferPointer { spelling in
                spelling.count == count && (count == 0 || memcmp(spelling.baseAddress!, bytes, count) == 0)
            }
            if match {
                next = index + 1
                return values[index]
            }
            index = index + 1 == total ? 0 : index + 1
        }
        return nil
    }

    mutating func add(_ bytes: UnsafePointer<UInt8>, count: Int, value: Value) {
        guard spellings.count < Self.limit else { return }
        spellings.append(Array(UnsafeBufferPointer(start: bytes, count: count)))
        values.append(value)
        next = spellings.count
    }
}
