import Foundation
@_spi(StoreImplementation) import StrataCore

/// A small in-memory store written from StrataCore's public and store-author API alone.
///
/// It implements only the fourteen requirements of ``PersistentStore`` and declares no
/// capability, so the coordinator does every optional piece of work (streaming, counting,
/// grouping, batch requests) with its fallbacks. It keeps no file (``url`` is nil). The
/// conformance suite runs every behavioural test on it, which shows that the core protocol is
/// enough for every behaviour of a context.
///
/// ```swift
/// ExampleStore.register()
/// try coordinator.addPersistentStore(type: ExampleStore.storeType, at: nil)
/// ```
@_spi(StoreImplementation)
public final class ExampleStore: PersistentStore, @unchecked Sendable {
    /// The name the store registers under.
    public static let storeType = StoreType(rawValue: "Example")

    /// Makes ``storeType`` known to `StoreType`, so a coordinator opens it by name. Calling it
    /// again changes nothing.
    public static func register() {
        StoreType.register(storeType) { description in try ExampleStore(description: description) }
    }

    public let type: StoreType
    public let url: URL? = nil
    public let configurationName: String?
    public let model: ManagedObjectModel

    /// Guards ``contents``: every read and every save takes it.
    private let lock = NSLock()
    /// Everything the store holds; read and written only under ``lock``.
    private var contents: ExampleStoreContents

    /// Makes an empty store for `description` (whose URL, if any, is ignored: the store keeps
    /// nothing on disk).
    ///
    /// - Throws: ``StoreError/readOnlyStore(file:)`` when opened read-only: an empty store
    ///   that can never be written is of no use.
    public init(description: StoreDescription) throws {
        guard !description.isReadOnly else { throw StoreError.readOnlyStore(file: "") }
        self.type = description.type
        self.configurationName = description.configurationName
        self.model = description.model
        self.contents = ExampleStoreContents(identifier: UUID().uuidString)
        contents.stampMetadata(type: type, model: model)
    }

    /// Runs `body` with the contents under the lock.
    private func withContents<T>(_ body: (inout ExampleStoreContents) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&contents)
    }

    public var identifier: String { withContents { $0.identifier } }

    public var metadata: [String: PropertyListValue] { withContents { $0.metadata } }

    public func setMetadata(_ metadata: [String: PropertyListValue]) throws {
        withContents { contents in
            contents.metadata = metadata
            contents.stampMetadata(type: type, model: model)
        }
    }

    public func fetch(_ request: StoreFetchRequest) throws -> [ObjectSnapshot] {
        let objects = withContents { $0.objects }
        // The evaluator every store uses: filter by entity and predicate, sort, then range.
        return try SnapshotQuery.apply(request, to: Array(objects.values), source: objects, model: model)
    }

    public func snapshot(for objectID: ManagedObjectID) throws -> ObjectSnapshot? {
        withContents { $0.objects[objectID] }
    }

    public func relatedObjectIDs(of objectID: ManagedObjectID, relationship: String) throws -> [ManagedObjectID] {
        withContents { $0.objects[objectID]?.toMany[relationship] ?? [] }
    }

    public func allocatePrimaryKeys(rootEntity: String, count: Int) throws -> [Int64] {
        try withContents { contents in
            let first = contents.nextPrimaryKeys[rootEntity] ?? 1
            let (end, overflow) = first.addingReportingOverflow(Int64(count))
            guard count >= 0, !overflow else {
                throw StoreError.corruptStore(file: "", offset: nil,
                                              reason: "no primary keys left for entity '\(rootEntity)' (next key \(first))")
            }
            contents.nextPrimaryKeys[rootEntity] = end
            return Array(first..<end)
        }
    }

    public func save(_ request: StoreSaveRequest) throws {
        try withContents { contents in
            // Work on a copy: a save that throws leaves the store as it was.
            var next = contents
            try next.apply(request, model: model)
            contents = next
        }
    }

    public func contentsImage() throws -> StoreImage {
        withContents { contents in
            StoreImage(identifier: contents.identifier, metadata: contents.metadata,
                       objects: contents.objects, nextPrimaryKeys: contents.nextPrimaryKeys)
        }
    }

    public func replaceContents(with image: StoreImage) throws {
        var replacement = ExampleStoreContents(identifier: image.identifier, metadata: image.metadata,
                                               objects: image.objects, nextPrimaryKeys: image.nextPrimaryKeys)
        replacement.stampMetadata(type: type, model: model)
        withContents { $0 = replacement }
    }
}
