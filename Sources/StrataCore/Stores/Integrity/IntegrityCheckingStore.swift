import Foundation

/// A store that can look itself over: dangling references, broken inverses, and whatever its
/// file format can check (checksums, SQLite's own integrity check, key bookkeeping).
///
/// `strata check` runs ``integrityProblems()``; `strata validate` reports
/// ``danglingReferences()``. Reading a store never stops at a dangling reference (the
/// relationship reads as nil); this is how a program finds them.
public protocol IntegrityCheckingStore: PersistentStore {
    /// Every reference the store holds to an object it does not hold, in store order.
    func danglingReferences() throws -> [DanglingReference]
    /// Every problem found, in a stable order: the file's own checks first, then dangling
    /// references, then broken inverses.
    func integrityProblems() throws -> [IntegrityProblem]
}
