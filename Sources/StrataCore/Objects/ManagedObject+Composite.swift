import Foundation

extension ManagedObject {
    /// The value of the composite attribute (or nested composite) at `path` as a dictionary of
    /// element name to value, nested composites as dictionaries; nil when every element is nil.
    func compositeValue(_ path: String) throws -> [String: Any]? {
        try fulfillFault()
        try checkUsable()
        return try entity.compositeDictionary(path) { attribute in try value(forKey: attribute.name) }
    }

    /// Sets the composite attribute (or nested composite) at `path` from a dictionary of element
    /// name to value: every element is checked first, then each element attribute is set (an
    /// element the dictionary leaves out becomes nil), so a bad dictionary changes nothing.
    func setCompositeValue(_ value: Any?, path: String) throws {
        var assignments: [(key: String, value: AttributeValue?)] = []
        try collectComposite(value, path: path, into: &assignments)
        try fulfillFault()
        try checkMutable()
        for (key, stored) in assignments where attributeValues[key] != stored {
            contextLink?.undoRecorder?.attributeWillChange(self, key, from: attributeValues[key])
            keepCommittedAttributes()
            attributeValues[key] = stored
            markChanged()
        }
    }

    private func collectComposite(_ value: Any?, path: String, into assignments: inout [(key: String, value: AttributeValue?)]) throws {
        let prefix = path + "."
        let elements = entity.attributes.filter { $0.composite != nil && $0.name.hasPrefix(prefix) }
        guard let value = value.flatMap(unwrappedOptional) else {
            for element in elements { assignments.append((element.name, nil)) }
            return
        }
        guard let dictionary = Self.compositeEntries(value) else {
            throw ObjectError.wrongCompositeValue(entity: entity.name, attribute: path, found: "\(type(of: value))")
        }
        for key in dictionary.keys.sorted() where entity.attributesByName[prefix + key] == nil && !entity.isCompositePath(prefix + key) {
            throw ObjectError.unknownCompositeElement(entity: entity.name, attribute: path, element: key)
        }
        var nested: Set<String> = []
        for element in elements {
            let rest = element.name.dropFirst(prefix.count)
            let key = String(rest.prefix { $0 != "." })
            if rest.count != key.count {
                guard nested.insert(key).inserted else { continue }
                try collectComposite(dictionary[key] ?? nil, path: prefix + key, into: &assignments)
                continue
            }
            let stored = try (dictionary[key] ?? nil).flatMap(unwrappedOptional).map {
                try AttributeValue.make(from: $0, for: element, entity: entity.name)
            }
            assignments.append((element.name, stored))
        }
    }

    /// The entries of a composite's dictionary value (`[String: Any]` or `[String: Any?]`).
    private static func compositeEntries(_ value: Any) -> [String: Any?]? {
        if let dictionary = value as? [String: Any?] { return dictionary }
        if let dictionary = value as? [String: Any] { return dictionary.mapValues { $0 } }
        return nil
    }
}
