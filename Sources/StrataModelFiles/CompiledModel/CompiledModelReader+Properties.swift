import Foundation
import StrataCore

extension CompiledModelReader {
    /// `NSDeleteRule`'s values (Core Data's `NSDeleteRule` enumeration).
    static let deleteRules: [Int64: DeleteRule] = [0: .noAction, 1: .nullify, 2: .cascade, 3: .deny]

    /// Bits of an attribute's `NSFlagsKey`: storing large binary values beside the store (bit 2,
    /// as in the 10.7 SDK's flag layout) and keeping the value in history after deletion (bit 4).
    static let externalBinaryStorageFlag: Int64 = 1 << 2
    static let preserveAfterDeletionFlag: Int64 = 1 << 4

    /// One archived property; `nil` for a transient attribute of a type Strata has no case for
    /// (`Undefined`), which no store holds and no hash includes.
    func property(_ value: PlistValue, named key: String, in entity: String) throws(CompiledModelError) -> PropertyDescription? {
        let owner = "property \(entity).\(key)"
        let archived = try object(value, "NSPropertyDescription", for: owner)
        let classes = try reading(owner) { () throws(PlistError) in try archive.classes(of: archived) }
        let name = try requiredString("NSPropertyName", in: archived, of: owner)
        guard name == key else { throw .invalidObject(object: owner, reason: "it is filed under another name than its own, \(name)") }
        if classes.contains("NSRelationshipDescription") {
            return .relationship(try relationship(archived, named: name, of: "relationship \(entity).\(name)"))
        }
        if classes.contains("NSFetchedPropertyDescription") {
            return .fetchedProperty(try fetchedProperty(archived, named: name, of: "fetched property \(entity).\(name)"))
        }
        if classes.contains("NSAttributeDescription") {
            return try attribute(archived, named: name, derived: classes.contains("NSDerivedAttributeDescription"),
                                 of: "attribute \(entity).\(name)").map(PropertyDescription.attribute)
        }
        throw .invalidObject(object: owner, reason: "it is a \(classes[0]), not an attribute, relationship or fetched property")
    }

    /// The flags every property has.
    private func flags(_ archived: [String: PlistValue], of owner: String) throws(CompiledModelError) -> (optional: Bool, transient: Bool) {
        try reading(owner) { () throws(PlistError) in
            (try archive.flag("NSIsOptional", in: archived), try archive.flag("NSIsTransient", in: archived))
        }
    }

    /// An `NSAttributeDescription` (or `NSDerivedAttributeDescription`).
    func attribute(_ archived: [String: PlistValue], named name: String, derived: Bool, of owner: String) throws(CompiledModelError) -> AttributeDescription? {
        let (isOptional, isTransient) = try flags(archived, of: owner)
        let typeCode = try reading(owner) { () throws(PlistError) in try archive.integer("NSAttributeType", in: archived) }
        guard let typeCode else { throw .invalidObject(object: owner, reason: "it has no NSAttributeType") }
        guard let type = AttributeType.allCases.first(where: { Int64($0.typeCode) == typeCode }) else {
            if isTransient && !derived { return nil }
            throw .invalidObject(object: owner, reason: "attribute type \(typeCode) is not one Strata supports")
        }
        let flags = try reading(owner) { () throws(PlistError) in try archive.integer("NSFlagsKey", in: archived) } ?? 0
        var attribute = AttributeDescription(
            name: name, type: type, isOptional: isOptional, isTransient: isTransient,
            isIndexed: try reading(owner) { () throws(PlistError) in try archive.flag("NSIsIndexed", in: archived) },
            valueTransformerName: try optionalString("NSValueTransformerName", in: archived, of: owner),
            valueClassName: type == .transformable ? try optionalString("NSAttributeValueClassName", in: archived, of: owner) : nil,
            allowsExternalBinaryDataStorage: flags & Self.externalBinaryStorageFlag != 0,
            preservesValueInHistoryOnDeletion: flags & Self.preserveAfterDeletionFlag != 0,
            userInfo: try userInfo(archived, of: owner),
            renamingIdentifier: try renamingIdentifier(archived, name: name, of: owner),
            versionHashModifier: try optionalString("NSVersionHashModifier", in: archived, of: owner))
        attribute.defaultValue = try defaultValue(archived, type: type, of: owner)
        if derived {
            let expression = try reading(owner) { () throws(PlistError) in
                guard let value = archived["NSDerivationExpression"] else { throw PlistError("a derived attribute without NSDerivationExpression") }
                return try archive.expression(value, depth: 0)
            }
            attribute.derivationExpression = try optionalString(CompiledModelWriter.derivationTextKey, in: archived, of: owner)
                ?? Self.derivationText(expression)
        }
        try readValidation(archived, into: &attribute, of: owner)
        return attribute
    }

    /// A derivation as Xcode writes it: `pages.@count` for an aggregate of a key path, the
    /// expression format (`lowercase:(name)`, `now()`) for other functions, the path for a key path.
    static func derivationText(_ expression: ArchivedExpression) -> String {
        let operators = ["count": "@count", "sum": "@sum", "average": "@avg", "min": "@min", "max": "@max"]
        switch expression {
        case let .builtInFunction(name, arguments):
            if arguments.count == 1, case .keyPath(.evaluatedObject, let path) = arguments[0], let suffix = operators[name] {
                return "\(path).\(suffix)"
            }
            return "\(name):(" + arguments.map(derivationText).joined(separator: ", ") + ")"
        default:
            return expression.format
        }
    }

    /// An `NSRelationshipDescription`.
    func relationship(_ archived: [String: PlistValue], named name: String, of owner: String) throws(CompiledModelError) -> RelationshipDescription {
        let (isOptional, isTransient) = try flags(archived, of: owner)
        var destination = try optionalString("_NSDestinationEntityName", in: archived, of: owner)
        if destination == nil { destination = try entityName(of: archived["NSDestinationEntity"], for: owner) }
        guard let destination else { throw .invalidObject(object: owner, reason: "it has no destination entity") }
        var inverse = try optionalString("_NSInverseRelationshipName", in: archived, of: owner)
        if inverse == nil, let reference = archived["NSInverseRelationship"],
           try reading(owner, { () throws(PlistError) in try archive.resolve(reference) }) != nil {
            let inverseObject = try object(reference, "NSRelationshipDescription", for: owner)
            inverse = try requiredString("NSPropertyName", in: inverseObject, of: owner)
        }
        let counts = try reading(owner) { () throws(PlistError) in
            (try archive.integer("NSMinCount", in: archived) ?? 0, try archive.integer("NSMaxCount", in: archived) ?? 1,
             try archive.integer("NSDeleteRule", in: archived) ?? 1, try archive.flag("NSIsOrdered", in: archived))
        }
        guard let deleteRule = Self.deleteRules[counts.2] else {
            throw .invalidObject(object: owner, reason: "delete rule \(counts.2) is none of Core Data's")
        }
        guard let minCount = Int(exactly: counts.0), let maxCount = Int(exactly: counts.1), minCount >= 0, maxCount >= -1 else {
            throw .invalidObject(object: owner, reason: "counts \(counts.0)…\(counts.1) are out of range")
        }
        // An unbounded to-many is archived with NSMaxCount 0 or -1; the version hash takes the
        // number as archived, and Strata reads any count below 1 as unbounded.
        return RelationshipDescription(
            name: name, destination: destination, inverse: inverse, isOrdered: counts.3,
            minCount: minCount, maxCount: maxCount, deleteRule: deleteRule,
            isOptional: isOptional, isTransient: isTransient,
            userInfo: try userInfo(archived, of: owner),
            renamingIdentifier: try renamingIdentifier(archived, name: name, of: owner),
            versionHashModifier: try optionalString("NSVersionHashModifier", in: archived, of: owner))
    }

    /// An `NSFetchedPropertyDescription`: its fetch's entity and predicate.
    func fetchedProperty(_ archived: [String: PlistValue], named name: String, of owner: String) throws(CompiledModelError) -> FetchedPropertyDescription {
        let request = try fetchRequest(archived["NSFetchRequest"], for: owner,
                                       entityName: try optionalString("_NSFetchRequestEntityName", in: archived, of: owner))
        return FetchedPropertyDescription(
            name: name, destination: request.entityName, predicateFormat: request.predicateFormat,
            userInfo: try userInfo(archived, of: owner),
            renamingIdentifier: try renamingIdentifier(archived, name: name, of: owner))
    }

    /// An archived `NSFetchRequest`: the entity it fetches and its predicate's format.
    func fetchRequest(_ value: PlistValue?, for owner: String, entityName known: String? = nil) throws(CompiledModelError) -> (entityName: String, predicateFormat: String?) {
        let request = try object(value, "NSFetchRequest", for: owner)
        var entityName = known
        if entityName == nil { entityName = try optionalString("NSEntityName", in: request, of: owner) }
        if entityName == nil { entityName = try self.entityName(of: request["NSEntity"], for: owner) }
        guard let entityName else { throw .invalidObject(object: owner, reason: "its fetch request names no entity") }
        let predicate = try reading(owner) { () throws(PlistError) -> String? in
            if let format = try archive.string(CompiledModelWriter.predicateFormatKey, in: request) { return format }
            guard let value = request["NSPredicate"], try archive.resolve(value) != nil else { return nil }
            return try archive.predicateFormat(value, depth: 0)
        }
        return (entityName, predicate)
    }
}
