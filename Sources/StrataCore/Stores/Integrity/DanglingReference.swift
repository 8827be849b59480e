import Foundation

/// A relationship in a store file that names an object the file does not hold: a to-one column
/// of an SQLite row naming a missing row, an XML `idrefs` naming no `<object>`, a binary
/// reference to a key no object has (all written by another program, or damage).
///
/// Reading keeps going: the relationship reads as if the reference were not there (a to-one is
/// nil, a to-many leaves the member out). ``IntegrityCheckingStore/integrityProblems()`` and
/// `strata validate` and `strata check` report each one.
public struct DanglingReference: Sendable, Hashable, CustomStringConvertible {
    /// The object that holds the reference.
    public var source: ManagedObjectID
    /// The relationship of `source` that holds it.
    public var relationship: String
    /// The entity the reference names (the relationship's destination entity when the file
    /// names none).
    public var destinationEntityName: String
    /// The missing destination's primary key, when the file names objects by primary key
    /// (SQLite, binary).
    public var destinationPrimaryKey: Int64?
    /// How the file names the missing object when not by primary key (an XML object id such as
    /// `z999`).
    public var destinationName: String?

    /// Creates a record.
    public init(source: ManagedObjectID, relationship: String, destinationEntityName: String,
                destinationPrimaryKey: Int64? = nil, destinationName: String? = nil) {
        self.source = source
        self.relationship = relationship
        self.destinationEntityName = destinationEntityName
        self.destinationPrimaryKey = destinationPrimaryKey
        self.destinationName = destinationName
    }

    /// How the missing destination is named: `Teacher/p9`, or `Teacher z999` for an XML id.
    public var destinationDescription: String {
        if let destinationPrimaryKey { return "\(destinationEntityName)/p\(destinationPrimaryKey)" }
        return "\(destinationEntityName) \(destinationName ?? "?")"
    }

    /// `<Entity> <uri>.<relationship> refers to <Entity>/p<N>, which the store does not hold`.
    public var description: String {
        "\(source.entityName) \(source).\(relationship) refers to \(destinationDescription), which the store does not hold"
    }
}
