import StrataCore
import StrataModelFiles

/// Writes Swift classes for a model's entities: what `strata codegen` and the `StrataCodegen`
/// build-tool plugin write.
///
/// Which entities get code follows Xcode's per-entity setting (`EntityCodeGeneration`):
/// "Class Definition" gets a whole class, "Category/Extension" the properties in an extension of
/// a class written by hand, and "Manual/None" nothing, unless ``allEntities`` asks for a class
/// for every entity. Classes are named by the model's class names (`representedClassName`, the
/// entity's name when it has none), one file per entity, and need only `import Strata`:
///
/// - a property per attribute and relationship, over the object's storage (`self[typed:]`,
///   `setTyped(_:forKey:)`, `self[toMany:]`), optional where the model says optional; numbers
///   and Booleans that are not optional are plain values (nil reads as 0 or false, as Core
///   Data's scalar accessors read it), derived attributes read-only;
/// - `entityName`, the model keys as constants (`Mood.Keys.date`), the key paths for sorts and
///   `#Predicate` (`ModelKeyPaths`), and `Managed` (`sortedFetchRequest`);
/// - a class derives from the class of its parent entity when that class is generated too,
///   else from `ManagedObject`.
///
/// A file for the model lists the classes and registers them with a coordinator.
public struct SwiftClassGenerator: Sendable {
    /// The model.
    public var model: ManagedObjectModel
    /// The model's name, which names its file of classes (`Moody` gives `MoodyClasses`).
    public var modelName: String
    /// Xcode's setting of each entity (`LoadedModel/codeGeneration`).
    public var codeGeneration: [String: EntityCodeGeneration]
    /// Whether entities set to "Manual/None" get a class too.
    public var allEntities: Bool

    /// Creates a generator.
    public init(model: ManagedObjectModel, modelName: String, codeGeneration: [String: EntityCodeGeneration],
                allEntities: Bool = false) {
        self.model = model
        self.modelName = modelName
        self.codeGeneration = codeGeneration
        self.allEntities = allEntities
    }

    /// Creates a generator for a model read from a model file.
    public init(_ loaded: LoadedModel, modelName: String, allEntities: Bool = false) {
        self.init(model: loaded.model, modelName: modelName, codeGeneration: loaded.codeGeneration, allEntities: allEntities)
    }

    /// What each entity gets, by entity name.
    func settings() -> [String: EntityCodeGeneration] {
        var settings: [String: EntityCodeGeneration] = [:]
        for entity in model.entities {
            if let setting = codeGeneration[entity.name] {
                settings[entity.name] = setting
            } else if allEntities {
                settings[entity.name] = .classDefinition
            }
        }
        return settings
    }

    /// The Swift class name of `entity`.
    func className(of entity: EntityDescription) -> String {
        SwiftNames.className(entity.managedObjectClassName) ?? entity.name
    }

    /// The names of the files ``files()`` writes, without writing them.
    public func fileNames() throws(CodegenError) -> [String] {
        try files().map(\.name)
    }

    /// Every file: one per entity that gets code, then the model's list of classes.
    ///
    /// - Throws: ``CodegenError`` for two entities of one class name or a class name that is
    ///   not a Swift identifier.
    public func files() throws(CodegenError) -> [GeneratedFile] {
        let settings = settings()
        let entities = model.entities.filter { settings[$0.name] != nil }.sorted { $0.name < $1.name }
        var entitiesByClass: [String: [String]] = [:]
        for entity in entities {
            let name = className(of: entity)
            guard SwiftNames.isIdentifier(name), !SwiftNames.keywords.contains(name) else {
                throw .invalidClassName(entity: entity.name, className: name)
            }
            entitiesByClass[name, default: []].append(entity.name)
        }
        if let (name, names) = entitiesByClass.sorted(by: { $0.key < $1.key }).first(where: { $0.value.count > 1 }) {
            throw .duplicateClassName(className: name, entities: names)
        }
        var files: [GeneratedFile] = []
        for entity in entities {
            let writer = EntityClassWriter(generator: self, entity: entity, settings: settings)
            switch settings[entity.name] {
            case .classDefinition?:
                files.append(GeneratedFile(name: className(of: entity) + ".swift", contents: writer.classFile()))
            case .category?:
                files.append(GeneratedFile(name: className(of: entity) + "+Properties.swift", contents: writer.extensionFile()))
            case nil:
                break
            }
        }
        let classes = entities.filter { settings[$0.name] == .classDefinition }
        files.append(GeneratedFile(name: typeName(modelName) + "Classes.swift", contents: classesFile(classes)))
        return files
    }

    /// `name` as a Swift type name: characters an identifier cannot hold become `_`.
    func typeName(_ name: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in name.unicodeScalars {
            scalars.append(scalar.properties.isXIDContinue ? scalar : "_")
        }
        var result = String(scalars)
        if let first = result.unicodeScalars.first, !first.properties.isXIDStart, first != "_" { result = "_" + result }
        return result.isEmpty ? "Model" : result
    }

    /// The model's file: every generated class with its entity, and their registration.
    private func classesFile(_ classes: [EntityDescription]) -> String {
        let type = typeName(modelName) + "Classes"
        var lines = [GeneratedFile.header, "", "import Strata", ""]
        lines.append("/// The classes `strata codegen` wrote for the model \(modelName).")
        lines.append("public enum \(type) {")
        lines.append("    /// Each generated class with the entity it is the class of.")
        lines.append("    public static var all: [(entityName: String, type: ManagedObject.Type)] {")
        if classes.isEmpty {
            lines.append("        []")
        } else {
            lines.append("        [")
            for entity in classes {
                lines.append("            (\(SwiftNames.literal(entity.name)), \(className(of: entity)).self),")
            }
            lines.append("        ]")
        }
        lines.append("    }")
        lines.append("")
        lines.append("    /// Registers every generated class for its entity with `coordinator`, so that its objects")
        lines.append("    /// are instances of them.")
        lines.append("    public static func register(with coordinator: PersistentStoreCoordinator) {")
        lines.append("        for (entityName, type) in all { coordinator.register(type, forEntityName: entityName) }")
        lines.append("    }")
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }
}
