/// A value in a store that its attribute cannot hold: a number outside the attribute type's
/// range (an `Integer 16` column holding 99999), a Boolean that is neither 0 nor 1, text in a
/// numeric column. A store refuses such a value when it reads it, so it never reaches an object,
/// an export or a converted store (``StoreError/invalidStoredValue(_:)``).
public struct StoredValueProblem: Sendable, Hashable, CustomStringConvertible {
    /// The store's file; empty for a store without one.
    public var file: String
    /// Where in the file, when the store can tell (`line 40`); nil otherwise.
    public var position: String?
    /// The entity of the object.
    public var entityName: String
    /// The object: its URI (`x-coredata://UUID/Entity/p3`) or, when it has none yet, its key.
    public var object: String
    /// The attribute.
    public var attribute: String
    /// The type the attribute is declared with.
    public var type: AttributeType
    /// What the store holds, described (`the integer 99999`, `text 'abc'`).
    public var found: String

    /// Creates a problem record.
    public init(file: String, position: String? = nil, entityName: String, object: String,
                attribute: String, type: AttributeType, found: String) {
        self.file = file
        self.position = position
        self.entityName = entityName
        self.object = object
        self.attribute = attribute
        self.type = type
        self.found = found
    }

    /// What a value of the attribute's type must be.
    public var allowed: String { type.allowedValues }

    /// `file line 40: Student x-coredata://…/Student/p3, attribute 'year' (Integer 16): holds
    /// the integer 99999; an Integer 16 holds -32768...32767`.
    public var description: String {
        let place = [file.isEmpty ? nil : file, position].compactMap { $0 }.joined(separator: " ")
        return (place.isEmpty ? "" : "\(place): ")
            + "\(entityName) \(object), attribute '\(attribute)' (\(type.rawValue)): holds \(found); "
            + "\(allowed)"
    }
}

extension AttributeType {
    /// The values an attribute of this type holds, in words: `an Integer 16 holds
    /// -32768...32767`.
    public var allowedValues: String {
        switch self {
        case .integer16: "an Integer 16 holds \(Int16.min)...\(Int16.max)"
        case .integer32: "an Integer 32 holds \(Int32.min)...\(Int32.max)"
        case .integer64: "an Integer 64 holds \(Int64.min)...\(Int64.max)"
        case .boolean: "a Boolean holds 0 or 1"
        case .float: "a Float holds finite numbers up to \(Float.greatestFiniteMagnitude) in magnitude, infinities and NaN"
        case .decimal: "a Decimal holds a number of at most 38 significant digits"
        case .double: "a Double holds a number"
        case .date: "a Date holds seconds since 2001-01-01 as a number"
        case .string: "a String holds text"
        case .binaryData: "a Binary holds bytes"
        case .uuid: "a UUID holds 16 bytes or its text form"
        case .uri: "a URI holds the text of a URL"
        case .transformable: "a Transformable holds bytes"
        case .objectID: "an ObjectID holds the text of an object URI"
        }
    }
}

extension AttributeValue {
    /// The value in words for a ``StoredValueProblem``: `the integer 99999`, `the string 'abc'`.
    @_spi(StoreImplementation) public var storedValueDescription: String {
        func quoted(_ text: String) -> String { "'\(text.count > 40 ? text.prefix(40) + "…" : text)'" }
        return switch self {
        case .integer(let v): "the integer \(v)"
        case .decimal(let v): "the decimal \(v)"
        case .double(let v): "the double \(v)"
        case .float(let v): "the float \(v)"
        case .string(let v): "the string \(quoted(v))"
        case .boolean(let v): "the Boolean \(v)"
        case .date(let v): "the date \(v.timeIntervalSinceReferenceDate)"
        case .binary(let v): "\(v.count) bytes"
        case .uuid(let v): "the UUID \(v.uuidString)"
        case .uri(let v): "the URI \(quoted(v.absoluteString))"
        case .objectID(let v): "the object ID \(quoted(v.description))"
        }
    }
}
