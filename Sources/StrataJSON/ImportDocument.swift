import Collections
import Foundation
@_spi(StoreImplementation) import StrataCore

/// Reads a `strata-export` document into a `StoreImage` for a model, checking all of it first.
///
/// Every unknown entity or key, type mismatch, duplicate or dangling ref is reported with its
/// JSON path; the image is returned only when there is none. Refs of the form `<Entity>/p<N>`
/// keep their primary keys (and so their URIs); two such refs with one key under one
/// inheritance root (`Student/p3` and `Teacher/p3` under `Person`) are a problem, unless the
/// caller asks for renumbering, which gives the later ones new keys and reports each change.
/// Other refs get the keys left free, in document order. A relationship given on one side only
/// gets its inverse filled in.
public struct ImportDocument {
    private let model: ManagedObjectModel
    private let renumbering: Bool
    private var problems: [ImportProblem] = []
    private var renumbered: [ImportRenumbering] = []

    private init(model: ManagedObjectModel, renumbering: Bool) {
        self.model = model
        self.renumbering = renumbering
    }

    /// Reads `data` as a document for `model`; refs whose primary keys collide are a problem.
    ///
    /// - Throws: ``ImportError`` listing every problem (a JSON syntax error is one problem at `$`
    ///   with its line and column).
    @_spi(StoreImplementation) public static func read(_ data: Data, model: ManagedObjectModel) throws(ImportError) -> StoreImage {
        try read(data, model: model, renumbering: false).image
    }

    /// Reads `data` as a document for `model`. With `renumbering`, an object whose `<Entity>/p<N>`
    /// ref has a key an earlier object under the same inheritance root already has gets a new key
    /// (past every key in the document), and the result lists each such change; without, each
    /// collision is a problem naming both objects' JSON paths.
    ///
    /// - Throws: ``ImportError`` listing every problem.
    @_spi(StoreImplementation) public static func read(_ data: Data, model: ManagedObjectModel,
                            renumbering: Bool) throws(ImportError) -> (image: StoreImage, renumbered: [ImportRenumbering]) {
        let root: JSONValue
        do {
            root = try JSONParser.parse(data)
        } catch {
            throw ImportError(problems: [ImportProblem(path: "$", message: "not valid JSON: \(error)")])
        }
        var reader = ImportDocument(model: model, renumbering: renumbering)
        let image = reader.readDocument(root)
        guard let image, reader.problems.isEmpty else { throw ImportError(problems: reader.problems) }
        return (image, reader.renumbered)
    }

    private mutating func problem(_ path: String, _ message: String) {
        problems.append(ImportProblem(path: path, message: message))
    }

    /// One object's header, gathered in the first pass.
    private struct Entry {
        var index: Int
        var entity: EntityDescription
        var ref: String
        var members: OrderedDictionary<String, JSONValue>
    }

    private mutating func readDocument(_ root: JSONValue) -> StoreImage? {
        guard case .object(let document) = root else {
            problem("$", "expected an object, found \(root.kindDescription)")
            return nil
        }
        for key in document.keys where !["format", "version", "store", "objects"].contains(key) {
            problem("$.\(key)", "unknown member")
        }
        if document["format"] != .string(ExportDocument.formatName) {
            problem("$.format", "expected \"\(ExportDocument.formatName)\"")
        }
        if document["version"] != .integer(ExportDocument.version) {
            problem("$.version", "expected \(ExportDocument.version), the only version this reader knows")
        }
        let (identifier, metadata, givenNextKeys) = readStore(document["store"])
        guard case .array(let objects)? = document["objects"] else {
            problem("$.objects", "expected an array of objects")
            return nil
        }
        let entries = readHeaders(objects)
        let ids = assignIDs(entries, storeIdentifier: identifier)
        var snapshots: [ManagedObjectID: ObjectSnapshot] = [:]
        snapshots.reserveCapacity(entries.count)
        for entry in entries {
            guard let id = ids[entry.ref] else { continue }
            snapshots[id] = readObject(entry, id: id, ids: ids)
        }
        completeInverses(&snapshots, entries: entries, ids: ids)
        var nextPrimaryKeys = givenNextKeys
        for id in snapshots.keys {
            let root = model.entity(named: id.entityName)?.rootEntityName ?? id.entityName
            let key = id.primaryKey ?? 0
            nextPrimaryKeys[root] = max(nextPrimaryKeys[root] ?? 1, key == .max ? key : key + 1)
        }
        return StoreImage(identifier: identifier, metadata: metadata, objects: snapshots, nextPrimaryKeys: nextPrimaryKeys)
    }

    private mutating func readStore(_ store: JSONValue?) -> (String, [String: PropertyListValue], [String: Int64]) {
        var identifier = UUID().uuidString
        var metadata: [String: PropertyListValue] = [:]
        var nextKeys: [String: Int64] = [:]
        guard let store else { return (identifier, metadata, nextKeys) }
        guard case .object(let members) = store else {
            problem("$.store", "expected an object, found \(store.kindDescription)")
            return (identifier, metadata, nextKeys)
        }
        for key in members.keys where !["type", "uuid", "metadata", "nextPrimaryKeys"].contains(key) {
            problem("$.store.\(key)", "unknown member")
        }
        switch members["nextPrimaryKeys"] {
        case nil: break
        case .object(let keys)?:
            for (entity, json) in keys {
                guard let root = model.entity(named: entity), root.superentityName == nil else {
                    problem("$.store.nextPrimaryKeys.\(entity)", "not an inheritance root entity of the model")
                    continue
                }
                guard case .number(let text) = json, let key = Int64(text), key >= 1 else {
                    problem("$.store.nextPrimaryKeys.\(entity)", "expected a positive integer, found \(json.kindDescription)")
                    continue
                }
                nextKeys[entity] = key
            }
        case let other?: problem("$.store.nextPrimaryKeys", "expected an object, found \(other.kindDescription)")
        }
        switch members["uuid"] {
        case nil: break
        case .string(let uuid)? where UUID(uuidString: uuid) != nil: identifier = uuid
        case let other?: problem("$.store.uuid", "expected a UUID string, found \(other.kindDescription)")
        }
        if let json = members["metadata"] {
            do {
                guard case .dictionary(let dictionary) = try PropertyListJSON.decode(json) else {
                    problem("$.store.metadata", "expected an object")
                    return (identifier, metadata, nextKeys)
                }
                metadata = dictionary
            } catch {
                problem("$.store.metadata", error.message)
            }
        }
        return (identifier, metadata, nextKeys)
    }

    private mutating func readHeaders(_ objects: [JSONValue]) -> [Entry] {
        var entries: [Entry] = []
        var seen: [String: Int] = [:]
        for (index, object) in objects.enumerated() {
            let path = "$.objects[\(index)]"
            guard case .object(let members) = object else {
                problem(path, "expected an object, found \(object.kindDescription)")
                continue
            }
            for key in members.keys where !["entity", "ref", "attributes", "relationships"].contains(key) {
                problem("\(path).\(key)", "unknown member")
            }
            guard case .string(let name)? = members["entity"] else {
                problem("\(path).entity", "expected an entity name")
                continue
            }
            guard let entity = model.entity(named: name) else {
                problem("\(path).entity", "unknown entity '\(name)'")
                continue
            }
            if entity.isAbstract { problem("\(path).entity", "entity '\(name)' is abstract and has no objects of its own") }
            guard case .string(let ref)? = members["ref"], !ref.isEmpty else {
                problem("\(path).ref", "expected a non-empty string")
                continue
            }
            if let first = seen[ref] {
                problem("\(path).ref", "'\(ref)' is already the ref of $.objects[\(first)]")
                continue
            }
            seen[ref] = index
            entries.append(Entry(index: index, entity: entity, ref: ref, members: members))
        }
        return entries
    }

    /// The key a ref of the form `<its entity>/p<N>` names; nil for a ref of another form.
    private static func statedKey(_ entry: Entry) -> Int64? {
        let prefix = "\(entry.entity.name)/p"
        guard entry.ref.hasPrefix(prefix), let key = Int64(entry.ref.dropFirst(prefix.count)), key > 0, key < Int64.max,
              String(key) == entry.ref.dropFirst(prefix.count) else { return nil }
        return key
    }

    /// Keeps the key of every `<Entity>/p<N>` ref; a key already taken under the same
    /// inheritance root is a problem, or, when renumbering, gets the next key past every key
    /// the document states. Other refs get the lowest keys left free, in document order.
    private mutating func assignIDs(_ entries: [Entry], storeIdentifier: String) -> [String: ManagedObjectID] {
        var keys: [String: Int64] = [:]
        var owners: [String: [Int64: Entry]] = [:]   // root → key → the entry that has it
        var colliding: [Entry] = []
        for entry in entries {
            guard let key = Self.statedKey(entry) else { continue }
            let root = entry.entity.rootEntityName
            if let owner = owners[root]?[key] {
                colliding.append(entry)
                if !renumbering {
                    problem("$.objects[\(entry.index)].ref",
                            "'\(entry.ref)' has primary key \(key) under '\(root)', as '\(owner.ref)' at $.objects[\(owner.index)].ref"
                                + " has: keeping both would change an object's URI (renumbering, --renumber, gives it a new key)")
                }
                continue
            }
            owners[root, default: [:]][key] = entry
            keys[entry.ref] = key
        }
        var past: [String: Int64] = [:]
        for (root, taken) in owners { past[root] = (taken.keys.max() ?? 0) + 1 }
        for entry in colliding where renumbering {
            let root = entry.entity.rootEntityName
            let key = past[root, default: 1]
            past[root] = key + 1
            keys[entry.ref] = key
            owners[root, default: [:]][key] = entry
            renumbered.append(ImportRenumbering(path: "$.objects[\(entry.index)].ref", ref: entry.ref,
                                                newRef: "\(entry.entity.name)/p\(key)"))
        }
        var next: [String: Int64] = [:]
        var ids: [String: ManagedObjectID] = [:]
        for entry in entries {
            let key: Int64
            if let kept = keys[entry.ref] {
                key = kept
            } else {
                let root = entry.entity.rootEntityName
                var free = next[root, default: 1]
                while owners[root]?[free] != nil { free += 1 }
                key = free
                next[root] = free + 1
            }
            ids[entry.ref] = ManagedObjectID(entityName: entry.entity.name, storeIdentifier: storeIdentifier, primaryKey: key)
        }
        return ids
    }

    private mutating func readObject(_ entry: Entry, id: ManagedObjectID, ids: [String: ManagedObjectID]) -> ObjectSnapshot {
        let path = "$.objects[\(entry.index)]"
        var snapshot = ObjectSnapshot(objectID: id, attributes: AttributeValues(layout: entry.entity.attributeLayout))
        let attributes = members(of: entry.members["attributes"], at: "\(path).attributes")
        for attribute in entry.entity.attributes where !attribute.isTransient && attributes[attribute.name] == nil {
            if let value = attribute.defaultValue { snapshot.attributes[attribute.name] = value }
        }
        for (key, json) in attributes {
            guard let attribute = entry.entity.attribute(named: key), !attribute.isTransient else {
                problem("\(path).attributes.\(key)", "entity '\(entry.entity.name)' has no stored attribute '\(key)'")
                continue
            }
            do {
                if let value = try AttributeJSON.decode(json, as: attribute) { snapshot.attributes[key] = value }
            } catch {
                problem("\(path).attributes.\(key)", error.message)
            }
        }
        for relationship in entry.entity.relationships where relationship.isToMany && !relationship.isTransient {
            snapshot.toMany[relationship.name] = []
        }
        for (key, json) in members(of: entry.members["relationships"], at: "\(path).relationships") {
            let keyPath = "\(path).relationships.\(key)"
            guard let relationship = entry.entity.relationship(named: key), !relationship.isTransient else {
                problem(keyPath, "entity '\(entry.entity.name)' has no stored relationship '\(key)'")
                continue
            }
            if relationship.isToMany {
                guard case .array(let refs) = json else {
                    problem(keyPath, "expected an array of refs for to-many relationship '\(key)', found \(json.kindDescription)")
                    continue
                }
                var destinations: [ManagedObjectID] = []
                var unique: Set<ManagedObjectID> = []
                for (position, ref) in refs.enumerated() {
                    guard let destination = resolve(ref, relationship, ids, at: "\(keyPath)[\(position)]") else { continue }
                    if unique.insert(destination).inserted {
                        destinations.append(destination)
                    } else {
                        problem("\(keyPath)[\(position)]", "'\(ExportDocument.ref(destination))' appears twice")
                    }
                }
                snapshot.toMany[key] = destinations
            } else if json != .null, let destination = resolve(json, relationship, ids, at: keyPath) {
                snapshot.toOne[key] = destination
            }
        }
        return snapshot
    }

    private mutating func members(of json: JSONValue?, at path: String) -> OrderedDictionary<String, JSONValue> {
        switch json {
        case nil: return [:]
        case .object(let members)?: return members
        case let other?:
            problem(path, "expected an object, found \(other.kindDescription)")
            return [:]
        }
    }

    private mutating func resolve(_ json: JSONValue, _ relationship: RelationshipDescription,
                                  _ ids: [String: ManagedObjectID], at path: String) -> ManagedObjectID? {
        guard case .string(let ref) = json else {
            problem(path, "expected a ref string, found \(json.kindDescription)")
            return nil
        }
        guard let id = ids[ref] else {
            problem(path, "no object has the ref '\(ref)'")
            return nil
        }
        guard model.entity(id.entityName, isKindOf: relationship.destinationEntityName) else {
            problem(path, "'\(ref)' is a \(id.entityName), not a \(relationship.destinationEntityName)")
            return nil
        }
        return id
    }

    /// Gives every relationship with an inverse its other side, so a document may state a link once.
    private mutating func completeInverses(_ snapshots: inout [ManagedObjectID: ObjectSnapshot], entries: [Entry],
                                           ids: [String: ManagedObjectID]) {
        var present: [ManagedObjectID: [String: Set<ManagedObjectID>]] = [:]
        for (id, snapshot) in snapshots {
            for (name, destinations) in snapshot.toMany where !destinations.isEmpty { present[id, default: [:]][name] = Set(destinations) }
        }
        for entry in entries {
            guard let source = ids[entry.ref], let snapshot = snapshots[source] else { continue }
            for relationship in entry.entity.relationships where !relationship.isTransient {
                guard let inverseName = relationship.inverseName,
                      let inverse = model.entity(named: relationship.destinationEntityName)?.relationship(named: inverseName) else { continue }
                let destinations = relationship.isToMany ? snapshot.toMany[relationship.name] ?? [] : snapshot.toOne[relationship.name].map { [$0] } ?? []
                for destination in destinations {
                    guard var other = snapshots[destination] else { continue }
                    if inverse.isToMany {
                        guard present[destination, default: [:]][inverseName, default: []].insert(source).inserted else { continue }
                        other.toMany[inverseName, default: []].append(source)
                    } else if let current = other.toOne[inverseName] {
                        if current != source {
                            problem("$.objects[\(entry.index)].relationships.\(relationship.name)",
                                    "links to '\(ExportDocument.ref(destination))', whose '\(inverseName)' is '\(ExportDocument.ref(current))'")
                        }
                        continue
                    } else {
                        other.toOne[inverseName] = source
                    }
                    snapshots[destination] = other
                }
            }
        }
    }
}

/// One object an import gave a new primary key because its ref's key was taken: its old ref
/// and the ref that now names it (the key of its URI).
public struct ImportRenumbering: Sendable, Hashable, CustomStringConvertible {
    /// The JSON path of the ref (`$.objects[3].ref`).
    public var path: String
    /// The ref as the document gave it (`Teacher/p3`).
    public var ref: String
    /// The ref of the key it was given (`Teacher/p13`).
    public var newRef: String

    /// Creates a record.
    public init(path: String, ref: String, newRef: String) {
        self.path = path
        self.ref = ref
        self.newRef = newRef
    }

    /// `Teacher/p3 -> Teacher/p13`.
    public var description: String { "\(ref) -> \(newRef)" }
}
