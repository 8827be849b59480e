import StrataCore

/// Which destination objects each source object became, for one entity mapping: kept as
/// primary keys, not objects, so that a million associations take a few tens of megabytes and
/// the contexts can be emptied after every batch.
///
/// Objects inserted since the last save have no primary key yet: they are held as objects in
/// ``pending`` until ``commitPending()`` turns them into keys after the save.
struct AssociationTable {
    /// The mapping's source entity: sources of it are keyed by primary key alone.
    let sourceEntity: String?
    /// The mapping's destination entity: destinations of it are stored as primary keys alone.
    let destinationEntity: String?
    /// Source primary key → destination primary key: the one association of a source object
    /// of ``sourceEntity`` with an object of ``destinationEntity``.
    private(set) var forward: [Int64: Int64] = [:]
    /// Every other association: more than one destination, or objects of other entities.
    private(set) var extra: [ManagedObjectID: [ManagedObjectID]] = [:]
    /// Associations made since the last save, with their live destination objects.
    private(set) var pending: [(source: ManagedObjectID, destination: ManagedObject)] = []
    /// The positions in ``pending`` of each source's associations.
    private var pendingBySource: [ManagedObjectID: [Int]] = [:]
    /// Destination primary key → source primary key, built on first need.
    private var reverse: [Int64: Int64]?
    /// Destination → sources of ``extra``, built on first need.
    private var reverseExtra: [ManagedObjectID: [ManagedObjectID]]?

    init(sourceEntity: String?, destinationEntity: String?) {
        self.sourceEntity = sourceEntity
        self.destinationEntity = destinationEntity
    }

    /// The number of associations saved.
    var count: Int { forward.count + extra.values.reduce(0) { $0 + $1.count } }

    /// Records that `source` became `destination`.
    mutating func associate(_ source: ManagedObjectID, with destination: ManagedObject) {
        pendingBySource[source, default: []].append(pending.count)
        pending.append((source, destination))
    }

    /// Turns the pending associations into keys: their destinations were just saved, so their IDs
    /// are permanent. Associations whose destination is still temporary (an object the save did not
    /// write) stay pending.
    mutating func commitPending() {
        guard !pending.isEmpty else { return }
        var kept: [(source: ManagedObjectID, destination: ManagedObject)] = []
        for (source, object) in pending {
            let destination = object.objectID
            guard !destination.isTemporaryID else { kept.append((source, object)); continue }
            add(source, destination)
        }
        pending = []
        pendingBySource = [:]
        for (source, object) in kept { associate(source, with: object) }
        reverse = nil
        reverseExtra = nil
    }

    private mutating func add(_ source: ManagedObjectID, _ destination: ManagedObjectID) {
        if source.entityName == sourceEntity, destination.entityName == destinationEntity,
           let sourceKey = source.primaryKey, let destinationKey = destination.primaryKey,
           forward[sourceKey] == nil, extra[source] == nil {
            forward[sourceKey] = destinationKey
        } else {
            extra[source, default: []].append(destination)
        }
    }

    /// The live destination objects associated since the last save with `source`.
    func pendingDestinations(of source: ManagedObjectID) -> [ManagedObject] {
        (pendingBySource[source] ?? []).map { pending[$0].destination }
    }

    /// The saved destinations of `source`, as IDs in `store`.
    func savedDestinations(of source: ManagedObjectID, store: String) -> [ManagedObjectID] {
        var result: [ManagedObjectID] = []
        if source.entityName == sourceEntity, let key = source.primaryKey, let destination = forward[key],
           let entity = destinationEntity {
            result.append(ManagedObjectID(entityName: entity, storeIdentifier: store, primaryKey: destination))
        }
        if let more = extra[source] { result += more }
        return result
    }

    /// The saved sources of `destination`, as IDs in `store` (the source store).
    mutating func savedSources(of destination: ManagedObjectID, store: String) -> [ManagedObjectID] {
        var result: [ManagedObjectID] = []
        if destination.entityName == destinationEntity, let key = destination.primaryKey, let entity = sourceEntity {
            if reverse == nil {
                var built: [Int64: Int64] = [:]
                built.reserveCapacity(forward.count)
                for (source, destination) in forward { built[destination] = source }
                reverse = built
            }
            if let source = reverse?[key] {
                result.append(ManagedObjectID(entityName: entity, storeIdentifier: store, primaryKey: source))
            }
        }
        if !extra.isEmpty {
            if reverseExtra == nil {
                var built: [ManagedObjectID: [ManagedObjectID]] = [:]
                for (source, destinations) in extra {
                    for destination in destinations { built[destination, default: []].append(source) }
                }
                reverseExtra = built
            }
            result += reverseExtra?[destination] ?? []
        }
        return result
    }

    /// The sources of pending associations with `destination`.
    func pendingSources(of destination: ManagedObject) -> [ManagedObjectID] {
        pending.lazy.filter { $0.destination === destination }.map(\.source)
    }

    /// The saved associations of ``forward`` as (destination, source) primary keys, in
    /// destination key order (the order the store keeps them, for reading them back in batches).
    func savedKeyPairs() -> [(destination: Int64, source: Int64)] {
        forward.map { (destination: $0.value, source: $0.key) }.sorted { $0.destination < $1.destination }
    }

    /// The saved associations of ``extra`` as (destination, source) IDs.
    func extraPairs() -> [(destination: ManagedObjectID, source: ManagedObjectID)] {
        var pairs: [(destination: ManagedObjectID, source: ManagedObjectID)] = []
        for (source, destinations) in extra.sorted(by: { ManagedObjectID.storeOrder($0.key, $1.key) }) {
            for destination in destinations { pairs.append((destination, source)) }
        }
        return pairs
    }
}
