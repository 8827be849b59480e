import Foundation

/// A store that holds its whole object graph in memory and writes it whole on every save:
/// the base of the in-memory, XML and binary stores.
///
/// A file format plugs in through ``AtomicStoreFormat``; without one the store is purely in
/// memory. A save is checked (merge conflicts, duplicate and missing objects) and written before
/// the in-memory image changes, so a failed save leaves the store as it was.
@_spi(StoreImplementation)
public final class AtomicStore: PersistentStore {
    public let type: StoreType
    public let url: URL?
    public let configurationName: String?
    public let model: ManagedObjectModel
    private let format: (any AtomicStoreFormat)?
    private let image: LockedValue<StoreImage>
    /// Whether the store was opened with ``StoreOption/readOnly``.
    public let isReadOnly: Bool
    /// What records each save's history; nil without ``StoreOption/persistentHistoryTracking``.
    let historyRecorder: PersistentHistoryRecorder?

    /// Opens the store at `description.url` with `format`, or creates it (writing an empty file)
    /// when the file does not exist.
    ///
    /// - Throws: what the format throws for a damaged file, or
    ///   ``StoreError/incompatibleModel(file:entities:)`` when the file's version hashes differ.
    public init(description: StoreDescription, format: (any AtomicStoreFormat)?) throws {
        self.type = description.type
        self.url = description.url
        self.configurationName = description.configurationName
        self.model = description.model
        self.format = format
        self.isReadOnly = description.isReadOnly
        self.historyRecorder = description.tracksPersistentHistory
            ? PersistentHistoryRecorder(model: description.model, recordsValues: description.recordsPersistentHistoryValues) : nil
        var loaded: StoreImage
        if let format, let url = description.url, FileManager.default.fileExists(atPath: url.path) {
            loaded = try format.read(from: url, model: description.model)
            try description.checkCompatibility(withStoreMetadata: loaded.metadata, file: url.path)
            try loaded.takeHistoryFromMetadata(file: url.path)
        } else if description.isReadOnly, format != nil, let url = description.url {
            throw StoreError.io(file: url.path, operation: "open", reason: "no such file (a store opened read-only is not created)")
        } else {
            loaded = StoreImage.empty(type: description.type, model: description.model)
            if let format, let url = description.url { try format.write(loaded, to: url, model: description.model) }
        }
        loaded.stampMetadata(type: description.type, model: description.model)
        self.image = LockedValue(loaded)
    }

    /// A copy of everything the store holds.
    public var currentImage: StoreImage { image.withLock { $0 } }

    public var identifier: String { image.withLock { $0.identifier } }

    public var metadata: [String: PropertyListValue] { image.withLock { $0.metadata } }

    public func setMetadata(_ metadata: [String: PropertyListValue]) throws {
        try refuseWritingIfReadOnly()
        image.withLock { image in
            image.metadata = metadata
            image.stampMetadata(type: type, model: model)
        }
    }

    public func fetch(_ request: StoreFetchRequest) throws -> [ObjectSnapshot] {
        let objects = image.withLock { $0.objects }
        return try SnapshotQuery.apply(request, to: Array(objects.values), source: objects, model: model)
    }

    public func snapshot(for objectID: ManagedObjectID) throws -> ObjectSnapshot? {
        image.withLock { $0.objects[objectID] }
    }

    public func relatedObjectIDs(of objectID: ManagedObjectID, relationship: String) throws -> [ManagedObjectID] {
        image.withLock { $0.objects[objectID]?.toMany[relationship] ?? [] }
    }

    public func allocatePrimaryKeys(rootEntity: String, count: Int) throws -> [Int64] {
        try refuseWritingIfReadOnly()
        return try image.withLock { image in
            let first = image.nextPrimaryKeys[rootEntity] ?? 1
            // A damaged or hostile file can record a next key near Int64.max: refuse, never trap.
            let (next, overflow) = first.addingReportingOverflow(Int64(count))
            guard !overflow else {
                throw StoreError.corruptStore(file: url?.path ?? "", offset: nil,
                                              reason: "no primary keys left for entity '\(rootEntity)' (next key \(first))")
            }
            image.nextPrimaryKeys[rootEntity] = next
            return (0..<Int64(count)).map { first + $0 }
        }
    }

    public func save(_ request: StoreSaveRequest) throws {
        try refuseWritingIfReadOnly()
        try image.withLock { image in
            var next = image
            if let historyRecorder {
                next.history.record(request, storeIdentifier: next.identifier, recorder: historyRecorder) { image.objects[$0] }
            }
            try apply(request, to: &next)
            next.danglingReferences = []   // the file written holds only the objects' own references
            if let format, let url { try format.write(next.withHistoryInMetadata(), to: url, model: model) }
            image = next
        }
    }

    public func contentsImage() throws -> StoreImage { currentImage }

    public func replaceContents(with replacement: StoreImage) throws {
        try refuseWritingIfReadOnly()
        var next = replacement
        next.stampMetadata(type: type, model: model)
        next.danglingReferences = []
        next.history = next.history.reassigned(to: next.identifier)
        try image.withLock { image in
            if let format, let url { try format.write(next.withHistoryInMetadata(), to: url, model: model) }
            image = next
        }
    }

    /// Runs `body` on the image under the store's lock.
    func withImage<T: Sendable>(_ body: (inout sending StoreImage) throws -> sending T) throws -> sending T { try image.withLock(body) }

    /// Writes `next` to the store's file, when it has one (its history in the metadata).
    func write(_ next: StoreImage) throws {
        if let format, let url { try format.write(next.withHistoryInMetadata(), to: url, model: model) }
    }

    /// Throws ``StoreError/readOnlyStore(file:)`` when the store was opened read-only.
    private func refuseWritingIfReadOnly() throws {
        guard !isReadOnly else { throw StoreError.readOnlyStore(file: url?.path ?? "") }
    }

    /// Applies a save to an image, or throws and leaves it unchanged.
    private func apply(_ request: StoreSaveRequest, to image: inout StoreImage) throws {
        var conflicts: [MergeConflict] = []
        for snapshot in request.updated {
            let current = image.objects[snapshot.objectID]
            if current?.version != snapshot.version {
                conflicts.append(MergeConflict(objectID: snapshot.objectID, oldVersion: snapshot.version,
                                               newVersion: current?.version ?? 0, persistedSnapshot: current))
            }
        }
        for deletion in request.deleted {
            let current = image.objects[deletion.objectID]
            if current?.version != deletion.version {
                conflicts.append(MergeConflict(objectID: deletion.objectID, oldVersion: deletion.version,
                                               newVersion: current?.version ?? 0, persistedSnapshot: current))
            }
        }
        guard conflicts.isEmpty else { throw StoreError.mergeConflict(conflicts) }
        for snapshot in request.inserted {
            guard image.objects[snapshot.objectID] == nil else { throw StoreError.duplicateObject(snapshot.objectID) }
            image.objects[snapshot.objectID] = snapshot
            if let pk = snapshot.objectID.primaryKey {
                let root = model.entitiesByName[snapshot.objectID.entityName]?.rootEntityName ?? snapshot.objectID.entityName
                image.nextPrimaryKeys[root] = max(image.nextPrimaryKeys[root] ?? 1, pk == .max ? pk : pk + 1)
            }
        }
        for snapshot in request.updated {
            guard let current = image.objects[snapshot.objectID] else { throw StoreError.missingObject(snapshot.objectID) }
            var merged = snapshot
            merged.version = current.version &+ 1   // versions are only compared for equality; a file's Int64.max must not trap
            merged.toMany = current.toMany.merging(snapshot.toMany) { _, new in new }
            image.objects[snapshot.objectID] = merged
        }
        for deletion in request.deleted {
            image.objects[deletion.objectID] = nil
        }
        DerivedValues.update(&image.objects, after: request, model: model)
        try checkUniqueness(of: request.inserted + request.updated, in: image)
    }

    /// Refuses a save that leaves two objects with the same values of a uniqueness constraint
    /// (as SQLite's unique indexes do: a constraint with a nil value is not checked).
    ///
    /// Only saves that touch constrained entities pay for it, one pass over the image per
    /// constraint involved.
    private func checkUniqueness(of changed: [ObjectSnapshot], in image: StoreImage) throws {
        var indexes: [String: [[AttributeValue]: [ManagedObjectID]]] = [:]
        var conflicts: [ConstraintConflict] = []
        func values(_ constraint: [String], of snapshot: ObjectSnapshot) -> [AttributeValue]? {
            var result: [AttributeValue] = []
            for property in constraint {
                if let value = snapshot.attributes[property] {
                    result.append(value)
                } else if let destination = snapshot.toOne[property] {
                    result.append(.objectID(destination))
                } else {
                    return nil
                }
            }
            return result
        }
        for snapshot in changed {
            var entity = model.entity(named: snapshot.objectID.entityName)
            while let current = entity {
                for constraint in current.uniquenessConstraints {
                    guard let mine = values(constraint, of: snapshot) else { continue }
                    let key = current.name + "\u{0}" + constraint.joined(separator: "\u{0}")
                    if indexes[key] == nil {
                        var index: [[AttributeValue]: [ManagedObjectID]] = [:]
                        for object in image.objects.values where model.entity(object.objectID.entityName, isKindOf: current.name) {
                            if let found = values(constraint, of: object) { index[found, default: []].append(object.objectID) }
                        }
                        indexes[key] = index
                    }
                    let holders = (indexes[key]?[mine] ?? []).filter { $0 != snapshot.objectID }
                    if let holder = holders.min(by: ManagedObjectID.storeOrder) {
                        conflicts.append(ConstraintConflict(entityName: current.name, properties: constraint,
                                                            objectID: snapshot.objectID, databaseObjectID: holder))
                    }
                }
                entity = current.superentityName.flatMap { model.entity(named: $0) }
            }
        }
        guard conflicts.isEmpty else { throw StoreError.constraintConflict(conflicts) }
    }
}

@_spi(StoreImplementation)
extension AtomicStore: IntegrityCheckingStore {
    /// The references the file held to objects it does not hold, as its reader found them
    /// (none once a save has written the file anew).
    public func danglingReferences() throws -> [DanglingReference] {
        image.withLock { $0.danglingReferences }
    }

    /// The dangling references and the broken inverses of the objects held. The file's own
    /// checks (checksums, well-formedness) ran when it was read: a file that fails them does
    /// not open.
    public func integrityProblems() throws -> [IntegrityProblem] {
        let (objects, dangling) = image.withLock { ($0.objects, $0.danglingReferences) }
        let check = ObjectGraphCheck(model: model, file: url?.path ?? "")
        return dangling.map { IntegrityProblem.dangling($0, file: check.file) } + check.brokenInverses(in: objects)
    }
}

/// The in-memory store: an ``AtomicStore`` with no file. The test double for your own tests.
@_spi(StoreImplementation)
public enum InMemoryStore {
    /// Makes an in-memory store.
    public static func make(_ description: StoreDescription) throws -> AtomicStore {
        try AtomicStore(description: description, format: nil)
    }
}
