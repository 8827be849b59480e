import StrataCore

/// A model read from a `contents` file, with what the reader had to skip.
public struct LoadedModel: Sendable {
    /// The model.
    public let model: ManagedObjectModel
    /// What was skipped or changed while reading, in file order.
    public let warnings: [ModelFileWarning]
    /// The path of the `contents` file read.
    public let file: String

    /// Creates a loaded model.
    public init(model: ManagedObjectModel, warnings: [ModelFileWarning], file: String) {
        self.model = model
        self.warnings = warnings
        self.file = file
    }
}
