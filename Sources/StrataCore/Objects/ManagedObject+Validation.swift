import Foundation

extension ManagedObject {
    /// The model's rules for `key`, applied to `value` (not the object's current value), as a
    /// thrown ``ValidationError``. The object is not changed.
    func validateAgainstModel(_ value: Any?, forKey key: String) throws {
        let failures = try modelFailures(value, forKey: key)
        if !failures.isEmpty { throw ValidationError(failures: failures) }
    }

    /// The `deny` delete rules, as a thrown ``ValidationError``.
    func validateDeleteRules() throws {
        var failures: [ValidationFailure] = []
        for relationship in entity.relationships where relationship.deleteRule == .deny {
            let remaining = try destinations(of: relationship).filter { !$0.isDeleted && !$0.isInvalidated }
            if !remaining.isEmpty {
                failures.append(failure(relationship.name, .deleteDenied(destinationCount: remaining.count)))
            }
        }
        if !failures.isEmpty { throw ValidationError(failures: failures) }
    }

    /// Runs ``validateValue(_:forKey:)`` on every property, gathering every failure.
    ///
    /// An object of `ManagedObject` itself, whose `validateValue` only applies the model's rules,
    /// checks only the properties that have rules (listed once per entity), each attribute's
    /// stored value as it is; an object of a subclass, which may add rules of its own for any
    /// key, checks every property through `validateValue`.
    func validateAllProperties() throws {
        var failures: [ValidationFailure] = []
        guard type(of: self) != ManagedObject.self else {
            try validateRulesTyped(&failures)
            if !failures.isEmpty { throw ValidationError(failures: failures) }
            return
        }
        for property in entity.properties {
            if case .fetchedProperty = property { continue }
            do {
                let value: Any? = switch property {
                case .relationship(let r) where r.isToMany: try loadedToMany(r.name).map { $0 }
                default: try value(forKey: property.name)
                }
                try validateValue(value, forKey: property.name)
            } catch let error as ValidationError {
                failures += error.failures
            }
        }
        if !failures.isEmpty { throw ValidationError(failures: failures) }
    }

    /// The model's rules on the properties that have one, for an object of `ManagedObject`
    /// itself: each attribute's stored value is checked as it is (no `Any`, no conversion back),
    /// a to-one by whether it is set; the same failures ``validateAgainstModel(_:forKey:)`` finds.
    /// The rules are the entity's ``EntityDescription/propertyRules``, read in place.
    private func validateRulesTyped(_ failures: inout [ValidationFailure]) throws {
        let layout = entity.attributeLayout
        let rules = entity.propertyRules
        for index in rules.indices {
            switch rules[index].kind {
            case .attribute(let slot, _):
                guard slot >= 0 else {
                    failures += try modelFailures(try value(forKey: rules[index].name), forKey: rules[index].name)
                    continue
                }
                if let stored = try storedAttribute(at: slot, of: layout) {
                    // Appended only when there are some: appending even an empty list makes the
                    // empty `failures` a list of its own, a heap block per rule checked.
                    let found = attributeFailures(stored, rules[index])
                    if !found.isEmpty { failures += found }
                } else if !rules[index].isOptional {
                    failures.append(failure(rules[index].name, .missingMandatoryProperty))
                }
            case .toMany:
                failures += try modelFailures(try loadedToMany(rules[index].name).map { $0 }, forKey: rules[index].name)
            case .toOne:
                guard !rules[index].isOptional else { continue }
                // A loaded object's to-one is read where it is kept (no map of every to-one
                // built); others as a key's value.
                let isSet = !isFault && !isInvalidated ? toOne(named: rules[index].name) != nil
                    : try value(forKey: rules[index].name) != nil
                if !isSet { failures.append(failure(rules[index].name, .missingMandatoryProperty)) }
            }
        }
    }

    /// A number's value as a `Double`, as `PredicateValue(value).doubleValue` gives it, read
    /// from the stored value's case (no `Any`, no cast); nil for values that are not numbers.
    private static func number(_ value: AttributeValue) -> Double? {
        switch value {
        case .integer(let v): Double(v)
        case .double(let v): v
        case .float(let v): Double(v)
        case .decimal(let v): NSDecimalNumber(decimal: v).doubleValue
        case .boolean(let v): v ? 1 : 0
        default: nil
        }
    }

    /// The number of characters in `text`, as `text.count` gives it: in ASCII text every byte
    /// is one character but for a CR before an LF (the two are one), so text of ASCII without a
    /// CR is measured by its bytes, a scan of them rather than a walk from character to character.
    static func characterCount(_ text: String) -> Int {
        let utf8 = text.utf8
        return utf8.allSatisfy({ $0 < 0x80 && $0 != 0x0D }) ? utf8.count : text.count
    }

    private func failure(_ key: String?, _ reason: ValidationFailure.Reason) -> ValidationFailure {
        ValidationFailure(objectID: objectID, entityName: entity.name, key: key, reason: reason)
    }

    /// The model's rules for one key, applied to `value`: an attribute's value in any form
    /// `setValue(_:forKey:)` takes, a to-one's destination, or a to-many's collection of destinations.
    private func modelFailures(_ value: Any?, forKey key: String) throws -> [ValidationFailure] {
        switch try propertyDescription(forKey: key) {
        case .attribute(let attribute):
            let stored = try value.flatMap { try AttributeValue.make(from: $0, for: attribute, entity: entity.name) }
            guard let stored else {
                return attribute.isOptional ? [] : [failure(key, .missingMandatoryProperty)]
            }
            return attributeFailures(stored, PropertyRule(attribute, slot: -1))
        case .relationship(let relationship):
            if relationship.isToMany {
                let count = value.flatMap { KeyPathEvaluator.elements(of: $0)?.count } ?? 0
                var failures: [ValidationFailure] = []
                if count < relationship.minCount, !(relationship.isOptional && count == 0) {
                    failures.append(failure(key, .tooFewObjects(minimum: relationship.minCount, count: count)))
                }
                if relationship.maxCount > 0, count > relationship.maxCount {
                    failures.append(failure(key, .tooManyObjects(maximum: relationship.maxCount, count: count)))
                }
                return failures
            }
            return value == nil && !relationship.isOptional ? [failure(key, .missingMandatoryProperty)] : []
        case .fetchedProperty:
            return []
        }
    }

    private func attributeFailures(_ value: AttributeValue, _ attribute: PropertyRule) -> [ValidationFailure] {
        guard attribute.minimum != nil || attribute.maximum != nil || attribute.regularExpression != nil else { return [] }
        let key = attribute.name
        var failures: [ValidationFailure] = []
        let measure: Double?
        let isLength: Bool
        switch value {
        case .string(let s): measure = Double(Self.characterCount(s)); isLength = true
        case .binary(let d) where attribute.isBinaryData:
            measure = Double(d.count); isLength = true
        case .date(let d): measure = d.timeIntervalSinceReferenceDate; isLength = false
        default: measure = Self.number(value); isLength = false
        }
        if let measure {
            if let minimum = attribute.minimum, measure < minimum {
                failures.append(failure(key, isLength ? .tooShort(minimumLength: minimum) : .tooSmall(minimum: minimum)))
            }
            if let maximum = attribute.maximum, measure > maximum {
                failures.append(failure(key, isLength ? .tooLong(maximumLength: maximum) : .tooLarge(maximum: maximum)))
            }
        }
        if let pattern = attribute.regularExpression, case .string(let s) = value,
           (try? RegularExpressionCache.fullMatch(pattern, s)) != true {
            failures.append(failure(key, .patternMismatch(pattern: pattern)))
        }
        return failures
    }
}
