/// What a batch request returns (Core Data's `NSBatchInsertRequestResultType`,
/// `NSBatchUpdateRequestResultType` and `NSBatchDeleteRequestResultType`, which name the same
/// three choices).
public enum BatchResultType: Sendable, Hashable, CaseIterable {
    /// Whether the request succeeded (`statusOnly`, the default). A request that fails throws,
    /// so a returned status is always true.
    case statusOnly
    /// How many objects the request inserted, updated or deleted (`count`,
    /// `updatedObjectsCountResultType`, `resultTypeCount`).
    case count
    /// The IDs of the objects the request inserted, updated or deleted (`objectIDs`,
    /// `updatedObjectIDsResultType`, `resultTypeObjectIDs`): what
    /// ``ManagedObjectContext/mergeChanges(fromRemoteContextSave:into:)`` takes.
    case objectIDs
}

/// The result of a batch request, of the kind its ``BatchResultType`` asked for (Core Data's
/// `NSBatchInsertResult`, `NSBatchUpdateResult` and `NSBatchDeleteResult`, whose `result` is an
/// `Any` to cast by `resultType`).
///
/// ```swift
/// var request = BatchDeleteRequest(fetchRequest: FetchRequest(entityName: "Mood"))
/// request.resultType = .objectIDs
/// let result = try context.execute(request)
/// print(result.count ?? 0, result.objectIDs ?? [])
/// ManagedObjectContext.mergeChanges(fromRemoteContextSave: result.changes, into: [context])
/// ```
public struct BatchResult: Sendable, Hashable {
    /// The kind of result asked for.
    public let resultType: BatchResultType
    /// How many objects the request inserted, updated or deleted (cascades included); nil for
    /// ``BatchResultType/statusOnly``.
    public let count: Int?
    /// The objects the request inserted, updated or deleted (cascades included), in the order the
    /// stores handled them; nil unless ``BatchResultType/objectIDs`` was asked for.
    public let objectIDs: [ManagedObjectID]?
    /// The changes, keyed as ``ManagedObjectContext/mergeChanges(fromRemoteContextSave:into:)``
    /// takes them: ``ManagedObjectContext/insertedObjectsKey``, ``ManagedObjectContext/updatedObjectsKey``
    /// (for a delete: the remaining objects whose relationships were nullified) and
    /// ``ManagedObjectContext/deletedObjectsKey``. Empty unless ``BatchResultType/objectIDs`` was
    /// asked for.
    public let changes: [String: [ManagedObjectID]]

    /// Whether the request succeeded: always true, since a request that fails throws.
    public var status: Bool { true }

    /// Creates a result.
    public init(resultType: BatchResultType, count: Int?, objectIDs: [ManagedObjectID]?, changes: [String: [ManagedObjectID]]) {
        self.resultType = resultType
        self.count = count
        self.objectIDs = objectIDs
        self.changes = changes
    }

    /// The result of the kind `type` asks for, from what the stores reported.
    init(_ type: BatchResultType, objectIDs: [ManagedObjectID], changeKey: String, nullified: [ManagedObjectID] = []) {
        self.resultType = type
        self.count = type == .statusOnly ? nil : objectIDs.count
        self.objectIDs = type == .objectIDs ? objectIDs : nil
        var changes: [String: [ManagedObjectID]] = [:]
        if type == .objectIDs {
            changes[changeKey] = objectIDs
            if !nullified.isEmpty { changes[ManagedObjectContext.updatedObjectsKey] = nullified }
        }
        self.changes = changes
    }
}
