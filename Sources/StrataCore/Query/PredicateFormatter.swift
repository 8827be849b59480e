import Foundation

/// Prints predicates and expressions in the format-string syntax the parser reads.
enum PredicateFormatter {
    /// The reserved words of Apple's grammar: as key names they need a `#` before them.
    static let reservedWords: Set<String> = [
        "AND", "OR", "IN", "NOT", "ALL", "ANY", "SOME", "NONE", "LIKE", "CASEINSENSITIVE", "CI", "MATCHES",
        "CONTAINS", "BEGINSWITH", "ENDSWITH", "BETWEEN", "NULL", "NIL", "SELF", "TRUE", "YES", "FALSE", "NO",
        "FIRST", "LAST", "SIZE", "ANYKEY", "SUBQUERY", "FETCH", "CAST", "TRUEPREDICATE", "FALSEPREDICATE",
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
            text += "\(expression(c.left)) \(c.operation.rawValue)"
            var flags = ""
            if c.options.contains(.caseInsensitive) { flags += "c" }
            if c.options.contains(.diacriticInsensitive) { flags += "d" }
            if c.options.contains(.normalized) { flags += "n" }
            if !flags.isEmpty { text += "[\(flags)]" }
            return text + " \(expression(c.right))"
        }
    }

    private static func compound(_ items: [ObjectPredicate], _ word: String, empty: String) -> String {
        guard !items.isEmpty else { return empty }
        return items.map { item in
            switch item {
            case .comparison, .truePredicate, .falsePredicate: format(item)
            default: "(\(format(item)))"
            }
        }.joined(separator: " \(word) ")
    }

    static func expression(_ expression: ObjectExpression) -> String {
        switch expression {
        case .keyPath(let path): return keyPath(path)
        case .constant(let value): return literal(value)
        case .evaluatedObject: return "SELF"
        case .variable(let name): return "$" + identifier(name)
        case .aggregate(let items): return "{" + items.map(Self.expression).joined(separator: ", ") + "}"
        case .keyPathOf(let base, let path):
            return self.expression(base) + "." + keyPath(path)
        case .element(let base, let index):
            let inside = switch index {
            case .first: "FIRST"
            case .last: "LAST"
            case .size: "SIZE"
            case .index(let i): String(i)
            }
            return self.expression(base) + "[\(inside)]"
        case .subquery(let collection, let variable, let predicate):
            return "SUBQUERY(\(self.expression(collection)), $\(identifier(variable)), \(format(predicate)))"
        }
    }

    static func keyPath(_ path: String) -> String {
        path.split(separator: ".", omittingEmptySubsequences: false).map { keyPathComponent(String($0)) }
            .joined(separator: ".")
    }

    /// One key: `#` before a reserved word, `@` kept on an operator, and any scalar the
    /// grammar does not allow in an identifier written as a `\u` escape.
    static func keyPathComponent(_ name: String) -> String {
        if name.hasPrefix("@") { return "@" + identifier(String(name.dropFirst()), first: false) }
        if reservedWords.contains(name.uppercased()) { return "#\(name)" }
        return identifier(name)
    }

    private static func identifier(_ name: String, first: Bool = true) -> String {
        var out = ""
        var isFirst = first
        for scalar in name.unicodeScalars {
            let c = Character(scalar)
            let allowed = isFirst ? PredicateParser.isIdentifierStart(c) : PredicateParser.isIdentifierPart(c)
            if allowed {
                out.unicodeScalars.append(scalar)
            } else if scalar.value > 0xFFFF {
                let v = scalar.value - 0x10000
                out += String(format: "\\u%04X\\u%04X", 0xD800 + (v >> 10), 0xDC00 + (v & 0x3FF))
            } else {
                out += String(format: "\\u%04X", scalar.value)
            }
            isFirst = false
        }
        return out
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
