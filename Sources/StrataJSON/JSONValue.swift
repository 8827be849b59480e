import Collections

/// A JSON value exactly as a document holds it.
///
/// Numbers keep their literal text, so an integer beyond 2^53, a `Float` written with its
/// shortest digits or a date's exact seconds read back without passing through `Double`.
/// Objects keep their members in document order.
public enum JSONValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, as its literal text (`-12`, `0.1`, `1e-05`).
    case number(String)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object, members in document order.
    case object(OrderedDictionary<String, JSONValue>)

    /// A number from an integer.
    public static func integer<T: BinaryInteger>(_ value: T) -> JSONValue { .number(String(value)) }

    /// What kind of value this is, for messages (`"a string"`, `"an array"`, …).
    public var kindDescription: String {
        switch self {
        case .null: "null"
        case .bool: "a Boolean"
        case .number(let text): "the number \(text)"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
