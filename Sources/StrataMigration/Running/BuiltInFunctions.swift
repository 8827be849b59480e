import Foundation
import StrataCore

/// The expression language's own functions a mapping model may use (Core Data archives them as
/// methods of `_NSPredicateUtilities`; the names are its selectors without the last colon).
enum BuiltInFunctions {
    static func call(_ name: String, _ arguments: [Any?]) throws -> Any? {
        func number(_ index: Int) throws -> PredicateValue {
            guard index < arguments.count else { throw ExpressionFailure(reason: "\(name)() needs \(index + 1) arguments") }
            let value = PredicateValue(arguments[index])
            switch value {
            case .integer, .double, .decimal, .bool, .null: return value
            default: throw ExpressionFailure(reason: "\(name)() takes numbers, not \(value)")
            }
        }
        func text(_ index: Int) throws -> String? {
            guard index < arguments.count else { throw ExpressionFailure(reason: "\(name)() needs \(index + 1) arguments") }
            guard let value = arguments[index] else { return nil }
            guard let string = value as? String else { throw ExpressionFailure(reason: "\(name)() takes a string, not \(type(of: value))") }
            return string
        }
        func list() -> [PredicateValue] {
            guard let first = arguments.first, let value = first else { return [] }
            if let items = value as? [Any] { return items.map { PredicateValue($0) } }
            if let items = value as? Set<ManagedObject> { return items.map { PredicateValue($0) } }
            return [PredicateValue(value)]
        }
        switch name {
        case "now": return Date()
        case "uppercase": return try text(0)?.uppercased()
        case "lowercase": return try text(0)?.lowercased()
        case "add:to": return try arithmetic(number(0), number(1), +, +)
        case "from:subtract": return try arithmetic(number(0), number(1), -, -)
        case "multiply:by": return try arithmetic(number(0), number(1), *, *)
        case "divide:by":
            let (a, b) = (try number(0).doubleValue ?? 0, try number(1).doubleValue ?? 0)
            return a / b
        case "abs":
            let value = try number(0)
            if case .integer(let integer) = value { return integer.magnitude <= UInt64(Int64.max) ? Swift.abs(integer) : Double(integer).magnitude }
            return value.doubleValue.map(Swift.abs)
        case "count": return Int64(list().count)
        case "sum": return list().compactMap(\.doubleValue).reduce(0, +)
        case "average":
            let values = list().compactMap(\.doubleValue)
            return values.isEmpty ? nil : values.reduce(0, +) / Double(values.count)
        case "min": return list().compactMap(\.doubleValue).min()
        case "max": return list().compactMap(\.doubleValue).max()
        default: throw ExpressionFailure(reason: "the function \(name)() is not supported")
        }
    }

    /// Integers stay integers unless the result overflows; anything else is a double.
    private static func arithmetic(_ a: PredicateValue, _ b: PredicateValue,
                                   _ integer: (Int64, Int64) -> Int64, _ double: (Double, Double) -> Double) -> Any? {
        if case .integer(let x) = a, case .integer(let y) = b {
            let wide = double(Double(x), Double(y))
            if abs(wide) < 9.0e18 { return integer(x, y) }
            return wide
        }
        guard let x = a.doubleValue, let y = b.doubleValue else { return nil }
        return double(x, y)
    }
}
