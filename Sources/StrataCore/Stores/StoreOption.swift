/// Options a `StoreDescription` can carry, under Core Data's names so that option
/// dictionaries written for Core Data mean the same here.
public enum StoreOption {
    /// `true`: the store is opened for reading only. Nothing is written to its file — no save,
    /// no metadata, no journal change, no checkpoint of an SQLite store's write-ahead log — and
    /// every write is refused with ``StoreError/readOnlyStore(file:)``. The file must exist.
    public static let readOnly = "NSReadOnlyPersistentStoreOption"

    /// `true`: the store opens even when its recorded entity version hashes differ from the
    /// model's (Core Data's `NSIgnorePersistentStoreVersioningOption`). The tables or elements
    /// the model names must still be there; a save then records the model's hashes.
    public static let ignoresVersionHashes = "NSIgnorePersistentStoreVersioningOption"
}

extension StoreDescription {
    /// Whether ``StoreOption/readOnly`` is set.
    public var isReadOnly: Bool { options[StoreOption.readOnly] == .bool(true) }

    /// Whether ``StoreOption/ignoresVersionHashes`` is set.
    public var ignoresVersionHashes: Bool { options[StoreOption.ignoresVersionHashes] == .bool(true) }

    /// Checks the store's recorded version hashes against the model unless
    /// ``StoreOption/ignoresVersionHashes`` is set.
    ///
    /// - Throws: ``StoreError/incompatibleModel(file:entities:)``.
    public func checkCompatibility(withStoreMetadata metadata: [String: PropertyListValue], file: String) throws {
        guard !ignoresVersionHashes else { return }
        try model.checkCompatibility(withStoreMetadata: metadata, file: file)
    }
}
