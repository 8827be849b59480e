/// A piece of SQL and the values bound to its `?` placeholders, in the order they appear.
///
/// Fragments are how the query translator builds statements: values never enter the SQL text,
/// only placeholders do, and names come from the schema. Concatenating fragments concatenates
/// their values in the same order, so placeholders and values stay in step.
struct SQLFragment: Sendable, Hashable, CustomStringConvertible {
    /// The SQL text, with a `?` for each value.
    var sql: String
    /// The values of the placeholders, in order.
    var parameters: [SQLiteValue]

    init(_ sql: String, _ parameters: [SQLiteValue] = []) {
        self.sql = sql
        self.parameters = parameters
    }

    /// A single placeholder bound to `value`.
    static func value(_ value: SQLiteValue) -> SQLFragment { SQLFragment("?", [value]) }

    /// ` LIMIT ? OFFSET ?` for `limit` rows (0: all) after the first `offset`; empty when the
    /// range is everything.
    static func range(offset: Int, limit: Int) -> SQLFragment {
        guard offset > 0 || limit > 0 else { return SQLFragment("") }
        return " LIMIT " + .value(.integer(limit > 0 ? Int64(limit) : -1)) + " OFFSET " + .value(.integer(Int64(max(offset, 0))))
    }

    /// `1`: a condition that always holds.
    static let alwaysTrue = SQLFragment("1")
    /// `0`: a condition that never holds.
    static let alwaysFalse = SQLFragment("0")

    /// The constant condition `flag`.
    static func constant(_ flag: Bool) -> SQLFragment { flag ? alwaysTrue : alwaysFalse }

    var isAlwaysTrue: Bool { sql == "1" && parameters.isEmpty }
    var isAlwaysFalse: Bool { sql == "0" && parameters.isEmpty }

    static func + (lhs: SQLFragment, rhs: SQLFragment) -> SQLFragment {
        SQLFragment(lhs.sql + rhs.sql, lhs.parameters + rhs.parameters)
    }

    static func + (lhs: SQLFragment, rhs: String) -> SQLFragment {
        SQLFragment(lhs.sql + rhs, lhs.parameters)
    }

    static func + (lhs: String, rhs: SQLFragment) -> SQLFragment {
        SQLFragment(lhs + rhs.sql, rhs.parameters)
    }

    /// The fragments joined by `separator`, in one pass (a list of thousands of terms is
    /// copied once, not once per term).
    static func joined<Parts: Collection<SQLFragment>>(_ parts: Parts, separator: String) -> SQLFragment {
        var result = SQLFragment("")
        result.sql.reserveCapacity(parts.reduce(0) { $0 + $1.sql.utf8.count + separator.utf8.count })
        result.parameters.reserveCapacity(parts.reduce(0) { $0 + $1.parameters.count })
        for (index, part) in parts.enumerated() {
            if index > 0 { result.sql += separator }
            result.sql += part.sql
            result.parameters += part.parameters
        }
        return result
    }

    /// Every condition holds; constants are folded away.
    static func and(_ parts: [SQLFragment]) -> SQLFragment {
        if parts.contains(where: \.isAlwaysFalse) { return .alwaysFalse }
        let kept = parts.filter { !$0.isAlwaysTrue }
        if kept.isEmpty { return .alwaysTrue }
        return tree(kept[...], separator: " AND ")
    }

    /// At least one condition holds; constants are folded away.
    static func or(_ parts: [SQLFragment]) -> SQLFragment {
        if parts.contains(where: \.isAlwaysTrue) { return .alwaysTrue }
        let kept = parts.filter { !$0.isAlwaysFalse }
        if kept.isEmpty { return .alwaysFalse }
        return tree(kept[...], separator: " OR ")
    }

    /// How many terms an `AND` or `OR` joins flat. SQLite parses `a OR b OR c …` as a tree one
    /// level deeper per term and refuses a tree deeper than 1,000 levels (`SQLITE_MAX_EXPR_DEPTH`):
    /// a longer chain is made of parenthesized groups of at most this many terms, a tree of
    /// depth about this number times log₁₆ of the count (a 50,000-term chain: four levels).
    static let flatTermLimit = 16

    /// `parts` joined by `separator` as a balanced tree of flat groups.
    private static func tree(_ parts: ArraySlice<SQLFragment>, separator: String) -> SQLFragment {
        if parts.count == 1, let only = parts.first { return only }
        guard parts.count > flatTermLimit else { return "(" + joined(parts, separator: separator) + ")" }
        let groupSize = (parts.count + flatTermLimit - 1) / flatTermLimit
        let groups = stride(from: parts.startIndex, to: parts.endIndex, by: groupSize).map { start in
            tree(parts[start..<min(start + groupSize, parts.endIndex)], separator: separator)
        }
        return tree(groups[...], separator: separator)
    }

    /// The condition does not hold. Only for two-valued conditions (never NULL), which is what
    /// the translator builds: SQL's `NOT NULL` is NULL, where a predicate's `NOT` of false is true.
    static func not(_ part: SQLFragment) -> SQLFragment {
        if part.isAlwaysTrue { return .alwaysFalse }
        if part.isAlwaysFalse { return .alwaysTrue }
        return "NOT " + parenthesized(part)
    }

    /// The fragment in parentheses, unless it already is one term.
    static func parenthesized(_ part: SQLFragment) -> SQLFragment {
        if part.sql.hasPrefix("("), part.sql.hasSuffix(")"), balanced(part.sql.dropFirst().dropLast()) { return part }
        return "(" + part + ")"
    }

    private static func balanced(_ text: Substring) -> Bool {
        var depth = 0
        var quoted = false
        for character in text {
            if character == "'" { quoted.toggle() }
            if quoted { continue }
            if character == "(" { depth += 1 }
            if character == ")" {
                depth -= 1
                if depth < 0 { return false }
            }
        }
        return depth == 0
    }

    /// `sql` with its values, for messages and tests.
    var description: String { parameters.isEmpty ? sql : "\(sql) \(parameters)" }
}
