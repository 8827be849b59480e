import StrataCore

/// A model read from a `contents` file, with what the reader had to skip.
public struct LoadedModel: Sendable {
    /// The model.
    public let model: ManagedObjectModel
    /// What was skipped or changed while reading, in file order.
    public let warnings: [ModelFileWarning]
    /// The path of the `contents` file read.
    public let file: String
    /// Xcode's code generation setting of each entity that has one, by entity name; an entity
    /// not listed is "Manual/None".
    public let codeGeneration: [String: EntityCodeGeneration]

    /// Creates a loaded model.
    public init(model: ManagedObjectModel, warnings: [ModelFileWarning], file: String,
                codeGeneration: [String: EntityCodeGeneration] = [:]) {
        self.model = model
        self.warnings = warnings
        self.file = file
        self.codeGeneration = codeGeneration
    }
}

/// Xcode's per-entity code generation setting (`codeGenerationType` in a model's contents):
/// what `strata codegen` writes for the entity. "Manual/None", the setting's absence, writes
/// nothing.
public enum EntityCodeGeneration: String, Sendable, Hashable {
    /// "Class Definition": the whole class.
    case classDefinition = "class"
    /// "Category/Extension": the properties, in an extension of a class written by hand.
    case category
}
