import Foundation

/// One difference between two model versions, as a migration step makes it: what a dry run lists
/// and what an error names.
public struct MigrationChange: Sendable, Hashable, CustomStringConvertible {
    /// The entity the change is in: the destination's name, or the source's for a removed entity.
    public var entity: String
    /// What changed.
    public var kind: Kind

    /// The kinds of change.
    public enum Kind: Sendable, Hashable {
        /// A new entity; its objects start empty.
        case addedEntity
        /// An entity the destination lacks; its objects are dropped.
        case removedEntity
        /// An entity renamed through its renaming identifier.
        case renamedEntity(from: String)
        /// The entity's parent changed.
        case changedParent(from: String?, to: String?)
        /// A new attribute or relationship (an attribute takes its default value).
        case addedProperty(String)
        /// An attribute or relationship the destination lacks; its values are dropped.
        case removedProperty(String)
        /// A property renamed through its renaming identifier.
        case renamedProperty(from: String, to: String)
        /// An attribute's type changed.
        case changedType(String, from: AttributeType, to: AttributeType)
        /// An optional property became required; an attribute's missing values take its default.
        case becameRequired(String)
        /// A required property became optional.
        case becameOptional(String)
        /// A to-one relationship became to-many.
        case becameToMany(String)
        /// A to-many relationship became to-one.
        case becameToOne(String)
        /// A to-many relationship became ordered, or unordered.
        case changedOrdering(String, ordered: Bool)
        /// A relationship's destination entity changed.
        case changedDestination(String, from: String, to: String)
        /// The two versions' hashes differ for another reason (a version hash modifier, a
        /// uniqueness constraint, external storage): the data moves unchanged.
        case changedHashOnly
    }

    /// Creates a change.
    public init(entity: String, kind: Kind) {
        self.entity = entity
        self.kind = kind
    }

    /// `Employee: attribute 'height' added`, and so on.
    public var description: String {
        switch kind {
        case .addedEntity: "entity '\(entity)' added"
        case .removedEntity: "entity '\(entity)' removed (its objects are dropped)"
        case .renamedEntity(let from): "entity '\(from)' renamed to '\(entity)'"
        case let .changedParent(from, to): "\(entity): parent entity \(from.map { "'\($0)'" } ?? "none") → \(to.map { "'\($0)'" } ?? "none")"
        case .addedProperty(let name): "\(entity): property '\(name)' added"
        case .removedProperty(let name): "\(entity): property '\(name)' removed (its values are dropped)"
        case let .renamedProperty(from, to): "\(entity): property '\(from)' renamed to '\(to)'"
        case let .changedType(name, from, to): "\(entity).\(name): type \(from.rawValue) → \(to.rawValue)"
        case .becameRequired(let name): "\(entity).\(name): optional → required"
        case .becameOptional(let name): "\(entity).\(name): required → optional"
        case .becameToMany(let name): "\(entity).\(name): to-one → to-many"
        case .becameToOne(let name): "\(entity).\(name): to-many → to-one"
        case let .changedOrdering(name, ordered): "\(entity).\(name): \(ordered ? "unordered → ordered" : "ordered → unordered")"
        case let .changedDestination(name, from, to): "\(entity).\(name): destination '\(from)' → '\(to)'"
        case .changedHashOnly: "\(entity): version hash changed (hash modifier, constraints or storage options); data unchanged"
        }
    }

    /// Whether the change drops stored data.
    public var dropsData: Bool {
        switch kind {
        case .removedEntity, .removedProperty, .becameToOne: true
        default: false
        }
    }
}
