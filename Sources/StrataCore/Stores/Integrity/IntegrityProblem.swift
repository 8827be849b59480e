import Foundation

/// One thing wrong in a store, as ``IntegrityCheckingStore/integrityProblems()`` finds it.
public struct IntegrityProblem: Sendable, Hashable, CustomStringConvertible {
    /// What is wrong.
    public enum Kind: Sendable, Hashable {
        /// A relationship names an object the store does not hold.
        case danglingReference(DanglingReference)
        /// `objectID.relationship` names `destination`, but the destination's inverse
        /// `inverse` does not name `objectID` back (or the other way round).
        case brokenInverse(relationship: String, destination: ManagedObjectID, inverse: String)
        /// The file itself is damaged (a checksum, a page, a parse error): the reason as the
        /// checker gives it.
        case damagedFile(String)
        /// The store's bookkeeping disagrees with its rows (a key generator behind the keys in
        /// use, a row of an entity code no entity has, …).
        case inconsistentBookkeeping(String)
    }

    /// The store file.
    public var file: String
    /// The entity concerned, when one is.
    public var entityName: String?
    /// The object concerned, when one is.
    public var objectID: ManagedObjectID?
    /// What is wrong.
    public var kind: Kind

    /// Creates a problem.
    public init(file: String, entityName: String? = nil, objectID: ManagedObjectID? = nil, kind: Kind) {
        self.file = file
        self.entityName = entityName ?? objectID?.entityName
        self.objectID = objectID
        self.kind = kind
    }

    /// A dangling reference in `file`.
    public static func dangling(_ reference: DanglingReference, file: String) -> IntegrityProblem {
        IntegrityProblem(file: file, objectID: reference.source, kind: .danglingReference(reference))
    }

    /// A short name of the kind: `dangling-reference`, `broken-inverse`, `damaged-file`,
    /// `inconsistent-bookkeeping` (the `kind` of `strata check --json`).
    public var kindName: String {
        switch kind {
        case .danglingReference: "dangling-reference"
        case .brokenInverse: "broken-inverse"
        case .damagedFile: "damaged-file"
        case .inconsistentBookkeeping: "inconsistent-bookkeeping"
        }
    }

    /// What is wrong, without the file: `Student x-coredata://…/Student/p1.teacher refers to …`.
    public var message: String {
        switch kind {
        case .danglingReference(let reference):
            return reference.description
        case let .brokenInverse(relationship, destination, inverse):
            let source = objectID.map { "\($0.entityName) \($0)" } ?? entityName ?? "?"
            return "\(source).\(relationship) names \(destination), whose inverse '\(inverse)' does not name it back"
        case .damagedFile(let reason):
            return reason
        case .inconsistentBookkeeping(let reason):
            return (entityName.map { "\($0): " } ?? "") + reason
        }
    }

    /// `<file>: <message>`.
    public var description: String { "\(file): \(message)" }
}
