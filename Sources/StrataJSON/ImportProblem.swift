/// One thing wrong with a document being imported, at its JSON path (`$.objects[3].attributes.age`).
public struct ImportProblem: Sendable, Hashable, CustomStringConvertible {
    /// Where: a JSON path from the document root `$`.
    public var path: String
    /// What is wrong.
    public var message: String

    /// Creates a problem.
    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    /// `path: message`.
    public var description: String { "\(path): \(message)" }
}

/// Why a document was not imported: every problem found, in document order. Nothing was written.
public struct ImportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The problems.
    public var problems: [ImportProblem]

    /// Creates an error.
    public init(problems: [ImportProblem]) { self.problems = problems }

    /// One problem per line.
    public var description: String { problems.map(\.description).joined(separator: "\n") }
}
