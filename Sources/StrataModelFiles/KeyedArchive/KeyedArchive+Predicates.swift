import StrataCore

extension KeyedArchive {
    /// An archived `NSPredicate` (comparison, compound, true or false predicate) in Core Data's
    /// predicate format, such as `authorAlias == $FETCH_SOURCE.alias AND comment CONTAINS[c] "x"`.
    ///
    /// Expressions are written with ``ArchivedExpression/format``; one of a class Strata does not
    /// model is written `<ClassName>`.
    ///
    /// - Throws: ``PlistError`` for a missing or malformed predicate, an unknown operator, or one
    ///   nested deeper than ``maximumDepth``.
    package func predicateFormat(_ value: PlistValue, depth: Int) throws(PlistError) -> String {
        guard depth <= Self.maximumDepth else { throw PlistError("predicates nested deeper than \(Self.maximumDepth) levels") }
        guard let predicate = try object(value) else { throw PlistError("a predicate is missing") }
        let classes = try classes(of: predicate)
        switch classes[0] {
        case "NSTruePredicate": return "TRUEPREDICATE"
        case "NSFalsePredicate": return "FALSEPREDICATE"
        case "NSCompoundPredicate":
            var parts: [String] = []
            for item in try elements("NSSubpredicates", in: predicate) {
                let text = try predicateFormat(item, depth: depth + 1)
                var isCompound = false
                if let object = try self.object(item) { isCompound = try self.classes(of: object)[0] == "NSCompoundPredicate" }
                parts.append(isCompound ? "(\(text))" : text)
            }
            switch try integer("NSCompoundPredicateType", in: predicate) {
            case 0?:
                guard parts.count == 1 else { throw PlistError("a NOT predicate with \(parts.count) sub-predicates") }
                return "NOT \(parts[0])"
            case 1?: return parts.isEmpty ? "TRUEPREDICATE" : parts.joined(separator: " AND ")
            case 2?: return parts.isEmpty ? "FALSEPREDICATE" : parts.joined(separator: " OR ")
            case let other: throw PlistError("a compound predicate of unknown type \(other.map(String.init) ?? "nil")")
            }
        case "NSComparisonPredicate":
            guard let left = predicate["NSLeftExpression"], let right = predicate["NSRightExpression"] else {
                throw PlistError("a comparison predicate without both expressions")
            }
            guard let reference = predicate["NSPredicateOperator"], let operation = try object(reference) else {
                throw PlistError("a comparison predicate without an operator")
            }
            var text = switch try integer("NSModifier", in: operation) ?? 0 {
            case 1: "ALL "
            case 2: "ANY "
            default: ""
            }
            text += try expression(left, depth: depth + 1).format + " " + (try operatorText(operation))
            return text + " " + (try expression(right, depth: depth + 1).format)
        default:
            throw PlistError("\(classes[0]) is not a predicate Strata reads")
        }
    }

    /// `==`, `CONTAINS[cd]`, …: an archived `NSPredicateOperator` with its options.
    private func operatorText(_ operation: [String: PlistValue]) throws(PlistError) -> String {
        let words: [Int64: ObjectPredicate.Operator] = [
            0: .lessThan, 1: .lessThanOrEqualTo, 2: .greaterThan, 3: .greaterThanOrEqualTo, 4: .equalTo,
            5: .notEqualTo, 6: .matches, 7: .like, 8: .beginsWith, 9: .endsWith, 10: .in, 99: .contains, 100: .between,
        ]
        guard let type = try integer("NSOperatorType", in: operation), let word = words[type] else {
            throw PlistError("an operator of unknown type")
        }
        var options: Int64 = 0
        if let value = try integer("NSOptions", in: operation) {
            options = value
        } else if let value = try integer("NSFlags", in: operation) {
            options = value
        }
        var flags = ""
        if options & 1 != 0 { flags += "c" }
        if options & 2 != 0 { flags += "d" }
        if options & 4 != 0 { flags += "n" }
        return word.rawValue + (flags.isEmpty ? "" : "[\(flags)]")
    }
}
