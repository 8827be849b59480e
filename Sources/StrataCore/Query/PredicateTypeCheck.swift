import Foundation

/// Refuses a predicate that compares values of kinds that never compare (`year == "x"` with
/// `year` an Integer 16, `name > 5` with `name` a String, a date with a string), before any store
/// runs it: such a comparison would answer nothing on one store and fail on another. What Core
/// Data accepts stays accepted: numbers and Booleans with each other, `nil` with anything, strings
/// with strings, `IN` and `BETWEEN` with collections whose elements fit, key paths through
/// relationships as their destination attribute's type, `@count` as a number, objects with
/// objects and IDs. What cannot be told before running (aggregates, functions, variables,
/// transformable values, unknown keys) is never refused here.
struct PredicateTypeCheck {
    let model: ManagedObjectModel

    /// The kind of value an expression yields, as far as it can be told from the model.
    enum Kind: Equatable, CustomStringConvertible {
        case unknown, null, number, boolean, string, date, data, uuid, url, object
        /// A constant collection (`{1, 2}`, an array argument), with its elements' kinds.
        case collection([Kind])

        var description: String {
            switch self {
            case .unknown: "a value"
            case .null: "nil"
            case .number: "a number"
            case .boolean: "a Boolean"
            case .string: "a string"
            case .date: "a date"
            case .data: "binary data"
            case .uuid: "a UUID"
            case .url: "a URI"
            case .object: "an object"
            case .collection: "a collection"
            }
        }

        /// Whether two scalar kinds can be compared.
        func compares(with other: Kind) -> Bool {
            switch (self, other) {
            case (.unknown, _), (_, .unknown), (.null, _), (_, .null): true
            case (.number, .number), (.number, .boolean), (.boolean, .number), (.boolean, .boolean): true
            // UUIDs and URIs have a text form a string may be compared with.
            case (.string, .string), (.string, .uuid), (.uuid, .string), (.string, .url), (.url, .string): true
            case (.date, .date), (.data, .data), (.uuid, .uuid), (.url, .url), (.object, .object): true
            case (.collection(let elements), _): elements.allSatisfy { $0.compares(with: other) }
            case (_, .collection(let elements)): elements.allSatisfy { self.compares(with: $0) }
            default: false
            }
        }
    }

    /// Throws ``FetchRequestError/mismatchedComparison(entity:key:keyType:predicate:found:)`` for
    /// the first comparison in `predicate` whose sides cannot compare, on objects of `entity`.
    func check(_ predicate: ObjectPredicate, entity: EntityDescription) throws {
        switch predicate {
        case .truePredicate, .falsePredicate: return
        case .and(let items), .or(let items):
            for item in items { try check(item, entity: entity) }
        case .not(let item): try check(item, entity: entity)
        case .comparison(let comparison): try check(comparison, entity: entity)
        }
    }

    private func check(_ comparison: ObjectPredicate.Comparison, entity: EntityDescription) throws {
        let left = kind(of: comparison.left, entity: entity)
        let right = kind(of: comparison.right, entity: entity)
        let fits: Bool
        switch comparison.operation {
        case .beginsWith, .endsWith, .like, .matches:
            fits = Self.isText(left) && Self.isText(right)
        case .contains:
            // `name CONTAINS 'x'` on strings; `pets CONTAINS obj` on a to-many (an unknown kind here).
            fits = Self.isText(left) && Self.isText(right) || left == .object || left == .unknown
        case .in:
            switch right {
            case .collection(let elements): fits = elements.allSatisfy { left.compares(with: $0) }
            // `'li' IN name`: a substring of a string.
            case .string: fits = Self.isText(left)
            default: fits = true
            }
        case .between:
            fits = left.compares(with: right)
        case .equalTo, .notEqualTo, .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo:
            fits = left.compares(with: right)
        }
        guard !fits else { return }
        // Name the key path (and its type) when one side is one.
        let (keySide, otherSide) = Self.isKeyPath(comparison.left) || !Self.isKeyPath(comparison.right)
            ? (comparison.left, right) : (comparison.right, left)
        throw FetchRequestError.mismatchedComparison(
            entity: entity.name, key: Self.name(of: keySide), keyType: typeName(of: keySide, entity: entity),
            predicate: ObjectPredicate.comparison(comparison).description, found: otherSide.description)
    }

    private static func isText(_ kind: Kind) -> Bool {
        switch kind {
        case .unknown, .null, .string, .uuid, .url: true
        case .collection(let elements): elements.allSatisfy(isText)
        default: false
        }
    }

    private static func isKeyPath(_ expression: ObjectExpression) -> Bool {
        if case .keyPath = expression { return true }
        return false
    }

    private static func name(of expression: ObjectExpression) -> String {
        if case .keyPath(let path) = expression { return path }
        return expression.description
    }

    private func typeName(of expression: ObjectExpression, entity: EntityDescription) -> String {
        if case .keyPath(let path) = expression, let type = attributeType(path, entity: entity) { return type.rawValue }
        return kind(of: expression, entity: entity).description
    }

    // MARK: Kinds

    func kind(of expression: ObjectExpression, entity: EntityDescription) -> Kind {
        switch expression {
        case .constant(let value): return Self.kind(of: value)
        case .evaluatedObject: return .object
        case .keyPath(let path): return kind(ofKeyPath: path, entity: entity)
        case .aggregate(let items):
            return .collection(items.map { kind(of: $0, entity: entity) })
        case .element(_, .size): return .number
        case .variable, .keyPathOf, .element, .subquery: return .unknown
        }
    }

    static func kind(of value: PredicateValue) -> Kind {
        switch value {
        case .null: .null
        case .bool: .boolean
        case .integer, .double, .decimal: .number
        case .string: .string
        case .date: .date
        case .data: .data
        case .uuid: .uuid
        case .url: .url
        case .objectID: .object
        case .array(let items): .collection(items.map(kind(of:)))
        }
    }

    static func kind(of type: AttributeType) -> Kind {
        switch type {
        case .integer16, .integer32, .integer64, .decimal, .double, .float: .number
        case .boolean: .boolean
        case .string: .string
        case .date: .date
        case .binaryData: .data
        case .uuid: .uuid
        case .uri: .url
        case .objectID: .object
        case .transformable: .unknown
        }
    }

    /// The kind of a key path's value on objects of `entity`: through relationships (to-one or
    /// to-many) to the last attribute's type; a relationship's objects; `@count` a number.
    private func kind(ofKeyPath path: String, entity: EntityDescription) -> Kind {
        var current = entity
        var parts = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        if parts.first == "SELF" { parts.removeFirst() }
        if parts.isEmpty { return .object }
        parts = current.joiningCompositePaths(parts, model: model)
        for (index, part) in parts.enumerated() {
            let isLast = index == parts.count - 1
            if part == "@count" { return isLast ? .number : .unknown }
            if part.hasPrefix("@") { return .unknown }
            guard let property = current.propertiesByName[part] else {
                return .unknown
            }
            switch property {
            case .attribute(let attribute):
                return isLast ? Self.kind(of: attribute.type) : .unknown
            case .relationship(let relationship):
                if isLast { return relationship.isToMany ? .unknown : .object }
                guard let destination = model.entity(named: relationship.destinationEntityName) else { return .unknown }
                current = destination
            case .fetchedProperty:
                return .unknown
            }
        }
        return .unknown
    }

    /// The attribute type at the end of a key path, when it ends in an attribute.
    private func attributeType(_ path: String, entity: EntityDescription) -> AttributeType? {
        var current = entity
        let parts = current.joiningCompositePaths(path.split(separator: ".").map(String.init).filter { $0 != "SELF" }, model: model)
        for (index, part) in parts.enumerated() {
            switch current.propertiesByName[part] {
            case .attribute(let attribute)? where index == parts.count - 1: return attribute.type
            case .relationship(let relationship)?:
                guard let destination = model.entity(named: relationship.destinationEntityName) else { return nil }
                current = destination
            default: return nil
            }
        }
        return nil
    }
}
