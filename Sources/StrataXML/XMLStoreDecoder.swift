import Foundation
import StrataCore

/// Reads an XML store document into a ``StoreImage``, checking it against the model.
struct XMLStoreDecoder {
    let reader: XMLStreamReader
    let model: ManagedObjectModel

    private struct PendingObject {
        var snapshot: ObjectSnapshot
        var references: [(key: String, destination: String, toMany: Bool, idrefs: [String], line: Int)]
        var line: Int
    }

    func decode(objects readObjects: Bool) throws -> StoreImage {
        guard try advanceToElement(), reader.name == "database", reader.depth == 0 else {
            throw reader.error("the root element is not <database>")
        }
        var image = StoreImage(identifier: "")
        var sawInfo = false
        var pending: [PendingObject] = []
        var byXMLID: [String: ManagedObjectID] = [:]
        var seen = Set<ManagedObjectID>()
        var keysByRoot: [String: Set<Int64>] = [:]
        while try reader.next() {
            if reader.isEndElement, reader.depth == 0 { break }
            guard reader.isStartElement, reader.depth == 1 else { continue }
            switch reader.name {
            case "databaseInfo":
                try readInfo(reader.readElement(), into: &image, primaryKeys: readObjects)
                sawInfo = true
                if !readObjects { return image }
            case "object":
                guard sawInfo else { throw reader.error("<object> before <databaseInfo>") }
                let node = try reader.readElement(maximumDepth: 2)
                let object = try readObject(node, storeIdentifier: image.identifier)
                guard let xmlID = node.attributes["id"], byXMLID[xmlID] == nil else {
                    throw reader.error("missing or duplicate object id '\(node.attributes["id"] ?? "")'", line: node.line)
                }
                guard seen.insert(object.snapshot.objectID).inserted else {
                    throw reader.error("duplicate object \(object.snapshot.objectID)", line: node.line)
                }
                // Keys are numbered per inheritance root: Book/p3 and Magazine/p3 cannot both exist.
                let root = model.entitiesByName[object.snapshot.objectID.entityName]?.rootEntityName ?? object.snapshot.objectID.entityName
                guard keysByRoot[root, default: []].insert(object.snapshot.objectID.primaryKey ?? 0).inserted else {
                    throw reader.error("primary key \(object.snapshot.objectID.primaryKey ?? 0) is used twice under '\(root)'",
                                       line: node.line)
                }
                byXMLID[xmlID] = object.snapshot.objectID
                pending.append(object)
            default:
                throw reader.error("unexpected element <\(reader.name)> in <database>")
            }
        }
        guard sawInfo else { throw reader.error("no <databaseInfo>") }
        for var object in pending {
            for reference in object.references {
                let ids = try reference.idrefs.map { ref -> ManagedObjectID in
                    guard let id = byXMLID[ref] else {
                        throw reader.error("'\(reference.key)' refers to '\(ref)', which the store does not hold", line: reference.line)
                    }
                    guard model.entity(id.entityName, isKindOf: reference.destination) else {
                        throw reader.error("'\(reference.key)' refers to '\(ref)', an object of entity '\(id.entityName)'",
                                           line: reference.line)
                    }
                    return id
                }
                if reference.toMany {
                    object.snapshot.toMany[reference.key] = ids
                } else if let first = ids.first {
                    guard ids.count == 1 else { throw reader.error("to-one '\(reference.key)' has \(ids.count) idrefs", line: reference.line) }
                    object.snapshot.toOne[reference.key] = first
                }
            }
            image.objects[object.snapshot.objectID] = object.snapshot
            let root = model.entitiesByName[object.snapshot.objectID.entityName]?.rootEntityName ?? object.snapshot.objectID.entityName
            let pk = object.snapshot.objectID.primaryKey ?? 0
            image.nextPrimaryKeys[root] = max(image.nextPrimaryKeys[root] ?? 1, pk == .max ? pk : pk + 1)
        }
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
            guard let name = entry.attributes["entity"], let entity = lookupEntity(name),
                  let next = Int64(entry.text.trimmingCharacters(in: .whitespaces)), next > 0 else {
                throw reader.error("invalid <nextPrimaryKey>", line: entry.line)
            }
            image.nextPrimaryKeys[entity.rootEntityName] = next
        }
    }

    private func readObject(_ node: XMLElementNode, storeIdentifier: String) throws -> PendingObject {
        func fail(_ reason: String, _ line: Int? = nil) -> StoreError { reader.error(reason, line: line ?? node.line) }
        guard let typeName = node.attributes["type"], let entity = lookupEntity(typeName) else {
            throw fail("unknown entity '\(node.attributes["type"] ?? "")'")
        }
        guard !entity.isAbstract else { throw fail("object of abstract entity '\(entity.name)'") }
        let pkText = node.attributes["pk"] ?? node.attributes["id"].map { String($0.drop(while: { !$0.isNumber })) } ?? ""
        guard let pk = Int64(pkText), pk > 0 else { throw fail("invalid primary key '\(pkText)'") }
        var version: Int64 = 1
        if let text = node.attributes["version"] {
            guard let parsed = Int64(text) else { throw fail("invalid version '\(text)'") }
            version = parsed
        }
        let id = ManagedObjectID(entityName: entity.name, storeIdentifier: storeIdentifier, primaryKey: pk)
        var object = PendingObject(snapshot: ObjectSnapshot(objectID: id, version: version), references: [], line: node.line)
        for child in node.children {
            guard let name = child.attributes["name"], let property = lookupProperty(name, in: entity) else {
                throw fail("entity '\(entity.name)' has no property '\(child.attributes["name"] ?? "")'", child.line)
            }
            switch (child.name, property) {
            case ("attribute", .attribute(let attribute)):
                object.snapshot.attributes[attribute.name] = try value(child, for: attribute, entity: entity.name)
            case ("relationship", .relationship(let relationship)):
                let refs = child.attributes["idrefs"]?.split(separator: " ").map(String.init) ?? []
                object.references.append((relationship.name, relationship.destinationEntityName, relationship.isToMany, refs, child.line))
            default:
                throw fail("<\(child.name) name=\"\(name)\"> does not match the model's property", child.line)
            }
        }
        return object
    }

    private func value(_ node: XMLElementNode, for attribute: AttributeDescription, entity: String) throws -> AttributeValue {
        func fail(_ reason: String) -> StoreError { reader.error("'\(entity).\(attribute.name)': \(reason)", line: node.line) }
        var text = node.text
        if node.attributes["encoding"] == "base64" {
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
        case .decimal: value = Decimal(string: trimmed, locale: Locale(identifier: "en_US_POSIX")).map { .decimal($0) }
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

    private func lookupEntity(_ name: String) -> EntityDescription? {
        model.entitiesByName[name] ?? model.entities.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }
    }

    private func lookupProperty(_ name: String, in entity: EntityDescription) -> PropertyDescription? {
        entity.propertiesByName[name] ?? entity.properties.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }
    }
}
