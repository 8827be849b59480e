import StrataCore

/// What a migration does for one entity mapping (Core Data's `NSEntityMigrationPolicy`): the
/// default carries out the mapping's expressions; a subclass, named by the entity mapping's
/// ``EntityMapping/entityMigrationPolicyClassName`` and registered under that name, changes any
/// stage.
///
/// The migration manager makes one policy per entity mapping and calls it in Core Data's three
/// stages: ``begin(_:with:)``, ``createDestinationInstances(forSource:in:manager:)`` for each
/// source object, ``endInstanceCreation(forMapping:manager:)``; then
/// ``createRelationships(forDestination:in:manager:)`` for each destination object and
/// ``endRelationshipCreation(forMapping:manager:)``; then
/// ``performCustomValidation(forMapping:manager:)`` and ``end(_:manager:)``.
///
/// ```swift
/// final class StudentToTeacherPolicy: EntityMigrationPolicy {
///     override func createDestinationInstances(forSource source: ManagedObject, in mapping: EntityMapping,
///                                              manager: MigrationManager) throws {
///         guard let age = try source.value(forKey: "age") as? Int16, age > 18 else { return }
///         let teacher = try manager.destinationContext.insertNewObject(forEntityName: "Teacher")
///         try teacher.setValue(try source.value(forKey: "name"), forKey: "name")
///         manager.associate(sourceInstance: source, withDestinationInstance: teacher, for: mapping)
///     }
/// }
/// EntityMigrationPolicy.register(StudentToTeacherPolicy.self, forName: "App.StudentToTeacherPolicy")
/// ```
///
/// There is no Objective-C runtime to find a class by name, so a policy class is registered
/// (``register(_:forName:)``); a mapping model naming a class no one registered fails with
/// ``MappingMigrationError/unregisteredPolicy(className:entityMapping:)``. The expressions Xcode writes
/// as `FUNCTION($entityPolicy, "selector:", …)` call ``function(_:arguments:manager:)``.
open class EntityMigrationPolicy {
    /// Creates a policy (the migration manager makes one per entity mapping).
    public required init() {}

    /// Sets up state before the instance creation of `mapping` starts. The default does nothing.
    open func begin(_ mapping: EntityMapping, with manager: MigrationManager) throws {}

    /// Creates the destination instances of one source object. The default makes one object
    /// of the mapping's destination entity, sets each attribute whose mapping has a value
    /// expression, and associates it with the source object; for a mapping without a
    /// destination entity it does nothing.
    open func createDestinationInstances(forSource source: ManagedObject, in mapping: EntityMapping,
                                         manager: MigrationManager) throws {
        guard let entityName = mapping.destinationEntityName else { return }
        let destination = try manager.destinationContext.insertNewObject(forEntityName: entityName)
        for attributeMapping in mapping.attributeMappings {
            guard let expression = attributeMapping.valueExpression else { continue }
            let value = try manager.evaluate(expression, source: source, destination: destination,
                                             mapping: mapping, property: attributeMapping.name, policy: self)
            try manager.setValue(value, forKey: attributeMapping.name, of: destination, mapping: mapping)
        }
        manager.associate(sourceInstance: source, withDestinationInstance: destination, for: mapping)
    }

    /// Ends the instance creation of `mapping`. The default does nothing.
    open func endInstanceCreation(forMapping mapping: EntityMapping, manager: MigrationManager) throws {}

    /// Sets the relationships of one destination object. The default evaluates each relationship
    /// mapping's value expression with `$source` the object's source object (usually
    /// `FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", …)`)
    /// and sets the relationship to what it gives.
    open func createRelationships(forDestination destination: ManagedObject, in mapping: EntityMapping,
                                  manager: MigrationManager) throws {
        let mappings = mapping.relationshipMappings.filter { $0.valueExpression != nil }
        guard !mappings.isEmpty,
              let source = try manager.sourceInstances(forEntityMappingName: mapping.name,
                                                       destinationInstances: [destination]).first else { return }
        for relationshipMapping in mappings {
            guard let expression = relationshipMapping.valueExpression else { continue }
            let value = try manager.evaluate(expression, source: source, destination: destination,
                                             mapping: mapping, property: relationshipMapping.name, policy: self)
            try manager.setValue(value, forKey: relationshipMapping.name, of: destination, mapping: mapping)
        }
    }

    /// Ends the relationship creation of `mapping`. The default does nothing.
    open func endRelationshipCreation(forMapping mapping: EntityMapping, manager: MigrationManager) throws {}

    /// Checks what the model's validation cannot, before the destination objects are validated.
    /// The default does nothing; throw to fail the migration.
    open func performCustomValidation(forMapping mapping: EntityMapping, manager: MigrationManager) throws {}

    /// Ends `mapping`, after validation. The default does nothing.
    open func end(_ mapping: EntityMapping, manager: MigrationManager) throws {}

    /// Answers `FUNCTION($entityPolicy, "selector", arguments…)` in a value expression: override
    /// it and switch on the selector Xcode wrote (`"fullNameForFirst:last:"`), with the
    /// arguments evaluated in order. The default throws
    /// ``MigrationPolicyFunctionError/unknownSelector(_:)``.
    ///
    /// ```swift
    /// override func function(_ selector: String, arguments: [Any?], manager: MigrationManager) throws -> Any? {
    ///     switch selector {
    ///     case "fullNameForFirst:last:": "\(arguments[0] ?? "") \(arguments[1] ?? "")"
    ///     default: try super.function(selector, arguments: arguments, manager: manager)
    ///     }
    /// }
    /// ```
    open func function(_ selector: String, arguments: [Any?], manager: MigrationManager) throws -> Any? {
        throw MigrationPolicyFunctionError.unknownSelector(selector)
    }
}

@available(*, unavailable, message: "A policy is used on the migration manager's thread only.")
extension EntityMigrationPolicy: Sendable {}

/// Why `FUNCTION($entityPolicy, …)` failed in the default policy.
public enum MigrationPolicyFunctionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The policy does not answer this selector.
    case unknownSelector(String)

    /// One line naming the selector.
    public var description: String {
        switch self {
        case .unknownSelector(let selector):
            "the entity migration policy does not answer '\(selector)' (override function(_:arguments:manager:))"
        }
    }
}
