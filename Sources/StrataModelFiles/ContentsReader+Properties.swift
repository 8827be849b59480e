import StrataCore

extension ContentsReader {
    /// `<attribute>`; `nil` (with a warning) for a type Strata has no case for.
    mutating func attribute(from node: XMLTree, entity: String) throws(ModelFileError) -> AttributeDescription? {
        let name = try required("name", of: node)
        let typeName = try required("attributeType", of: node)
        guard let type = AttributeType(rawValue: typeName) else {
            warn(node, .unsupportedAttributeType(entity: entity, attribute: name, type: typeName))
            return nil
        }
        checkAttributes(
            of: node,
            known: [
                "name", "attributeType", "optional", "transient", "indexed", "defaultValueString",
                "defaultDateTimeInterval", "minValueString", "maxValueString", "minDateTimeInterval",
                "maxDateTimeInterval", "regularExpressionString", "valueTransformerName", "customClassName",
                "allowsExternalBinaryDataStorage", "preserveAfterDeletion", "elementID", "versionHashModifier",
                "derived", "derivationExpression",
            ],
            ignored: Vocabulary.attributeIgnored, flags: Vocabulary.attributeUnsupportedFlags)

        var attribute = AttributeDescription(
            name: name, type: type,
            isOptional: flag("optional", of: node),
            isTransient: flag("transient", of: node),
            isIndexed: flag("indexed", of: node),
            regularExpression: node.attributes["regularExpressionString"],
            valueTransformerName: node.attributes["valueTransformerName"],
            valueClassName: node.attributes["customClassName"],
            allowsExternalBinaryDataStorage: flag("allowsExternalBinaryDataStorage", of: node),
            preservesValueInHistoryOnDeletion: flag("preserveAfterDeletion", of: node),
            renamingIdentifier: node.attributes["elementID"],
            versionHashModifier: node.attributes["versionHashModifier"])

        // Bounds: dates as seconds since 2001 in *DateTimeInterval, everything else in *ValueString
        // (numbers, or lengths for strings and binary data).
        let (minimumKey, maximumKey) = type == .date
            ? ("minDateTimeInterval", "maxDateTimeInterval") : ("minValueString", "maxValueString")
        attribute.minimum = bound(minimumKey, fallback: "minValueString", of: node)
        attribute.maximum = bound(maximumKey, fallback: "maxValueString", of: node)

        let defaultKey = type == .date && node.attributes["defaultDateTimeInterval"] != nil
            ? "defaultDateTimeInterval" : "defaultValueString"
        if let text = node.attributes[defaultKey] {
            if let value = ModelFileValues.defaultValue(text, type: type) {
                attribute.defaultValue = value
            } else {
                warn(node, .invalidDefaultValue(entity: entity, attribute: name, value: text))
            }
        }
        if type != .date, let text = node.attributes["defaultDateTimeInterval"] {
            warn(node, .invalidValue(element: node.name, attribute: "defaultDateTimeInterval", value: text))
        }

        if flag("derived", of: node) {
            if let expression = node.attributes["derivationExpression"], !expression.isEmpty {
                attribute.derivationExpression = expression
            } else {
                warn(node, .invalidValue(element: node.name, attribute: "derivationExpression", value: ""))
            }
        } else if let expression = node.attributes["derivationExpression"] {
            warn(node, .invalidValue(element: node.name, attribute: "derivationExpression", value: expression))
        }

        for child in node.children {
            if child.name == "userInfo" {
                attribute.userInfo.merge(userInfo(from: child), uniquingKeysWith: { _, last in last })
            } else {
                warn(child, .unknownElement(element: child.name, parent: node.name))
            }
        }
        return attribute
    }

    /// A minimum or maximum, from `key` or (for dates written the old way) `fallback`.
    private mutating func bound(_ key: String, fallback: String, of node: XMLTree) -> Double? {
        let usedKey = node.attributes[key] != nil ? key : fallback
        guard let text = node.attributes[usedKey] else { return nil }
        guard let value = ModelFileValues.number(text) else {
            warn(node, .invalidValue(element: node.name, attribute: usedKey, value: text))
            return nil
        }
        return value
    }

    /// `<relationship>`.
    mutating func relationship(from node: XMLTree, entity: String) throws(ModelFileError) -> RelationshipDescription {
        checkAttributes(
            of: node,
            known: [
                "name", "destinationEntity", "inverseName", "toMany", "ordered", "optional", "minCount",
                "maxCount", "deletionRule", "transient", "elementID", "versionHashModifier",
            ],
            ignored: Vocabulary.relationshipIgnored, flags: Vocabulary.relationshipUnsupportedFlags)
        let name = try required("name", of: node)
        let destination = try required("destinationEntity", of: node)

        let toMany = flag("toMany", of: node)
        var deleteRule = DeleteRule.nullify
        if let text = node.attributes["deletionRule"] {
            if let rule = DeleteRule(rawValue: text) {
                deleteRule = rule
            } else {
                warn(node, .invalidValue(element: node.name, attribute: "deletionRule", value: text))
            }
        }
        var relationship = RelationshipDescription(
            name: name, destination: destination, inverse: node.attributes["inverseName"],
            toMany: toMany, isOrdered: flag("ordered", of: node),
            minCount: count("minCount", of: node) ?? 0,
            maxCount: count("maxCount", of: node) ?? (toMany ? 0 : 1),
            deleteRule: deleteRule,
            isOptional: flag("optional", of: node),
            isTransient: flag("transient", of: node),
            renamingIdentifier: node.attributes["elementID"],
            versionHashModifier: node.attributes["versionHashModifier"])
        for child in node.children {
            if child.name == "userInfo" {
                relationship.userInfo.merge(userInfo(from: child), uniquingKeysWith: { _, last in last })
            } else {
                warn(child, .unknownElement(element: child.name, parent: node.name))
            }
        }
        return relationship
    }

    /// A relationship count (`minCount`, `maxCount`).
    private mutating func count(_ key: String, of node: XMLTree) -> Int? {
        guard let text = node.attributes[key] else { return nil }
        guard let value = ModelFileValues.integer(text) else {
            warn(node, .invalidValue(element: node.name, attribute: key, value: text))
            return nil
        }
        return value
    }

    /// `<fetchedProperty name><fetchRequest entity predicateString/></fetchedProperty>`.
    mutating func fetchedProperty(from node: XMLTree) throws(ModelFileError) -> FetchedPropertyDescription {
        checkAttributes(of: node, known: ["name", "elementID"], ignored: Vocabulary.fetchedPropertyIgnored)
        let name = try required("name", of: node)
        var request: XMLTree?
        var info: [String: String] = [:]
        for child in node.children {
            switch child.name {
            case "fetchRequest" where request == nil:
                request = child
            case "userInfo":
                info.merge(userInfo(from: child), uniquingKeysWith: { _, last in last })
            default:
                warn(child, .unknownElement(element: child.name, parent: node.name))
            }
        }
        guard let request else {
            throw .missingElement(file: file, line: node.line, element: node.name, child: "fetchRequest")
        }
        checkAttributes(of: request, known: ["entity", "predicateString"], ignored: ["name"])
        checkNoChildren(of: request)
        return FetchedPropertyDescription(
            name: name, destination: try required("entity", of: request),
            predicateFormat: request.attributes["predicateString"], userInfo: info,
            renamingIdentifier: node.attributes["elementID"])
    }
}
