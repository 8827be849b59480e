import StrataCore

extension ModelFileWriter {
    /// `<attribute attributeType="Composite" composite="Definition">` for a composite attribute
    /// (or a nested composite inside a definition).
    func writeCompositeReference(_ composite: CompositeAttributeDescription, to xml: inout XMLTextWriter) throws(ModelFileError) {
        let attributes: XMLTextWriter.Attributes = [
            "name": composite.name,
            "optional": composite.isOptional ? "YES" : nil,
            "attributeType": "Composite",
            "composite": composite.definitionName ?? composite.name,
            "elementID": composite.renamingIdentifier,
            "versionHashModifier": composite.versionHashModifier,
        ]
        if composite.userInfo.isEmpty {
            try xml.empty("attribute", attributes)
        } else {
            try xml.open("attribute", attributes)
            try xml.open("userInfo")
            for key in composite.userInfo.keys.sorted() {
                try xml.empty("entry", ["key": key, "value": composite.userInfo[key]])
            }
            xml.close()
            xml.close()
        }
    }

    /// The model-level `<composite name>` definitions of every composite attribute of `model`,
    /// nested ones included, each once (the first with its name), in model order.
    func writeCompositeDefinitions(of model: ManagedObjectModel, to xml: inout XMLTextWriter) throws(ModelFileError) {
        var written: Set<String> = []
        var pending = model.entities.flatMap { entity in
            entity.compositeAttributes.filter { composite in
                entity.declaredProperties.contains { $0.attribute?.composite?.name == composite.name }
            }.map { (entity, $0) }
        }
        while !pending.isEmpty {
            let (entity, composite) = pending.removeFirst()
            guard written.insert(composite.definitionName ?? composite.name).inserted else { continue }
            if composite.elements.isEmpty {
                try xml.empty("composite", ["name": composite.definitionName ?? composite.name])
                continue
            }
            try xml.open("composite", ["name": composite.definitionName ?? composite.name])
            for element in composite.elements {
                switch element {
                case .attribute(let attribute):
                    try write(attribute, of: entity, to: &xml)
                case .composite(let nested):
                    try writeCompositeReference(nested, to: &xml)
                    pending.append((entity, nested))
                }
            }
            xml.close()
        }
    }
}
