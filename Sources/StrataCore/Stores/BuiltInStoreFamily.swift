import Foundation

/// A store family that ships with Strata in a module of its own (SQLite, XML, binary): the
/// store-type registry finds it by its type's name the first time it is asked for a store type,
/// so linking the module (`import Strata`) is all an app does to use it.
///
/// Other store families register with ``StoreType/register(_:factory:metadataReader:)``.
@_spi(StoreImplementation) public protocol BuiltInStoreFamily: Sendable {
    /// The store type the family makes.
    static var storeType: StoreType { get }

    /// Opens or creates a store of ``storeType``.
    ///
    /// - Throws: what opening the store throws.
    static func makeStore(_ description: StoreDescription) throws -> any PersistentStore

    /// Reads a store file's UUID and metadata without loading its objects.
    ///
    /// - Throws: what reading the file throws.
    static func readMetadata(at url: URL) throws -> [String: PropertyListValue]
}

/// The module that writes and reads Core Data's compiled model (`StrataModelFiles`), found by
/// name as a ``BuiltInStoreFamily`` is: it gives the ``CompiledModelCoder`` that stores use
/// until another one is installed.
@_spi(StoreImplementation) public protocol BuiltInCompiledModelCoding {
    /// The coder stores use by default.
    static var compiledModelCoder: CompiledModelCoder { get }
}

/// The transformer of Core Data's default for transformable attributes (secure unarchiving from
/// keyed archives), in module `StrataModelFiles` with the rest of the keyed-archive code, found
/// by name as a ``BuiltInStoreFamily`` is.
@_spi(StoreImplementation) public protocol BuiltInValueTransformer: AttributeValueTransformer {
    /// Makes the transformer.
    init()
}

/// The modules that ship with Strata and extend StrataCore when they are linked into the
/// process, found by the names of the types through which they do it.
///
/// StrataCore cannot depend on them (they depend on it) and Swift runs no code when a module is
/// loaded, so the registries ask the Swift runtime for these types the first time they are
/// used, as Foundation finds FoundationNetworking. A module not linked is simply not found.
enum LinkedModules {
    /// A type's module, name and kind, which make its mangled name.
    struct TypeName {
        var module: String
        var name: String
        /// `C` for a class, `O` for an enum, `V` for a struct.
        var kind: Character

        /// The mangled name the runtime looks types up by (`9StrataXML8XMLStoreO`).
        var mangled: String { "\(module.utf8.count)\(module)\(name.utf8.count)\(name)\(kind)" }

        /// The type, when its module is linked.
        var linkedType: Any.Type? { _typeByName(mangled) }
    }

    /// The store families that ship with Strata.
    static let storeFamilyNames = [
        TypeName(module: "StrataSQLite", name: "SQLiteStore", kind: "C"),
        TypeName(module: "StrataXML", name: "XMLStore", kind: "O"),
        TypeName(module: "StrataBinary", name: "BinaryStore", kind: "O"),
    ]

    /// The type that gives the compiled model coder.
    static let compiledModelCodingName = TypeName(module: "StrataModelFiles", name: "CompiledModel", kind: "O")

    /// The type of the keyed-archive value transformer.
    static let keyedArchiveTransformerName = TypeName(module: "StrataModelFiles", name: "KeyedArchiveValueTransformer", kind: "V")

    /// The keyed-archive value transformer of the linked `StrataModelFiles`, if it is linked.
    static func keyedArchiveTransformer() -> (any AttributeValueTransformer)? {
        (keyedArchiveTransformerName.linkedType as? any BuiltInValueTransformer.Type)?.init()
    }

    /// The type through which `StrataMigration` reads mapping models and model bundles named in
    /// store options.
    static let migrationSourcesName = TypeName(module: "StrataMigration", name: "MappingModelProvider", kind: "V")

    /// The linked store families.
    static func storeFamilies() -> [any BuiltInStoreFamily.Type] {
        storeFamilyNames.compactMap { $0.linkedType as? any BuiltInStoreFamily.Type }
    }

    /// The compiled model coder of the linked `StrataModelFiles`, if it is linked.
    static func compiledModelCoder() -> CompiledModelCoder? {
        (compiledModelCodingName.linkedType as? any BuiltInCompiledModelCoding.Type)?.compiledModelCoder
    }

    /// The reader of mapping models and model bundles of the linked `StrataMigration`, if it is linked.
    static func migrationSources() -> (any BuiltInMigrationSources.Type)? {
        migrationSourcesName.linkedType as? any BuiltInMigrationSources.Type
    }
}
