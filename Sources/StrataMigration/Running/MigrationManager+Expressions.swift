import Foundation
import StrataCore
import StrataModelFiles

extension MigrationManager {
    /// Evaluates a mapping model's expression as Core Data's migration does.
    ///
    /// The variables are `$source` (the source object; `SELF` and a bare key path mean it too),
    /// `$destination`, `$manager`, `$entityMapping`, `$propertyMapping` (its name) and
    /// `$entityPolicy`. Key paths read through relationships and collections, with the
    /// collection operators of `KeyValueCoding` and `@unionOfSets`, `@distinctUnionOfSets`,
    /// `@unionOfArrays`, `@distinctUnionOfArrays`. Functions:
    /// `FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", M, X)`,
    /// `FUNCTION($manager, "sourceInstancesForEntityMappingNamed:destinationInstances:", M, X)`,
    /// `FUNCTION($entityPolicy, "selector", …)` (``EntityMigrationPolicy/function(_:arguments:manager:)``),
    /// and the built-in `now()`, `uppercase:`, `lowercase:`, `add:to:`, `from:subtract:`,
    /// `multiply:by:`, `divide:by:`, `abs:`, `count:`, `sum:`, `min:`, `max:`, `average:`.
    ///
    /// - Returns: an attribute value (as `ManagedObject/value(forKey:)` gives them), an object
    ///   or an array of objects, or `nil`.
    /// - Throws: ``MappingMigrationError/expression(entityMapping:property:expression:reason:)``.
    public func evaluate(_ expression: MappingExpression, source: ManagedObject?, destination: ManagedObject? = nil,
                         mapping: EntityMapping, property: String? = nil,
                         policy: EntityMigrationPolicy? = nil) throws -> Any? {
        let scope = ExpressionScope(manager: self, source: source, destination: destination, mapping: mapping,
                                    property: property, policy: policy)
        do {
            return try scope.value(of: expression)
        } catch let error as MappingMigrationError {
            throw error
        } catch let failure as ExpressionFailure {
            throw MappingMigrationError.expression(entityMapping: mapping.name, property: property,
                                            expression: expression.format, reason: failure.reason)
        } catch {
            throw MappingMigrationError.expression(entityMapping: mapping.name, property: property,
                                            expression: expression.format, reason: "\(error)")
        }
    }

    /// Sets what an expression gave on a destination object: a relationship takes an object, or
    /// a collection of them (a to-one, at most one), an attribute any value it converts from.
    func setValue(_ value: Any?, forKey key: String, of destination: ManagedObject, mapping: EntityMapping) throws {
        do {
            if let relationship = destination.entity.relationship(named: key) {
                let objects = try Self.objects(in: value)
                if relationship.isToMany {
                    try destination.setValue(objects, forKey: key)
                } else {
                    guard objects.count <= 1 else {
                        throw ExpressionFailure(reason: "\(objects.count) objects for the to-one relationship \(key)")
                    }
                    let done = writesForeignKeysAlone
                        ? try destination.setToOneLeavingInverseFaults(key, to: objects.first) : false
                    if !done { try destination.setValue(objects.first, forKey: key) }
                }
            } else {
                try destination.setValue(value, forKey: key)
            }
        } catch let failure as ExpressionFailure {
            throw MappingMigrationError.expression(entityMapping: mapping.name, property: key, expression: key, reason: failure.reason)
        } catch {
            throw MappingMigrationError.stageFailed(stage: stage, entityMapping: mapping.name, underlying: error)
        }
    }

    /// The objects of a value: none for `nil`, one object, or the objects of a collection.
    static func objects(in value: Any?) throws -> [ManagedObject] {
        guard let value else { return [] }
        if let object = value as? ManagedObject { return [object] }
        if let objects = value as? [ManagedObject] { return objects }
        if let objects = value as? Set<ManagedObject> { return objects.sorted { ManagedObjectID.storeOrder($0.objectID, $1.objectID) } }
        if let items = value as? [Any] {
            return try items.map { item in
                guard let object = item as? ManagedObject else {
                    throw ExpressionFailure(reason: "a collection holding \(type(of: item)), not objects")
                }
                return object
            }
        }
        throw ExpressionFailure(reason: "\(type(of: value)) where objects were expected")
    }
}

/// An expression that cannot be evaluated, and why.
struct ExpressionFailure: Error {
    let reason: String
}

/// What an expression is evaluated with.
private struct ExpressionScope {
    let manager: MigrationManager
    let source: ManagedObject?
    let destination: ManagedObject?
    let mapping: EntityMapping
    let property: String?
    let policy: EntityMigrationPolicy?

    func value(of expression: MappingExpression) throws -> Any? {
        switch expression {
        case .constant(let constant):
            return try Self.value(of: constant)
        case .variable(let name):
            return try variable(name)
        case .evaluatedObject:
            return source
        case let .keyPath(base, path):
            return try Self.value(atKeyPath: path, of: try value(of: base))
        case let .function(receiver, selector, arguments):
            return try call(receiver, selector, arguments)
        case let .builtInFunction(name, arguments):
            return try BuiltInFunctions.call(name, arguments.map { try value(of: $0) })
        case .fetch:
            throw ExpressionFailure(reason: "FETCH is only read as an entity mapping's source expression")
        case .unsupported(let className):
            throw ExpressionFailure(reason: "expressions of class \(className) are not supported")
        }
    }

    private func variable(_ name: String) throws -> Any? {
        switch name {
        case "source": return source
        case "destination": return destination
        case "manager": return manager
        case "entityMapping": return mapping
        case "propertyMapping": return property
        case "entityPolicy": return policy
        default: throw ExpressionFailure(reason: "unknown variable $\(name)")
        }
    }

    private func call(_ receiver: MappingExpression, _ selector: String, _ arguments: [MappingExpression]) throws -> Any? {
        let target = try value(of: receiver)
        let values = try arguments.map { try value(of: $0) }
        if target is MigrationManager {
            switch selector {
            case MappingExpression.destinationInstancesSelector:
                let (name, objects) = try mappingArguments(selector, values)
                return try manager.destinationInstances(forEntityMappingName: name, sourceInstances: objects)
            case "sourceInstancesForEntityMappingNamed:destinationInstances:":
                let (name, objects) = try mappingArguments(selector, values)
                return try manager.sourceInstances(forEntityMappingName: name, destinationInstances: objects)
            default:
                throw ExpressionFailure(reason: "the migration manager does not answer '\(selector)'")
            }
        }
        if let policy = target as? EntityMigrationPolicy {
            return try policy.function(selector, arguments: values, manager: manager)
        }
        if receiver == .variable("entityPolicy") {
            throw ExpressionFailure(reason: "no entity migration policy to call '\(selector)' on")
        }
        throw ExpressionFailure(reason: "cannot call '\(selector)' on \(receiver.format)")
    }

    private func mappingArguments(_ selector: String, _ values: [Any?]) throws -> (String, [ManagedObject]) {
        guard values.count == 2, let name = values[0] as? String else {
            throw ExpressionFailure(reason: "'\(selector)' takes an entity mapping's name and objects")
        }
        return (name, try MigrationManager.objects(in: values[1]))
    }

    static func value(of constant: MappingExpression.Constant) throws -> Any? {
        switch constant {
        case .null: nil
        case .string(let value): value
        case .integer(let value): value
        case .double(let value): value
        case .bool(let value): value
        case .date(let value): value
        case .data(let value): value
        case .className(let name): throw ExpressionFailure(reason: "the class \(name) cannot be used without the Objective-C runtime")
        case .fetchRequest: throw ExpressionFailure(reason: "a fetch request is only read as an entity mapping's source fetch")
        }
    }

    /// The collection operators Strata's key-value coding leaves to the migration.
    private static let unionOperators: Set<Substring> = ["@unionOfSets", "@distinctUnionOfSets", "@unionOfArrays", "@distinctUnionOfArrays"]

    /// The value at `path` of `base`: key-value coding, with the union operators read as a path
    /// through the collection (which gives every element's values, flattened), made distinct
    /// where the operator says so.
    static func value(atKeyPath path: String, of base: Any?) throws -> Any? {
        guard let base else { return nil }
        let components = path.split(separator: ".", omittingEmptySubsequences: false)
        guard let index = components.firstIndex(where: { unionOperators.contains($0) }) else {
            guard let object = base as? any KeyValueCoding else {
                throw ExpressionFailure(reason: "'\(path)' read from a value of type \(type(of: base))")
            }
            return try object.value(forKeyPath: path)
        }
        let distinct = components[index].hasPrefix("@distinct")
        let before = components[..<index].joined(separator: ".")
        let after = components[(index + 1)...].joined(separator: ".")
        let collection: Any? = before.isEmpty ? base : try value(atKeyPath: before, of: base)
        var items: [Any] = []
        for element in elements(of: collection) {
            let value: Any? = after.isEmpty ? element : try Self.value(atKeyPath: after, of: element)
            items += elements(of: value)
        }
        guard distinct else { return items }
        var seenObjects = Set<ObjectIdentifier>()
        var seenValues = Set<PredicateValue>()
        return items.filter { item in
            if let object = item as? ManagedObject { return seenObjects.insert(ObjectIdentifier(object)).inserted }
            return seenValues.insert(PredicateValue(item)).inserted
        }
    }

    /// The elements of a collection, or the value itself.
    private static func elements(of value: Any?) -> [Any] {
        guard let value else { return [] }
        if let objects = value as? Set<ManagedObject> { return objects.sorted { ManagedObjectID.storeOrder($0.objectID, $1.objectID) } }
        if let objects = value as? [ManagedObject] { return objects }
        if let items = value as? [Any] { return items }
        return [value]
    }
}
