import Foundation

/// Core Data's entity version hash (`NSStoreModelVersionHashes`, hashes version 3).
///
/// The byte layout is in `docs/version-hashes.md`; it reproduces the hashes Apple's Core Data
/// records in its stores, so a store written by either is recognised by the same model.
enum VersionHasher {
    /// The 32-byte hash of a resolved entity, given its parent's hash.
    static func entityHash(_ entity: EntityDescription, superentityHash: Data?) -> Data {
        var bytes = Array(entity.name.utf8)
        bytes.append(entity.isAbstract ? 1 : 0)
        if let superentityHash { bytes += Array(superentityHash) }
        let stored = entity.properties.filter { property in
            switch property {
            case .attribute(let a): !a.isTransient && a.composite == nil
            case .relationship(let r): !r.isTransient
            case .fetchedProperty: false
            }
        }
        // A composite enters as one attribute of type code 2100; its elements do not enter.
        let hashes = stored.map { ($0.name, propertyHash($0, in: entity)) }
            + entity.compositeAttributes.map { ($0.name, compositeHash($0)) }
        for (_, hash) in hashes.sorted(by: { $0.0 < $1.0 }) {
            bytes += hash
        }
        if let modifier = entity.versionHashModifier { bytes += Array(modifier.utf8) }
        for constraint in entity.uniquenessConstraints.map({ $0.joined(separator: ".") }).sorted() {
            bytes += Array(constraint.utf8)
        }
        return Data(SHA2.sha256(bytes))
    }

    /// The 32-byte hash of an attribute or relationship.
    static func propertyHash(_ property: PropertyDescription, in entity: EntityDescription) -> [UInt8] {
        switch property {
        case .attribute(let attribute):
            if let expression = attribute.derivationExpression {
                // A derived attribute hashes its expression only (no property base, no type).
                return SHA2.sha256(Array(expressionFormat(expression).utf8))
            }
            var bytes = base(name: attribute.name, optional: attribute.isOptional, transient: attribute.isTransient,
                             modifier: attribute.versionHashModifier)
            bytes += littleEndian(attribute.type.typeCode)
            if attribute.allowsExternalBinaryDataStorage { bytes.append(1) }
            if attribute.preservesValueInHistoryOnDeletion { bytes.append(1) }
            return SHA2.sha256(bytes)
        case .relationship(let relationship):
            var bytes = base(name: relationship.name, optional: relationship.isOptional,
                             transient: relationship.isTransient, modifier: relationship.versionHashModifier)
            bytes += Array(relationship.destinationEntityName.utf8)
            let isOwnInverse = relationship.inverseName == relationship.name
                && relationship.destinationEntityName == entity.name
            if let inverse = relationship.inverseName, !isOwnInverse { bytes += Array(inverse.utf8) }
            bytes += littleEndian(Int32(clamping: relationship.maxCount))
            bytes += littleEndian(Int32(clamping: relationship.minCount))
            if relationship.isOrdered { bytes += littleEndian(UInt16(1)) }
            return SHA2.sha256(bytes)
        case .fetchedProperty:
            return []
        }
    }

    /// The 32-byte hash of a composite attribute: that of an attribute of type code 2100.
    static func compositeHash(_ composite: CompositeAttributeDescription) -> [UInt8] {
        var bytes = base(name: composite.name, optional: composite.isOptional, transient: false,
                         modifier: composite.versionHashModifier)
        bytes += littleEndian(Int32(2100))
        return SHA2.sha256(bytes)
    }

    /// A derivation expression as Xcode writes it (`pages.@count`) in the format Core Data hashes
    /// (`count:(pages)`): a trailing collection operator becomes a function call; anything else is
    /// kept as written.
    static func expressionFormat(_ expression: String) -> String {
        let text = expression.trimmingCharacters(in: .whitespaces)
        let functions = ["count": "count", "sum": "sum", "avg": "average", "min": "min", "max": "max"]
        guard let marker = text.range(of: ".@") else { return text }
        let path = String(text[..<marker.lowerBound])
        let rest = text[marker.upperBound...]
        let operatorName = rest.prefix { $0 != "." }
        guard !path.isEmpty, let function = functions[String(operatorName)] else { return text }
        let tail = rest.dropFirst(operatorName.count)
        return "\(function):(\(path)\(tail))"
    }

    /// `SHA256(name ‖ u16 flags ‖ [modifier])`.
    private static func base(name: String, optional: Bool, transient: Bool, modifier: String?) -> [UInt8] {
        var flags: UInt16 = 0
        if optional { flags |= 1 }
        if transient { flags |= 2 }
        var bytes = Array(name.utf8) + littleEndian(flags)
        if let modifier { bytes += Array(modifier.utf8) }
        return SHA2.sha256(bytes)
    }

    private static func littleEndian<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
        withUnsafeBytes(of: value.littleEndian) { Array($0) }
    }
}
