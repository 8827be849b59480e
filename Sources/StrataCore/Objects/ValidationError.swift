/// Every validation failure of a save, gathered into one error.
///
/// ```swift
/// do { try context.save() } catch let error as ValidationError {
///     for failure in error.failures { print(failure) }  // names the object and the key
/// }
/// ```
public struct ValidationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Each failure, in the order found.
    public var failures: [ValidationFailure]

    /// Creates an error from failures.
    public init(failures: [ValidationFailure]) { self.failures = failures }

    /// One line per failure.
    public var description: String {
        "validation failed (\(failures.count) problem\(failures.count == 1 ? "" : "s")): "
            + failures.map(\.description).joined(separator: "; ")
    }
}

/// One rule one object broke.
public struct ValidationFailure: Sendable, Hashable, CustomStringConvertible {
    /// The object.
    public var objectID: ManagedObjectID
    /// The object's entity.
    public var entityName: String
    /// The property, or nil for a rule on the whole object.
    public var key: String?
    /// What rule was broken.
    public var reason: Reason

    /// A validation rule.
    public enum Reason: Sendable, Hashable {
        /// A required attribute or to-one is nil.
        case missingMandatoryProperty
        /// A number or date is below the minimum.
        case tooSmall(minimum: Double)
        /// A number or date is above the maximum.
        case tooLarge(maximum: Double)
        /// A string or binary value is shorter than the minimum length.
        case tooShort(minimumLength: Double)
        /// A string or binary value is longer than the maximum length.
        case tooLong(maximumLength: Double)
        /// A string does not match the attribute's regular expression.
        case patternMismatch(pattern: String)
        /// A to-many holds fewer objects than its minimum count.
        case tooFewObjects(minimum: Int, count: Int)
        /// A to-many holds more objects than its maximum count.
        case tooManyObjects(maximum: Int, count: Int)
        /// The delete rule `deny` forbids deleting while the relationship has destinations.
        case deleteDenied(destinationCount: Int)
        /// A rule of the program's own (from an overridden validation method).
        case custom(String)
    }

    /// Creates a failure.
    public init(objectID: ManagedObjectID, entityName: String, key: String?, reason: Reason) {
        self.objectID = objectID
        self.entityName = entityName
        self.key = key
        self.reason = reason
    }

    /// The object, key and rule.
    public var description: String {
        let place = "\(entityName) \(objectID)" + (key.map { ".\($0)" } ?? "")
        let rule: String = switch reason {
        case .missingMandatoryProperty: "is required"
        case .tooSmall(let minimum): "is below the minimum \(minimum)"
        case .tooLarge(let maximum): "is above the maximum \(maximum)"
        case .tooShort(let minimum): "is shorter than \(Int(minimum))"
        case .tooLong(let maximum): "is longer than \(Int(maximum))"
        case .patternMismatch(let pattern): "does not match \(pattern)"
        case let .tooFewObjects(minimum, count): "has \(count) object(s), fewer than \(minimum)"
        case let .tooManyObjects(maximum, count): "has \(count) object(s), more than \(maximum)"
        case .deleteDenied(let count): "denies the delete while it has \(count) object(s)"
        case .custom(let message): message
        }
        return "\(place) \(rule)"
    }
}
