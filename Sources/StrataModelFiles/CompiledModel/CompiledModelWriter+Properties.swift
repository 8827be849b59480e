import Foundation
import StrataCore

extension CompiledModelWriter {
    /// `_P`, the packed flags Core Data archives beside the separate keys: bits 4 to 7 always
    /// set, bit 0 always, bit 1 optional, bit 2 read-only, bit 3 transient, bit 10 ordered
    /// (as in every compiled model of the fixtures).
    static func packedFlags(optional: Bool, readOnly: Bool = false, transient: Bool, ordered: Bool = false) -> Int64 {
        0xF1 | (optional ? 2 : 0) | (readOnly ? 4 : 0) | (transient ? 8 : 0) | (ordered ? 0x400 : 0)
    }

    /// The class name Core Data gives the values of an attribute type.
    static func valueClassName(_ attribute: AttributeDescription) -> String? {
        switch attribute.type {
        case .integer16, .integer32, .integer64, .double, .float, .boolean: "NSNumber"
        case .decimal: "NSDecimalNumber"
        case .string: "NSString"
        case .date: "NSDate"
        case .binaryData: "NSData"
        case .uuid: "NSUUID"
        case .uri: "NSURL"
        case .transformable: attribute.valueClassName
        case .objectID: "NSManagedObjectID"
        }
    }

    /// One property of `entity` (declared or inherited), as object `number`.
    mutating func writeProperty(_ property: PropertyDescription, of entity: EntityDescription, number: Int) {
        let owner = PlistValue.uid(entityNumbers[entity.name] ?? 0)
        switch property {
        case .attribute(let attribute): writeAttribute(attribute, owner: owner, number: number)
        case .relationship(let relationship): writeRelationship(relationship, owner: owner, number: number)
        case .fetchedProperty(let fetched):
            var fields: [String: PlistValue] = [
                "NSPropertyName": archive.string(fetched.name), "NSEntity": owner,
                "_P": .integer(Self.packedFlags(optional: true, readOnly: true, transient: true)),
                "NSIsOptional": .bool(true), "NSIsTransient": .bool(true), "NSIsReadOnly": .bool(true),
                "NSRenamingIdentifier": archive.string(fetched.renamingIdentifier ?? fetched.name),
                "_NSFetchRequestEntityName": archive.string(fetched.destinationEntityName),
                "NSUserInfo": userInfo(fetched.userInfo),
            ]
            fields["NSFetchRequest"] = fetchRequest(entity: fetched.destinationEntityName, predicate: fetched.predicateFormat)
            archive.set(number, className: "NSFetchedPropertyDescription", fields)
        }
    }

    private mutating func writeAttribute(_ attribute: AttributeDescription, owner: PlistValue, number: Int) {
        var flags: Int64 = 0
        if attribute.allowsExternalBinaryDataStorage { flags |= CompiledModelReader.externalBinaryStorageFlag }
        if attribute.preservesValueInHistoryOnDeletion { flags |= CompiledModelReader.preserveAfterDeletionFlag }
        var fields: [String: PlistValue] = [
            "NSPropertyName": archive.string(attribute.name), "NSEntity": owner,
            "_P": .integer(Self.packedFlags(optional: attribute.isOptional, readOnly: attribute.isDerived, transient: attribute.isTransient)),
            "NSAttributeType": .integer(Int64(attribute.type.typeCode)),
            "NSAttributeValueClassName": archive.string(Self.valueClassName(attribute)),
            "NSDefaultValue": defaultValue(attribute.defaultValue),
            "NSValueTransformerName": archive.string(attribute.valueTransformerName),
            "NSFlagsKey": .integer(flags),
            "NSRenamingIdentifier": archive.string(attribute.renamingIdentifier ?? attribute.name),
        ]
        if attribute.isOptional { fields["NSIsOptional"] = .bool(true) }
        if attribute.isTransient { fields["NSIsTransient"] = .bool(true) }
        if attribute.isIndexed { fields["NSIsIndexed"] = .bool(true) }
        if let modifier = attribute.versionHashModifier { fields["NSVersionHashModifier"] = archive.string(modifier) }
        if !attribute.userInfo.isEmpty { fields["NSUserInfo"] = userInfo(attribute.userInfo) }
        let rules = validation(attribute)
        if !rules.isEmpty {
            fields["NSValidationPredicates"] = archive.array(rules.map(\.predicate))
            fields["NSValidationWarnings"] = archive.array(rules.map(\.warning))
        }
        var className = "NSAttributeDescription"
        if let derivation = attribute.derivationExpression {
            className = "NSDerivedAttributeDescription"
            let expression = Self.derivation(derivation)
            fields["NSDerivationExpression"] = self.expression(expression)
            fields["NSIsReadOnly"] = .bool(true)
            fields["NSFilteringPredicate"] = KeyedArchiveWriter.null
            if CompiledModelReader.derivationText(expression) != derivation {
                fields[Self.derivationTextKey] = archive.string(derivation)
            }
        }
        archive.set(number, className: className, fields)
    }

    private mutating func writeRelationship(_ relationship: RelationshipDescription, owner: PlistValue, number: Int) {
        let destination = relationship.destinationEntityName
        let inverse = relationship.inverseName.flatMap { propertyNumbers[destination]?[$0] }
        var fields: [String: PlistValue] = [
            "NSPropertyName": archive.string(relationship.name), "NSEntity": owner,
            "_P": .integer(Self.packedFlags(optional: relationship.isOptional, transient: relationship.isTransient, ordered: relationship.isOrdered)),
            "NSDestinationEntity": .uid(entityNumbers[destination] ?? 0),
            "_NSDestinationEntityName": archive.string(destination),
            "NSInverseRelationship": inverse.map { PlistValue.uid($0) } ?? KeyedArchiveWriter.null,
            "_NSInverseRelationshipName": archive.string(relationship.inverseName),
            "NSMinCount": .integer(Int64(relationship.minCount)), "NSMaxCount": .integer(Int64(relationship.maxCount)),
            "NSDeleteRule": .integer(CompiledModelReader.deleteRules.first { $0.value == relationship.deleteRule }?.key ?? 1),
            "NSRenamingIdentifier": archive.string(relationship.renamingIdentifier ?? relationship.name),
        ]
        if relationship.isOptional { fields["NSIsOptional"] = .bool(true) }
        if relationship.isTransient { fields["NSIsTransient"] = .bool(true) }
        if relationship.isOrdered { fields["NSIsOrdered"] = .bool(true) }
        if let modifier = relationship.versionHashModifier { fields["NSVersionHashModifier"] = archive.string(modifier) }
        if !relationship.userInfo.isEmpty { fields["NSUserInfo"] = userInfo(relationship.userInfo) }
        archive.set(number, className: "NSRelationshipDescription", fields)
    }
}
