import Foundation

/// The string operators of predicates: `BEGINSWITH`, `ENDSWITH`, `CONTAINS`, `LIKE`, `MATCHES`.
///
/// Without `[n]` both strings are folded by the options and then matched by `Character`
/// (extended grapheme clusters, compared by canonical equivalence), so `é` written
/// precomposed or decomposed is the same character, and `e` does not begin `é`. With `[n]` they
/// are matched by Unicode scalars, as given.
enum StringMatching {
    static func beginsWith(_ text: String, _ prefix: String, _ options: StringComparisonOptions) -> Bool {
        if options.contains(.normalized) { return Array(text.unicodeScalars).starts(with: Array(prefix.unicodeScalars)) }
        return Array(ValueComparison.fold(text, options)).starts(with: Array(ValueComparison.fold(prefix, options)))
    }

    static func endsWith(_ text: String, _ suffix: String, _ options: StringComparisonOptions) -> Bool {
        if options.contains(.normalized) {
            return text.unicodeScalars.reversed().starts(with: suffix.unicodeScalars.reversed())
        }
        return Array(ValueComparison.fold(text, options)).reversed()
            .starts(with: Array(ValueComparison.fold(suffix, options)).reversed())
    }

    static func contains(_ text: String, _ part: String, _ options: StringComparisonOptions) -> Bool {
        if options.contains(.normalized) { return contains(Array(text.unicodeScalars), Array(part.unicodeScalars)) }
        return contains(Array(ValueComparison.fold(text, options)), Array(ValueComparison.fold(part, options)))
    }

    private static func contains<T: Equatable>(_ text: [T], _ part: [T]) -> Bool {
        guard !part.isEmpty else { return true }
        guard part.count <= text.count else { return false }
        for start in 0...(text.count - part.count) where text[start] == part[0] {
            if text[start..<(start + part.count)].elementsEqual(part) { return true }
        }
        return false
    }

    /// `LIKE`: `*` matches any run of characters (none included), `?` exactly one; a
    /// backslash makes the next character literal.
    static func like(_ text: String, _ pattern: String, _ options: StringComparisonOptions) -> Bool {
        if options.contains(.normalized) {
            return like(Array(text.unicodeScalars), tokens(Array(pattern.unicodeScalars), star: "*", one: "?", escape: "\\"))
        }
        let folded = Array(ValueComparison.fold(pattern, options))
        return like(Array(ValueComparison.fold(text, options)), tokens(folded, star: "*", one: "?", escape: "\\"))
    }

    private enum Token<T: Equatable> {
        case star, one, literal(T)
    }

    private static func tokens<T: Equatable>(_ pattern: [T], star: T, one: T, escape: T) -> [Token<T>] {
        var result: [Token<T>] = []
        var index = 0
        while index < pattern.count {
            let item = pattern[index]
            if item == escape, index + 1 < pattern.count {
                result.append(.literal(pattern[index + 1]))
                index += 2
                continue
            }
            result.append(item == star ? .star : item == one ? .one : .literal(item))
            index += 1
        }
        return result
    }

    /// Linear wildcard matching with backtracking to the last star only.
    private static func like<T: Equatable>(_ text: [T], _ pattern: [Token<T>]) -> Bool {
        var (p, t) = (0, 0)
        var (star, mark) = (-1, 0)
        while t < text.count {
            if p < pattern.count {
                switch pattern[p] {
                case .star:
                    star = p; mark = t; p += 1
                    continue
                case .one:
                    p += 1; t += 1
                    continue
                case .literal(let item) where item == text[t]:
                    p += 1; t += 1
                    continue
                case .literal:
                    break
                }
            }
            guard star >= 0 else { return false }
            p = star + 1
            mark += 1
            t = mark
        }
        while p < pattern.count, case .star = pattern[p] { p += 1 }
        return p == pattern.count
    }

    /// `MATCHES`: the whole string matches the ICU regular expression. `[c]` matches
    /// case-insensitively, `[d]` strips diacritics from the text and the pattern first.
    static func matches(_ text: String, _ pattern: String, _ options: StringComparisonOptions) throws -> Bool {
        var regexOptions: NSRegularExpression.Options = []
        var (text, pattern) = (text, pattern)
        if !options.contains(.normalized) {
            if options.contains(.caseInsensitive) { regexOptions.insert(.caseInsensitive) }
            if options.contains(.diacriticInsensitive) {
                text = ValueComparison.fold(text, .diacriticInsensitive)
                pattern = ValueComparison.fold(pattern, .diacriticInsensitive)
            }
        }
        let regex = try RegularExpressionCache.shared.wholeMatch(pattern, options: regexOptions)
        return regex.firstMatch(in: text, options: [], range: NSRange(text.startIndex..., in: text)) != nil
    }
}

/// Compiled `MATCHES` patterns, so a fetch compiles each pattern once, not once per object.
///
/// `@unchecked Sendable`: `entries` is only read and written while holding `lock`, and the
/// compiled expressions are immutable once made.
final class RegularExpressionCache: @unchecked Sendable {
    static let shared = RegularExpressionCache()

    private let lock = NSLock()
    private var entries: [Key: NSRegularExpression] = [:]

    private struct Key: Hashable {
        let pattern: String
        let options: UInt
    }

    /// Whether all of `text` matches `pattern` (ICU syntax, no options).
    ///
    /// - Throws: ``ObjectPredicateError/invalidRegularExpression(_:)``.
    static func fullMatch(_ pattern: String, _ text: String) throws -> Bool {
        let regex = try shared.wholeMatch(pattern, options: [])
        return regex.firstMatch(in: text, options: [], range: NSRange(text.startIndex..., in: text)) != nil
    }

    /// The expression that matches exactly the strings `pattern` matches whole.
    ///
    /// - Throws: ``ObjectPredicateError/invalidRegularExpression(_:)``.
    func wholeMatch(_ pattern: String, options: NSRegularExpression.Options) throws -> NSRegularExpression {
        let key = Key(pattern: pattern, options: options.rawValue)
        if let cached = lock.withLock({ entries[key] }) { return cached }
        // The pattern must be valid alone: wrapping could otherwise make `a)|(b` valid.
        guard (try? NSRegularExpression(pattern: pattern, options: options)) != nil else {
            throw ObjectPredicateError.invalidRegularExpression(pattern)
        }
        // \A…\z, not ^…$: `$` also matches before a final newline. A pattern that ends inside
        // a `(?x)` comment needs a newline to end the comment before the closing group.
        guard let regex = (try? NSRegularExpression(pattern: "\\A(?:\(pattern))\\z", options: options))
            ?? (try? NSRegularExpression(pattern: "\\A(?:\(pattern)\n)\\z", options: options)) else {
            throw ObjectPredicateError.invalidRegularExpression(pattern)
        }
        lock.withLock {
            if entries.count >= 256 { entries.removeAll() }
            entries[key] = regex
        }
        return regex
    }
}
