import StrataCore

extension ContentsReader {
    /// `<attribute attributeType="Composite" composite="Definition">` with the model-level
    /// `<composite name="Definition">` it names, nested composites included. `using` lists the
    /// definitions already being read around this one (a definition that contains itself is an
    /// error). Nil, with a warning, for a composite with no definition.
    mutating func compositeAttribute(
        from node: XMLTree, entity: String, using: [String]
    ) throws(ModelFileError) -> CompositeAttributeDescription? {
        checkAttributes(of: node, known: ["name", "attributeType", "composite", "optional", "elementID", "versionHashModifier"],
                        ignored: Vocabulary.attributeIgnored)
        let name = try required("name", of: node)
        let definitionName = try required("composite", of: node)
        guard let definition = compositeDefinitions[definitionName] else {
            warn(node, .unsupportedAttributeType(entity: entity, attribute: name, type: "Composite '\(definitionName)' (no <composite> definition)"))
            return nil
        }
        guard !using.contains(definitionName) else {
            throw .notAModel(file: file, reason: "composite '\(definitionName)' contains itself (through \(using.joined(separator: " → ")))")
        }
        var elements: [CompositeAttributeDescription.Element] = []
        for child in definition.children {
            switch child.name {
            case "attribute" where child.attributes["attributeType"] == "Composite":
                if let nested = try compositeAttribute(from: child, entity: entity, using: using + [definitionName]) {
                    elements.append(.composite(nested))
                }
            case "attribute":
                if let attribute = try attribute(from: child, entity: entity) { elements.append(.attribute(attribute)) }
            default:
                warn(child, .unknownElement(element: child.name, parent: definition.name))
            }
        }
        var userInfo: [String: String] = [:]
        for child in node.children where child.name == "userInfo" {
            userInfo.merge(self.userInfo(from: child), uniquingKeysWith: { _, last in last })
        }
        return CompositeAttributeDescription(
            name: name, isOptional: flag("optional", of: node), renamingIdentifier: node.attributes["elementID"],
            versionHashModifier: node.attributes["versionHashModifier"], userInfo: userInfo,
            definitionName: definitionName == name ? nil : definitionName, elements: elements)
    }
}
