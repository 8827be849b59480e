import Foundation

extension AttributeValue {
    /// Converts a Swift value into the stored form of an attribute of `type`.
    ///
    /// Integers of any width are accepted where they fit the declared width; `Float` widens to
    /// `Double`; a `Double` narrows to `Float` only when no bits are lost. Transformable values go
    /// through the attribute's named transformer.
    ///
    /// - Throws: ``ObjectError/wrongValueType(entity:key:expected:found:)`` or
    ///   ``ObjectError/valueOutOfRange(entity:key:value:)`` naming `entity` and `key`.
    public static func make(
        from value: Any, for attribute: AttributeDescription, entity: String
    ) throws -> AttributeValue {
        guard attribute.type == .transformable else {
            return try make(from: value, ofType: attribute.type, key: attribute.name, entity: entity)
        }
        let key = attribute.name
        if let name = attribute.valueTransformerName {
            guard let transformer = ValueTransformerRegistry.transformer(named: name) else {
                throw ObjectError.unknownValueTransformer(entity: entity, key: key, name: name)
            }
            do {
                return .binary(try transformer.transformedValue(value))
            } catch {
                throw ObjectError.transformationFailed(entity: entity, key: key, reason: "\(error)")
            }
        }
        // No name: Core Data's default, a keyed archive of a Foundation value.
        if let transformer = ValueTransformerRegistry.defaultTransformer {
            do {
                return .binary(try transformer.transformedValue(value))
            } catch {
                throw ObjectError.transformationFailed(entity: entity, key: key, reason: "\(error)")
            }
        }
        guard let data = value as? Data else {
            throw ObjectError.wrongValueType(entity: entity, key: key, expected: .transformable, found: "\(type(of: value))")
        }
        return .binary(data)
    }

    /// The stored value for `value` given to the attribute `key` of `entity`, whose type is
    /// `type`: what ``make(from:for:entity:)`` does for every type but a transformable one with
    /// a transformer, with no attribute description to copy.
    static func make(from value: Any, ofType type: AttributeType, key: String, entity: String) throws -> AttributeValue {
        func wrongType() -> ObjectError {
            .wrongValueType(entity: entity, key: key, expected: type, found: "\(Swift.type(of: value))")
        }
        switch type {
        case .integer16, .integer32, .integer64:
            // The attribute's own width first: the usual value, found with one cast.
            switch type {
            case .integer16: if let v = value as? Int16 { return .integer(Int64(v)) }
            case .integer32: if let v = value as? Int32 { return .integer(Int64(v)) }
            default: if let v = value as? Int64 { return .integer(v) }
            }
            guard let integer = exactInteger(value) else { throw wrongType() }
            let (low, high): (Int64, Int64) = switch type {
            case .integer16: (Int64(Int16.min), Int64(Int16.max))
            case .integer32: (Int64(Int32.min), Int64(Int32.max))
            default: (Int64.min, Int64.max)
            }
            guard let fitted = integer, fitted >= low, fitted <= high else {
                throw ObjectError.valueOutOfRange(entity: entity, key: key, value: "\(value)")
            }
            return .integer(fitted)
        case .decimal:
            if let decimal = value as? Decimal { return .decimal(decimal) }
            if let integer = exactInteger(value) {
                if let fitted = integer { return .decimal(Decimal(fitted)) }
                if let unsigned = value as? UInt64 { return .decimal(Decimal(unsigned)) }
                if let unsigned = value as? UInt { return .decimal(Decimal(UInt64(unsigned))) }
            }
            throw wrongType()
        case .double:
            if let double = value as? Double { return .double(double) }
            if let float = value as? Float { return .double(Double(float)) }
            if let integer = exactInteger(value) {
                // An integer becomes a Double only when no digit is lost (as Double narrows to Float).
                guard let fitted = integer, let exact = Double(exactly: fitted) else {
                    throw ObjectError.valueOutOfRange(entity: entity, key: key, value: "\(value)")
                }
                return .double(exact)
            }
            throw wrongType()
        case .float:
            if let float = value as? Float { return .float(float) }
            if let double = value as? Double {
                let narrowed = Float(double)
                guard Double(narrowed) == double || double.isNaN else {
                    throw ObjectError.valueOutOfRange(entity: entity, key: key, value: "\(double)")
                }
                return .float(narrowed)
            }
            if let integer = exactInteger(value) {
                guard let fitted = integer, let exact = Float(exactly: fitted) else {
                    throw ObjectError.valueOutOfRange(entity: entity, key: key, value: "\(value)")
                }
                return .float(exact)
            }
            throw wrongType()
        case .string:
            if let string = value as? String { return .string(string) }
            if let substring = value as? Substring { return .string(String(substring)) }
            throw wrongType()
        case .boolean:
            guard let bool = value as? Bool else { throw wrongType() }
            return .boolean(bool)
        case .date:
            guard let date = value as? Date else { throw wrongType() }
            return .date(date)
        case .binaryData:
            if let data = value as? Data { return .binary(data) }
            if let bytes = value as? [UInt8] { return .binary(Data(bytes)) }
            throw wrongType()
        case .uuid:
            guard let uuid = value as? UUID else { throw wrongType() }
            return .uuid(uuid)
        case .uri:
            guard let url = value as? URL else { throw wrongType() }
            return .uri(url)
        case .objectID:
            guard let id = value as? ManagedObjectID else { throw wrongType() }
            return .objectID(id)
        case .transformable:
            guard let data = value as? Data else { throw wrongType() }
            return .binary(data)
        }
    }

    /// The natural Swift value of this stored value for an attribute of `attribute`'s type.
    ///
    /// - Throws: ``ObjectError/transformationFailed(entity:key:reason:)`` when a transformable
    ///   value cannot be turned back.
    public func swiftValue(for attribute: AttributeDescription, entity: String) throws -> Any {
        switch (attribute.type, self) {
        case (.transformable, .binary(let data)):
            let transformer: any AttributeValueTransformer
            if let name = attribute.valueTransformerName {
                guard let named = ValueTransformerRegistry.transformer(named: name) else {
                    throw ObjectError.unknownValueTransformer(entity: entity, key: attribute.name, name: name)
                }
                transformer = named
            } else {
                // No name: a keyed archive is unarchived; other bytes (written before Strata
                // archived, or by a batch insert given bytes) are handed out as they are.
                guard let archive = ValueTransformerRegistry.defaultTransformer, data.starts(with: Array("bplist00".utf8)) else { return data }
                transformer = archive
            }
            do {
                return try transformer.reverseTransformedValue(data)
            } catch {
                throw ObjectError.transformationFailed(entity: entity, key: attribute.name, reason: "\(error)")
            }
        default: return swiftValue(ofType: attribute.type)
        }
    }

    /// The Swift value for an attribute of `type` that is not transformable: integers at the
    /// attribute's width, anything else as ``untypedSwiftValue``.
    func swiftValue(ofType type: AttributeType) -> Any {
        switch (type, self) {
        case (.integer16, .integer(let v)): Int16(truncatingIfNeeded: v)
        case (.integer32, .integer(let v)): Int32(truncatingIfNeeded: v)
        case (.integer64, .integer(let v)): v
        default: untypedSwiftValue
        }
    }

    /// The Swift value inside, with integers as `Int64`.
    public var untypedSwiftValue: Any {
        switch self {
        case .integer(let v): v
        case .decimal(let v): v
        case .double(let v): v
        case .float(let v): v
        case .string(let v): v
        case .boolean(let v): v
        case .date(let v): v
        case .binary(let v): v
        case .uuid(let v): v
        case .uri(let v): v
        case .objectID(let v): v
        }
    }

    /// Whether this stored form belongs to an attribute of `type`.
    public func matches(_ type: AttributeType) -> Bool {
        switch (type, self) {
        case (.integer16, .integer(let v)): Int16(exactly: v) != nil
        case (.integer32, .integer(let v)): Int32(exactly: v) != nil
        case (.integer64, .integer): true
        case (.decimal, .decimal), (.double, .double), (.float, .float), (.string, .string),
            (.boolean, .boolean), (.date, .date), (.binaryData, .binary), (.uuid, .uuid),
            (.uri, .uri), (.transformable, .binary), (.objectID, .objectID):
            true
        default: false
        }
    }

    /// `.some(.some(n))` for an integer that fits in `Int64`, `.some(nil)` for an integer that
    /// does not, `nil` for a value that is not an integer.
    private static func exactInteger(_ value: Any) -> Int64?? {
        switch value {
        case let v as Int: Int64(exactly: v)
        case let v as Int8: Int64(v)
        case let v as Int16: Int64(v)
        case let v as Int32: Int64(v)
        case let v as Int64: v
        case let v as UInt: .some(Int64(exactly: v))
        case let v as UInt8: Int64(v)
        case let v as UInt16: Int64(v)
        case let v as UInt32: Int64(v)
        case let v as UInt64: .some(Int64(exactly: v))
        default: nil
        }
    }
}
