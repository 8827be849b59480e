import Foundation

/// A store type's name, and the registry that makes a store of that type from a name chosen
/// at run time.
///
/// The store types that ship with Strata are in the registry as soon as their modules are
/// linked (`import Strata`): ``inMemory``, ``sqlite``, ``xml`` and ``binary`` need no
/// registration call. Other store types register with `register(_:factory:metadataReader:)`.
///
/// ```swift
/// let type = StoreType(rawValue: configuredName)     // "InMemory", "SQLite", "XML", "Binary", …
/// try coordinator.addPersistentStore(type: type, at: url)
/// ```
public struct StoreType: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The registered name.
    public let rawValue: String

    /// A store type by name (registered or not).
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The in-memory store: the whole graph in memory, nothing written.
    public static let inMemory = StoreType(rawValue: "InMemory")
    /// The SQLite store.
    public static let sqlite = StoreType(rawValue: "SQLite")
    /// The XML store.
    public static let xml = StoreType(rawValue: "XML")
    /// The compressed binary store.
    public static let binary = StoreType(rawValue: "Binary")

    /// The name.
    public var description: String { rawValue }

    /// Makes a store of a type from where it lives and what it holds.
    @_spi(StoreImplementation) public typealias Factory = @Sendable (StoreDescription) throws -> any PersistentStore
    /// Reads a store file's UUID and metadata without loading its objects.
    @_spi(StoreImplementation) public typealias MetadataReader = @Sendable (URL) throws -> [String: PropertyListValue]

    private struct Registration {
        var factory: Factory
        var metadataReader: MetadataReader?
    }

    /// The registered types: the in-memory store, the ``BuiltInStoreFamily`` types of the
    /// modules linked into the process (found when the table is first used), and what
    /// ``register(_:factory:metadataReader:)`` added or replaced since.
    private static let factories = LockedValue<[String: Registration]>(builtInRegistrations())

    /// The in-memory store and the built-in store families that are linked.
    private static func builtInRegistrations() -> [String: Registration] {
        var table = [StoreType.inMemory.rawValue: Registration(factory: { try InMemoryStore.make($0) }, metadataReader: nil)]
        for family in LinkedModules.storeFamilies() {
            table[family.storeType.rawValue] = Registration(factory: { try family.makeStore($0) },
                                                            metadataReader: { try family.readMetadata(at: $0) })
        }
        return table
    }

    /// Registers (or replaces) the factory for `type`, and how to read a file's metadata: for a
    /// store type of your own (Strata's own are registered already).
    @_spi(StoreImplementation) public static func register(_ type: StoreType, factory: @escaping Factory, metadataReader: MetadataReader? = nil) {
        factories.withLock { $0[type.rawValue] = Registration(factory: factory, metadataReader: metadataReader) }
    }

    /// Reads the metadata of a store file of this type without loading its objects.
    ///
    /// - Throws: ``StoreError/unknownStoreType(_:)`` when the type is not registered or keeps no
    ///   file, or what reading the file throws.
    public func readMetadata(at url: URL) throws -> [String: PropertyListValue] {
        guard let reader = Self.factories.withLock({ $0[rawValue]?.metadataReader }) else {
            throw StoreError.unknownStoreType(rawValue)
        }
        return try reader(url)
    }

    /// Every registered type.
    public static var registeredTypes: [StoreType] {
        factories.withLock { $0.keys.sorted().map(StoreType.init(rawValue:)) }
    }

    /// A registered type whose name matches `name` ignoring case (`"sqlite"` finds `SQLite`).
    public static func named(_ name: String) -> StoreType? {
        factories.withLock { table in
            table.keys.first { $0.caseInsensitiveCompare(name) == .orderedSame }.map(StoreType.init(rawValue:))
        }
    }

    /// Makes a store of this type.
    ///
    /// - Throws: ``StoreError/unknownStoreType(_:)`` when nothing is registered under the name,
    ///   or what the store's factory throws.
    @_spi(StoreImplementation) public func makeStore(_ description: StoreDescription) throws -> any PersistentStore {
        guard let factory = Self.factories.withLock({ $0[rawValue]?.factory }) else {
            throw StoreError.unknownStoreType(rawValue)
        }
        return try factory(description)
    }
}

/// Where a store lives and what it holds: what a store factory needs.
@_spi(StoreImplementation)
public struct StoreDescription: Sendable {
    /// The store type.
    public var type: StoreType
    /// The store's file (nil for a store without one).
    public var url: URL?
    /// The configuration whose entities the store holds (nil: every entity).
    public var configurationName: String?
    /// The model.
    public var model: ManagedObjectModel
    /// Store options (read-only, migration flags, …) by name.
    public var options: [String: PropertyListValue]

    /// Creates a store description.
    public init(type: StoreType, url: URL? = nil, configurationName: String? = nil,
                model: ManagedObjectModel, options: [String: PropertyListValue] = [:]) {
        self.type = type
        self.url = url
        self.configurationName = configurationName
        self.model = model
        self.options = options
    }
}
