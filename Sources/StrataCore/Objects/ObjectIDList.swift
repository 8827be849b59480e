/// A list of object IDs kept compactly: a primary key and a small index into a table of
/// (entity, store) pairs per ID, 12 bytes an ID instead of a ``ManagedObjectID`` each.
///
/// What a store returns for ``ObjectIDFetchStore/fetchObjectIDs(_:)`` and what batched results
/// keep, so that listing a million matching objects takes a few megabytes. Temporary IDs (of
/// unsaved objects) are kept aside, whole.
@_spi(StoreImplementation)
public struct ObjectIDList: RandomAccessCollection, Sendable {
    /// An entity and a store, shared by many IDs.
    private struct Kind: Sendable, Hashable {
        let entityName: String
        let storeIdentifier: String?
    }

    /// The scope of each kind: what the IDs are made with.
    private var kinds: [ObjectIDScope] = []
    private var kindIndexes: [Kind: UInt32] = [:]
    /// The kind of each ID, by position.
    private var kindOfID: [UInt32] = []
    /// The primary key of each permanent ID, by position (0 for a temporary one).
    private var keys: [Int64] = []
    /// Temporary IDs, by position.
    private var temporaryIDs: [Int: ManagedObjectID] = [:]
    /// The kind of the ID appended last, looked up again only when the next differs.
    private var lastKind: UInt32?

    /// An empty list.
    public init() {}

    /// A list of `objectIDs`, in order.
    public init(_ objectIDs: some Sequence<ManagedObjectID>) {
        for objectID in objectIDs { append(objectID) }
    }

    /// Reserves room for `count` IDs.
    public mutating func reserveCapacity(_ count: Int) {
        kindOfID.reserveCapacity(count)
        keys.reserveCapacity(count)
    }

    /// Appends the permanent ID of row `primaryKey` of `entityName` in the store `storeIdentifier`.
    public mutating func append(entityName: String, storeIdentifier: String, primaryKey: Int64) {
        kindOfID.append(kind(entityName, storeIdentifier))
        keys.append(primaryKey)
    }

    /// Appends an ID.
    public mutating func append(_ objectID: ManagedObjectID) {
        if objectID.primaryKey == nil { temporaryIDs[keys.count] = objectID }
        kindOfID.append(kind(objectID.scope))
        keys.append(objectID.primaryKey ?? 0)
    }

    /// Appends every ID of `other`, in order.
    public mutating func append(contentsOf other: ObjectIDList) {
        for objectID in other { append(objectID) }
    }

    private mutating func kind(_ entityName: String, _ storeIdentifier: String?) -> UInt32 {
        if let lastKind, kinds[Int(lastKind)].names(entityName, storeIdentifier) { return lastKind }
        return kind(Kind(entityName: entityName, storeIdentifier: storeIdentifier)) { .named(entityName, in: storeIdentifier) }
    }

    /// The kind of the IDs of `scope`: the last one when it is the very scope.
    private mutating func kind(_ scope: ObjectIDScope) -> UInt32 {
        if let lastKind, kinds[Int(lastKind)] === scope { return lastKind }
        return kind(Kind(entityName: scope.entityName, storeIdentifier: scope.storeIdentifier)) { scope }
    }

    /// The index of `kind`, kept with the scope `scope()` gives when it is new.
    private mutating func kind(_ kind: Kind, scope: () -> ObjectIDScope) -> UInt32 {
        let index: UInt32
        if let known = kindIndexes[kind] {
            index = known
        } else {
            index = UInt32(kinds.count)
            kinds.append(scope())
            kindIndexes[kind] = index
        }
        lastKind = index
        return index
    }

    /// The entities of the IDs.
    public var entityNames: Set<String> { Set(kinds.map(\.entityName)) }

    /// The first position, 0.
    public var startIndex: Int { 0 }
    /// One past the last position: the number of IDs.
    public var endIndex: Int { keys.count }

    /// The ID at `position`.
    public subscript(position: Int) -> ManagedObjectID {
        if !temporaryIDs.isEmpty, let temporary = temporaryIDs[position] { return temporary }
        return ManagedObjectID(kinds[Int(kindOfID[position])], primaryKey: keys[position])
    }
}
