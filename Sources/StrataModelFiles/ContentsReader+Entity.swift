import StrataCore

extension ContentsReader {
    /// `<entity>` with its properties, user info, constraints and indexes.
    mutating func entity(from node: XMLTree) throws(ModelFileError) -> EntityDescription {
        checkAttributes(
            of: node,
            known: ["name", "representedClassName", "parentEntity", "isAbstract", "elementID", "versionHashModifier"],
            ignored: Vocabulary.entityIgnored, unsupported: Vocabulary.entityUnsupported)
        let name = try required("name", of: node)
        entityLines[name] = node.line
        if let setting = node.attributes["codeGenerationType"].flatMap(EntityCodeGeneration.init(rawValue:)) {
            codeGeneration[name] = setting
        }

        var entity = EntityDescription(
            name, parent: node.attributes["parentEntity"], isAbstract: flag("isAbstract", of: node),
            managedObjectClassName: node.attributes["representedClassName"],
            renamingIdentifier: node.attributes["elementID"],
            versionHashModifier: node.attributes["versionHashModifier"])
        var compoundIndexes: [[String]] = []
        for child in node.children {
            switch child.name {
            case "attribute" where child.attributes["attributeType"] == "Composite":
                if let composite = try compositeAttribute(from: child, entity: name, using: []) {
                    for attribute in composite.storedAttributes {
                        entity.declaredProperties.append(.attribute(attribute))
                        propertyLines[name, default: [:]][attribute.name] = child.line
                    }
                }
            case "attribute":
                if let attribute = try attribute(from: child, entity: name) {
                    entity.declaredProperties.append(.attribute(attribute))
                    propertyLines[name, default: [:]][attribute.name] = child.line
                }
            case "relationship":
                let relationship = try relationship(from: child, entity: name)
                entity.declaredProperties.append(.relationship(relationship))
                propertyLines[name, default: [:]][relationship.name] = child.line
            case "fetchedProperty":
                let fetched = try fetchedProperty(from: child)
                entity.declaredProperties.append(.fetchedProperty(fetched))
                propertyLines[name, default: [:]][fetched.name] = child.line
            case "userInfo":
                entity.userInfo.merge(userInfo(from: child), uniquingKeysWith: { _, last in last })
            case "uniquenessConstraints":
                entity.uniquenessConstraints += try uniquenessConstraints(from: child)
            case "fetchIndex":
                if let index = try fetchIndex(from: child, entity: name) { entity.indexes.append(index) }
            case "compoundIndexes":
                compoundIndexes += try self.compoundIndexes(from: child)
            default:
                warn(child, .unknownElement(element: child.name, parent: node.name))
            }
        }
        // Legacy compound indexes become fetch indexes with made-up names that clash with none.
        var taken = Set(entity.indexes.map(\.name))
        for (number, properties) in compoundIndexes.enumerated() {
            var indexName = Self.compoundIndexName(number)
            while taken.contains(indexName) { indexName += "_" }
            taken.insert(indexName)
            entity.indexes.append(FetchIndexDescription(
                name: indexName, elements: properties.map { FetchIndexDescription.Element(property: $0) }))
        }
        return entity
    }

    /// The name a legacy compound index gets: `compoundIndex`, `compoundIndex2`, `compoundIndex3`, …
    static func compoundIndexName(_ number: Int) -> String {
        number == 0 ? "compoundIndex" : "compoundIndex\(number + 1)"
    }

    /// `<userInfo><entry key value/>…</userInfo>`.
    mutating func userInfo(from node: XMLTree) -> [String: String] {
        checkAttributes(of: node, known: [])
        var info: [String: String] = [:]
        for child in node.children {
            guard child.name == "entry" else {
                warn(child, .unknownElement(element: child.name, parent: node.name))
                continue
            }
            checkAttributes(of: child, known: ["key", "value"])
            checkNoChildren(of: child)
            guard let key = child.attributes["key"] else {
                warn(child, .invalidValue(element: "entry", attribute: "key", value: ""))
                continue
            }
            info[key] = child.attributes["value"] ?? ""
        }
        return info
    }

    /// `<uniquenessConstraints><uniquenessConstraint><constraint value/>…`.
    private mutating func uniquenessConstraints(from node: XMLTree) throws(ModelFileError) -> [[String]] {
        checkAttributes(of: node, known: [])
        var constraints: [[String]] = []
        for group in node.children {
            guard group.name == "uniquenessConstraint" else {
                warn(group, .unknownElement(element: group.name, parent: node.name))
                continue
            }
            checkAttributes(of: group, known: [])
            var properties: [String] = []
            for child in group.children {
                guard child.name == "constraint" else {
                    warn(child, .unknownElement(element: child.name, parent: group.name))
                    continue
                }
                checkAttributes(of: child, known: ["value"])
                checkNoChildren(of: child)
                properties.append(try required("value", of: child))
            }
            if !properties.isEmpty { constraints.append(properties) }
        }
        return constraints
    }

    /// `<fetchIndex name><fetchIndexElement property type order/>…`; `nil` when no element is left.
    private mutating func fetchIndex(from node: XMLTree, entity: String) throws(ModelFileError) -> FetchIndexDescription? {
        checkAttributes(of: node, known: ["name"])
        let name = try required("name", of: node)
        var elements: [FetchIndexDescription.Element] = []
        for child in node.children {
            guard child.name == "fetchIndexElement" else {
                warn(child, .unknownElement(element: child.name, parent: node.name))
                continue
            }
            checkAttributes(of: child, known: ["property", "type", "order", "expression", "expressionType"])
            checkNoChildren(of: child)
            guard let property = child.attributes["property"], !property.isEmpty else {
                if let expression = child.attributes["expression"] {
                    warn(child, .unsupportedFeature(element: "fetchIndexElement", feature: "an expression index element ('\(expression)')"))
                    continue
                }
                throw .missingAttribute(file: file, line: child.line, element: child.name, attribute: "property")
            }
            switch child.attributes["type"] {
            case nil, "Binary"?: break
            case "RTree"?:
                warn(child, .unsupportedFeature(element: "fetchIndexElement", feature: "an R-tree index (read as an ordinary index)"))
            case let other?:
                warn(child, .invalidValue(element: child.name, attribute: "type", value: other))
            }
            var ascending = true
            switch child.attributes["order"] {
            case nil, "ascending"?: break
            case "descending"?: ascending = false
            case let other?: warn(child, .invalidValue(element: child.name, attribute: "order", value: other))
            }
            elements.append(FetchIndexDescription.Element(property: property, ascending: ascending))
        }
        guard !elements.isEmpty else {
            warn(node, .droppedIndex(entity: entity, index: name))
            return nil
        }
        return FetchIndexDescription(name: name, elements: elements)
    }

    /// Legacy `<compoundIndexes><compoundIndex><index value/>…`: each compound index's properties.
    private mutating func compoundIndexes(from node: XMLTree) throws(ModelFileError) -> [[String]] {
        checkAttributes(of: node, known: [])
        var indexes: [[String]] = []
        for group in node.children {
            guard group.name == "compoundIndex" else {
                warn(group, .unknownElement(element: group.name, parent: node.name))
                continue
            }
            checkAttributes(of: group, known: [])
            var properties: [String] = []
            for child in group.children {
                guard child.name == "index" else {
                    warn(child, .unknownElement(element: child.name, parent: group.name))
                    continue
                }
                checkAttributes(of: child, known: ["value"])
                checkNoChildren(of: child)
                properties.append(try required("value", of: child))
            }
            if !properties.isEmpty { indexes.append(properties) }
        }
        return indexes
    }
}
