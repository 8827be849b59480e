import Foundation

/// Turns the value of a `Transformable` attribute into bytes and back.
///
/// Register a transformer under the name that the attribute's ``AttributeDescription/valueTransformerName``
/// gives, the way Core Data's `ValueTransformer.setValueTransformer(_:forName:)` does:
///
/// ```swift
/// ValueTransformerRegistry.register(CodableValueTransformer<[String]>(), forName: "ColorsTransformer")
/// ```
public protocol AttributeValueTransformer: Sendable {
    /// Encodes `value`; throws when the value is not of the transformer's type.
    func transformedValue(_ value: Any) throws -> Data
    /// Decodes bytes written by ``transformedValue(_:)``.
    func reverseTransformedValue(_ data: Data) throws -> Any
}

/// A transformer for any `Codable` type, encoded as JSON with sorted keys.
public struct CodableValueTransformer<Value: Codable & Sendable>: AttributeValueTransformer {
    /// Creates the transformer.
    public init() {}

    /// Encodes a `Value`.
    public func transformedValue(_ value: Any) throws -> Data {
        guard let typed = value as? Value else {
            throw TransformerError.wrongType(expected: "\(Value.self)", found: "\(type(of: value))")
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(typed)
    }

    /// Decodes a `Value`.
    public func reverseTransformedValue(_ data: Data) throws -> Any {
        try JSONDecoder().decode(Value.self, from: data)
    }

    /// Why a `CodableValueTransformer` refused a value.
    public enum TransformerError: Error, CustomStringConvertible {
        /// The value was not of the transformer's type.
        case wrongType(expected: String, found: String)

        /// One line naming both types.
        public var description: String {
            switch self {
            case let .wrongType(expected, found): "expected a value of type \(expected), found \(found)"
            }
        }
    }
}

/// The process-wide table of named value transformers.
public enum ValueTransformerRegistry {
    private static let table = LockedValue<[String: any AttributeValueTransformer]>([:])

    /// Registers `transformer` under `name`, replacing any earlier one.
    public static func register(_ transformer: any AttributeValueTransformer, forName name: String) {
        table.withLock { $0[name] = transformer }
    }

    /// The transformer registered under `name`; for Core Data's own names
    /// (``secureUnarchiveFromDataName``, ``keyedUnarchiveFromDataName``) not registered by the
    /// app, the keyed-archive transformer of `StrataModelFiles` when it is linked.
    public static func transformer(named name: String) -> (any AttributeValueTransformer)? {
        if let registered = table.withLock({ $0[name] }) { return registered }
        return name == secureUnarchiveFromDataName || name == keyedUnarchiveFromDataName ? keyedArchive : nil
    }

    /// Core Data's `NSSecureUnarchiveFromDataTransformerName`: the transformer of a transformable
    /// attribute that names none.
    public static let secureUnarchiveFromDataName = "NSSecureUnarchiveFromData"
    /// Core Data's `NSKeyedUnarchiveFromDataTransformerName`, read as the secure one.
    public static let keyedUnarchiveFromDataName = "NSKeyedUnarchiveFromData"

    /// The keyed-archive transformer, when `StrataModelFiles` is linked (`import Strata`).
    private static let keyedArchive = LinkedModules.keyedArchiveTransformer()

    /// The transformer of a transformable attribute that names none: the one registered under
    /// ``secureUnarchiveFromDataName``, or the keyed-archive one; nil when neither is there
    /// (the value is then the bytes as they are).
    static var defaultTransformer: (any AttributeValueTransformer)? { transformer(named: secureUnarchiveFromDataName) }
}
