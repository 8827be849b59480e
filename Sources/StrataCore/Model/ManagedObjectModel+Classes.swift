extension ManagedObjectModel {
    /// A model of the entities `classes` describe (`@Managed` classes), in the order given.
    ///
    /// - Throws: ``ModelError`` naming the entity and property at fault, as the DSL's model does.
    public convenience init(classes: [any EntityDescribing.Type], configurations: [String: [String]] = [:]) throws {
        try self.init(entities: classes.map { $0.entityDescription }, configurations: configurations)
    }

    /// Checks that every class's declarations fit this model (a model from a file, say): its
    /// entity exists, and each declared property exists with the same kind, attribute type,
    /// optional-ness, destination and to-many kind. Properties of the entity that the class does
    /// not declare are not checked.
    ///
    /// - Throws: the first ``ModelClassMismatch``, naming class, property and entity.
    public func check(classes: [any EntityDescribing.Type]) throws {
        for type in classes {
            let className = String(describing: type)
            let declared = type.entityDescription
            guard let entity = entity(named: declared.name) else {
                throw ModelClassMismatch.missingEntity(class: className, entity: declared.name)
            }
            for property in declared.declaredProperties {
                try Self.check(property, of: className, against: entity)
            }
        }
    }

    private static func check(_ property: PropertyDescription, of className: String, against entity: EntityDescription) throws {
        let name = property.name
        let attributes = entity.attributesByName
        let relationships = entity.relationshipsByName
        switch property {
        case .attribute(let declared):
            let attribute = try counterpart(attributes[name], of: name, declared: "an attribute", otherKind: "a relationship",
                                            otherKindExists: relationships[name] != nil, className: className, entity: entity)
            guard attribute.type == declared.type else {
                throw ModelClassMismatch.wrongType(class: className, property: name, entity: entity.name,
                                                   expected: attribute.type, found: declared.type)
            }
            guard attribute.isOptional == declared.isOptional else {
                throw ModelClassMismatch.optionality(class: className, property: name, entity: entity.name,
                                                     modelOptional: attribute.isOptional)
            }
        case .relationship(let declared):
            let relationship = try counterpart(relationships[name], of: name, declared: "a relationship", otherKind: "an attribute",
                                               otherKindExists: attributes[name] != nil, className: className, entity: entity)
            guard relationship.destinationEntityName == declared.destinationEntityName else {
                throw ModelClassMismatch.wrongDestination(class: className, property: name, entity: entity.name,
                                                          expected: relationship.destinationEntityName,
                                                          found: declared.destinationEntityName)
            }
            guard kind(of: relationship) == kind(of: declared) else {
                throw ModelClassMismatch.toManyKind(class: className, property: name, entity: entity.name,
                                                    expected: kind(of: relationship), found: kind(of: declared))
            }
            if !relationship.isToMany, relationship.isOptional != declared.isOptional {
                throw ModelClassMismatch.optionality(class: className, property: name, entity: entity.name,
                                                     modelOptional: relationship.isOptional)
            }
        case .fetchedProperty:
            break
        }
    }

    /// The entity's property `name` of the kind the class declares (`found`); else the mismatch:
    /// the entity has `name` as the other kind, or no property of that name.
    private static func counterpart<Property>(
        _ found: Property?, of name: String, declared: String, otherKind: String, otherKindExists: Bool,
        className: String, entity: EntityDescription
    ) throws -> Property {
        if let found { return found }
        if otherKindExists {
            throw ModelClassMismatch.wrongKind(class: className, property: name, entity: entity.name, expected: otherKind, found: declared)
        }
        throw ModelClassMismatch.missingProperty(class: className, property: name, entity: entity.name)
    }

    private static func kind(of relationship: RelationshipDescription) -> String {
        relationship.isToMany ? (relationship.isOrdered ? "ordered to-many" : "unordered to-many") : "to-one"
    }
}
