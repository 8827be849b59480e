import Foundation

/// Prints predicates and expressions in the format-string syntax the parser reads.
enum PredicateFormatter {
    static let reservedWords: Set<String> = [
        "AND", "OR", "NOT", "IN", "LIKE", "BEGINSWITH", "ENDSWITH", "CONTAINS", "MATCHES", "BETWEEN",
        "ANY", "SOME", "ALL", "NONE", "NULL", "NIL", "TRUE", "YES", "FALSE", "NO", "SELF",
        "TRUEPREDICATE", "FALSEPREDICATE", "FIRST", "LAST", "SIZE", "SUBQUERY", "CAST",
    ]

    static func format(_ predicate: ObjectPredicate) -> String {
        switch predicate {
        case .truePredicate: return "TRUEPREDICATE"
        case .falsePredicate: return "FALSEPREDICATE"
        case .and(let items): return compound(items, "AND", empty: "TRUEPREDICATE")
        case .or(let items): return compound(items, "OR", empty: "FALSEPREDICATE")
        case .not(let item): return "NOT (\(format(item)))"
        case .comparison(let c):
            var text = c.modifier == .direct ? "" : c.modifier.rawValue + " "
            text += "\(c.left) \(c.operation.rawValue)"
            var flags = ""
            if c.options.contains(.caseInsensitive) { flags += "c" }
            if c.options.contains(.diacriticInsensitive) { flags += "d" }
            if c.options.contains(.normalized) { flags += "n" }
            if !flags.isEmpty { text += "[\(flags)]" }
            return text + " \(c.right)"
        }
    }

    private static func compound(_ items: [ObjectPredicate], _ word: String, empty: String) -> String {
        guard !items.isEmpty else { return empty }
        return items.map { item in
            if case .comparison = item { return format(item) }
            return "(\(format(item)))"
        }.joined(separator: " \(word) ")
    }

    static func keyPathComponent(_ name: String) -> String {
        reservedWords.contains(name.uppercased()) ? "#\(name)" : name
    }

    static func literal(_ value: PredicateValue) -> String {
        switch value {
        case .null: "nil"
        case .bool(let v): v ? "YES" : "NO"
        case .integer(let v): String(v)
        case .double(let v):
            v.isFinite ? (v == v.rounded() && abs(v) < 1e15 ? String(format: "%.1f", v) : "\(v)") : "CAST(\"\(v)\", \"NSNumber\")"
        case .decimal(let v): "CAST(\"\(v)\", \"NSDecimalNumber\")"
        case .string(let v): quoted(v)
        case .date(let v): "CAST(\(v.timeIntervalSinceReferenceDate), \"NSDate\")"
        case .data(let v): "CAST(\"\(v.base64EncodedString())\", \"NSData\")"
        case .uuid(let v): "CAST(\"\(v.uuidString)\", \"NSUUID\")"
        case .url(let v): "CAST(\(quoted(v.absoluteString)), \"NSURL\")"
        case .objectID(let v): "CAST(\(quoted(v.description)), \"NSManagedObjectID\")"
        case .array(let items): "{" + items.map(literal).joined(separator: ", ") + "}"
        }
    }

    static func quoted(_ string: String) -> String {
        var out = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    out += String(format: "\\u%04x", scalar.value)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
