/// A benchmark that cannot go on: a file it cannot open, an engine that read different rows.
public struct BenchmarkError: Error, CustomStringConvertible {
    /// What went wrong, and where.
    public var description: String

    /// An error that says `description`.
    public init(_ description: String) { self.description = description }
}
