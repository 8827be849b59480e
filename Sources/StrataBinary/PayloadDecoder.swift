import Foundation
@_spi(StoreImplementation) import StrataCore

/// Decodes the object payload of a binary store and checks it against the model: known
/// entities and keys, values of the right type, unique IDs. A reference to an object the file
/// does not hold is left out of its snapshot and recorded in the image's dangling references.
struct PayloadDecoder {
    let model: ManagedObjectModel
    let storeIdentifier: String

    func decode(_ reader: inout ByteReader, into image: inout StoreImage) throws {
        let stringCount = try reader.count()
        var strings: [String] = []
        strings.reserveCapacity(stringCount)
        for _ in 0..<stringCount { strings.append(try reader.string()) }
        func string(_ reader: inout ByteReader) throws -> String {
            let start = reader.offset
            let index = try reader.varint()
            guard index < UInt64(strings.count) else { throw reader.corrupt("string index \(index) out of range", at: start) }
            return strings[Int(index)]
        }
        func entity(_ reader: inout ByteReader) throws -> EntityDescription {
            let start = reader.offset
            let name = try string(&reader)
            guard let entity = model.entitiesByName[name] else { throw reader.corrupt("unknown entity '\(name)'", at: start) }
            return entity
        }
        func primaryKey(_ reader: inout ByteReader) throws -> Int64 {
            let start = reader.offset
            let raw = try reader.varint()
            guard raw > 0, raw <= UInt64(Int64.max) else { throw reader.corrupt("invalid primary key \(raw)", at: start) }
            return Int64(raw)
        }

        let rootCount = try reader.count(minimumItemSize: 2)
        for _ in 0..<rootCount {
            let root = try string(&reader)
            image.nextPrimaryKeys[root] = try primaryKey(&reader)
        }

        let objectCount = try reader.count(minimumItemSize: 6)
        var references: [(source: ManagedObjectID, relationship: String, destination: ManagedObjectID)] = []
        var keysByRoot: [String: Set<Int64>] = [:]
        for _ in 0..<objectCount {
            let objectStart = reader.offset
            let objectEntity = try entity(&reader)
            guard !objectEntity.isAbstract else {
                throw reader.corrupt("object of abstract entity '\(objectEntity.name)'", at: objectStart)
            }
            let id = ManagedObjectID(entityName: objectEntity.name, storeIdentifier: storeIdentifier,
                                     primaryKey: try primaryKey(&reader))
            var snapshot = ObjectSnapshot(objectID: id, version: Int64(bitPattern: try reader.varint()),
                                          attributes: AttributeValues(layout: objectEntity.attributeLayout))
            for _ in 0..<(try reader.count(minimumItemSize: 2)) {
                let keyStart = reader.offset
                let key = try string(&reader)
                guard let attribute = objectEntity.attribute(named: key) else {
                    throw reader.corrupt("entity '\(objectEntity.name)' has no attribute '\(key)'", at: keyStart)
                }
                let value = try reader.value()
                guard value.matches(attribute.type) else {
                    throw StoreError.invalidStoredValue(StoredValueProblem(
                        file: reader.file, position: "at offset \(reader.base + keyStart)", entityName: objectEntity.name,
                        object: id.uriRepresentation.absoluteString, attribute: key, type: attribute.type,
                        found: value.storedValueDescription))
                }
                snapshot.attributes[key] = value
            }
            for _ in 0..<(try reader.count(minimumItemSize: 3)) {
                let keyStart = reader.offset
                let key = try string(&reader)
                guard let relationship = objectEntity.relationship(named: key), !relationship.isToMany else {
                    throw reader.corrupt("entity '\(objectEntity.name)' has no to-one '\(key)'", at: keyStart)
                }
                let destination = try reference(&reader, entity: entity, primaryKey: primaryKey, relationship: relationship)
                snapshot.toOne[key] = destination
                references.append((id, key, destination))
            }
            for _ in 0..<(try reader.count(minimumItemSize: 2)) {
                let keyStart = reader.offset
                let key = try string(&reader)
                guard let relationship = objectEntity.relationship(named: key), relationship.isToMany else {
                    throw reader.corrupt("entity '\(objectEntity.name)' has no to-many '\(key)'", at: keyStart)
                }
                var destinations: [ManagedObjectID] = []
                for _ in 0..<(try reader.count(minimumItemSize: 2)) {
                    let destination = try reference(&reader, entity: entity, primaryKey: primaryKey, relationship: relationship)
                    destinations.append(destination)
                    references.append((id, key, destination))
                }
                snapshot.toMany[key] = destinations
            }
            guard image.objects[id] == nil else { throw reader.corrupt("duplicate object \(id)", at: objectStart) }
            // Keys are numbered per inheritance root: Book/p3 and Magazine/p3 cannot both exist.
            guard keysByRoot[objectEntity.rootEntityName, default: []].insert(id.primaryKey ?? 0).inserted else {
                throw reader.corrupt("primary key \(id.primaryKey ?? 0) is used twice under '\(objectEntity.rootEntityName)'",
                                     at: objectStart)
            }
            image.objects[id] = snapshot
        }
        guard reader.isAtEnd else { throw reader.corrupt("\(reader.remaining) unexpected bytes after the last object") }
        // Reading keeps going past a reference to a missing object: the relationship reads as if
        // it were not there, and the reference is reported (`IntegrityCheckingStore`).
        for reference in references where image.objects[reference.destination] == nil {
            image.danglingReferences.append(DanglingReference(
                source: reference.source, relationship: reference.relationship,
                destinationEntityName: reference.destination.entityName, destinationPrimaryKey: reference.destination.primaryKey))
            guard var snapshot = image.objects[reference.source] else { continue }
            if snapshot.toOne[reference.relationship] == reference.destination {
                snapshot.toOne[reference.relationship] = nil
            } else {
                snapshot.toMany[reference.relationship]?.removeAll { $0 == reference.destination }
            }
            image.objects[reference.source] = snapshot
        }
    }

    private func reference(
        _ reader: inout ByteReader,
        entity: (inout ByteReader) throws -> EntityDescription,
        primaryKey: (inout ByteReader) throws -> Int64,
        relationship: RelationshipDescription
    ) throws -> ManagedObjectID {
        let start = reader.offset
        let destination = try entity(&reader)
        guard model.entity(destination.name, isKindOf: relationship.destinationEntityName) else {
            throw reader.corrupt("'\(relationship.name)' points at an object of entity '\(destination.name)'", at: start)
        }
        return ManagedObjectID(entityName: destination.name, storeIdentifier: storeIdentifier, primaryKey: try primaryKey(&reader))
    }
}
