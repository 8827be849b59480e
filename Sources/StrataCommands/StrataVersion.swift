/// The `strata` tool's version, printed by `strata --version`.
enum StrataVersion {
    /// The version number.
    static let current = "0.1.0"
}
