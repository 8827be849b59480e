/// The type of an attribute, one case for every type Core Data's model editor offers.
public enum AttributeType: String, Sendable, Hashable, CaseIterable, Codable {
    /// A 16-bit signed integer (`Integer 16`).
    case integer16 = "Integer 16"
    /// A 32-bit signed integer (`Integer 32`).
    case integer32 = "Integer 32"
    /// A 64-bit signed integer (`Integer 64`).
    case integer64 = "Integer 64"
    /// A base-10 decimal number (`Decimal`), kept digit for digit.
    case decimal = "Decimal"
    /// A 64-bit floating-point number (`Double`).
    case double = "Double"
    /// A 32-bit floating-point number (`Float`).
    case float = "Float"
    /// A string of Unicode scalars (`String`), never normalised.
    case string = "String"
    /// A Boolean (`Boolean`).
    case boolean = "Boolean"
    /// A point in time (`Date`), sub-second part included.
    case date = "Date"
    /// Raw bytes (`Binary`).
    case binaryData = "Binary"
    /// A UUID (`UUID`).
    case uuid = "UUID"
    /// A URL (`URI`).
    case uri = "URI"
    /// Any value turned into bytes by a named ``AttributeValueTransformer`` (`Transformable`).
    case transformable = "Transformable"
    /// A managed object ID (`ObjectID`).
    case objectID = "ObjectID"

    /// The type code Core Data uses in version hashes and compiled models.
    public var typeCode: Int32 {
        switch self {
        case .integer16: 100
        case .integer32: 200
        case .integer64: 300
        case .decimal: 400
        case .double: 500
        case .float: 600
        case .string: 700
        case .boolean: 800
        case .date: 900
        case .binaryData: 1000
        case .uuid: 1100
        case .uri: 1200
        case .transformable: 1800
        case .objectID: 2000
        }
    }

    /// Whether values of this type are numbers (integers, decimal, floating point).
    public var isNumeric: Bool {
        switch self {
        case .integer16, .integer32, .integer64, .decimal, .double, .float: true
        default: false
        }
    }

    /// Whether a value of this type is one word (an integer, a binary floating-point number, a
    /// Boolean, a date), so that an object keeps it in an 8-byte slot.
    var fitsNarrowSlot: Bool {
        switch self {
        case .integer16, .integer32, .integer64, .double, .float, .boolean, .date: true
        default: false
        }
    }

    /// The name Xcode writes in a model file's `attributeType` (`"Integer 16"`, `"Binary"`, …).
    public var modelFileName: String { rawValue }
}
