import Foundation
@_spi(StoreImplementation) import StrataCore

/// Core Data's default transformer for transformable attributes (`NSSecureUnarchiveFromData`):
/// a value of a common Foundation type as an `NSKeyedArchiver` archive (a binary property list),
/// read with `KeyedArchive` and written with `KeyedArchiveWriter`.
///
/// | Swift value | archived as |
/// |---|---|
/// | `String` | a string (`NSString`; `NSMutableString`'s `NS.string` is read too) |
/// | `Int`, other integers, `Bool`, `Double`, `Float` | a number (`NSNumber`); read back as `Int`, `Bool` or `Double` |
/// | `Date` | `NSDate` (`NS.time`) |
/// | `Data` | bytes (`NSData`; `NSMutableData`'s `NS.data` is read too) |
/// | `URL` | `NSURL` (`NS.base`, `NS.relative`) |
/// | `UUID` | `NSUUID` (`NS.uuidbytes`) |
/// | `[Any]` | `NSArray` (`NSMutableArray` read too) |
/// | `Set<AnyHashable>` | `NSSet` (`NSMutableSet` read too) |
/// | `[String: Any]`, `[AnyHashable: Any]` | `NSDictionary` (`NSMutableDictionary` read too); read back as `[String: Any]` when every key is a string |
///
/// Any other class in an archive is refused, as secure unarchiving refuses a class it was not
/// allowed, with an error naming it. StrataCore finds this type by name when the module is
/// linked (`LinkedModules`): a transformable attribute with no transformer name, or Core
/// Data's `NSSecureUnarchiveFromData` or `NSKeyedUnarchiveFromData`, uses it.
public struct KeyedArchiveValueTransformer: AttributeValueTransformer {
    /// Makes the transformer.
    public init() {}

    /// Why a value cannot be archived or unarchived.
    public struct ArchiveError: Error, CustomStringConvertible {
        /// What is wrong.
        public var description: String
    }

    /// Archives `value`.
    public func transformedValue(_ value: Any) throws -> Data {
        var writer = KeyedArchiveWriter()
        let root = try Self.archive(value, into: &writer, depth: 0)
        return writer.data(root: root)
    }

    /// Unarchives a value of one of the common Foundation types.
    public func reverseTransformedValue(_ data: Data) throws -> Any {
        do {
            let archive = try KeyedArchive(data)
            return try Self.unarchive(archive.root, from: archive, depth: 0)
        } catch let error as PlistError {
            throw ArchiveError(description: "not a readable keyed archive: \(error)")
        }
    }

    // MARK: Writing

    private static func archive(_ value: Any, into writer: inout KeyedArchiveWriter, depth: Int) throws -> PlistValue {
        guard depth <= KeyedArchive.maximumDepth else { throw ArchiveError(description: "values nested deeper than \(KeyedArchive.maximumDepth) levels") }
        switch value {
        case let string as String: return writer.string(string)
        case let flag as Bool: return writer.value(.bool(flag))
        case let number as any BinaryInteger:
            guard let integer = Int64(exactly: number) else { throw ArchiveError(description: "the integer \(number) does not fit 64 bits") }
            return writer.value(.integer(integer))
        case let number as Double: return writer.value(.real(number))
        case let number as Float: return writer.value(.real(Double(number)))
        case let date as Date: return writer.object("NSDate", ["NS.time": .real(date.timeIntervalSinceReferenceDate)])
        case let data as Data: return writer.value(.data(data))
        case let url as URL:
            return writer.object("NSURL", ["NS.base": KeyedArchiveWriter.null, "NS.relative": writer.string(url.absoluteString)])
        case let uuid as UUID:
            return writer.object("NSUUID", ["NS.uuidbytes": .data(withUnsafeBytes(of: uuid.uuid) { Data($0) })])
        case let array as [Any]:
            var items: [PlistValue] = []
            for item in array { items.append(try archive(item, into: &writer, depth: depth + 1)) }
            return writer.array(items)
        case let set as Set<AnyHashable>:
            var items: [PlistValue] = []
            for item in set { items.append(try archive(item.base, into: &writer, depth: depth + 1)) }
            return writer.array(items, className: "NSSet")
        case let dictionary as [String: Any]:
            return try archive(entries: dictionary.sorted { $0.key < $1.key }.map { ($0.key as Any, $0.value) }, into: &writer, depth: depth)
        case let dictionary as [AnyHashable: Any]:
            return try archive(entries: dictionary.sorted { "\($0.key)" < "\($1.key)" }.map { ($0.key.base, $0.value) }, into: &writer, depth: depth)
        default:
            throw ArchiveError(description: "a value of type \(type(of: value)) is not one of the Foundation types a keyed archive holds")
        }
    }

    private static func archive(entries: [(Any, Any)], into writer: inout KeyedArchiveWriter, depth: Int) throws -> PlistValue {
        var archived: [(key: PlistValue, value: PlistValue)] = []
        for (key, value) in entries {
            archived.append((try archive(key, into: &writer, depth: depth + 1), try archive(value, into: &writer, depth: depth + 1)))
        }
        return writer.dictionary(archived)
    }

    // MARK: Reading

    private static func unarchive(_ reference: PlistValue, from archive: KeyedArchive, depth: Int) throws -> Any {
        guard depth <= KeyedArchive.maximumDepth else { throw ArchiveError(description: "values nested deeper than \(KeyedArchive.maximumDepth) levels") }
        guard let value = try archive.resolve(reference) else { throw ArchiveError(description: "a nil value where a value is expected") }
        switch value {
        case .string(let string): return string
        case .integer(let number): return Int(exactly: number) ?? number
        case .real(let number): return number
        case .bool(let flag): return flag
        case .data(let data): return data
        case .date(let time): return Date(timeIntervalSinceReferenceDate: time)
        case .null, .uid, .array: throw ArchiveError(description: "a value that is not an archived object")
        case .dictionary(let object):
            let classes = try archive.classes(of: object)
            func children(_ key: String) throws -> [Any] {
                guard let items = object[key]?.array else { throw ArchiveError(description: "an archived \(classes[0]) has no \(key)") }
                return try items.map { try unarchive($0, from: archive, depth: depth + 1) }
            }
            switch classes[0] {
            case "NSString", "NSMutableString":
                guard let string = try archive.string("NS.string", in: object) else { break }
                return string
            case "NSDate":
                guard case .real(let time)? = object["NS.time"] else { break }
                return Date(timeIntervalSinceReferenceDate: time)
            case "NSData", "NSMutableData":
                guard let bytes = object["NS.data"], case .data(let data)? = try archive.resolve(bytes) else { break }
                return data
            case "NSURL":
                guard let relative = try archive.string("NS.relative", in: object) else { break }
                var base: URL?
                if let baseReference = object["NS.base"], try archive.resolve(baseReference) != nil {
                    guard let resolved = try unarchive(baseReference, from: archive, depth: depth + 1) as? URL else { break }
                    base = resolved
                }
                guard let url = URL(string: relative, relativeTo: base) else { break }
                return base == nil ? url : url.absoluteURL
            case "NSUUID":
                guard let bytes = object["NS.uuidbytes"], case .data(let data)? = try archive.resolve(bytes), data.count == 16 else { break }
                let b = Array(data)
                return UUID(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]))
            case "NSArray", "NSMutableArray":
                return try children("NS.objects")
            case "NSSet", "NSMutableSet":
                var set = Set<AnyHashable>()
                for item in try children("NS.objects") {
                    guard let hashable = item as? AnyHashable else { throw ArchiveError(description: "a set member that cannot be hashed") }
                    set.insert(hashable)
                }
                return set
            case "NSDictionary", "NSMutableDictionary":
                var byString: [String: Any] = [:]
                var byAny: [AnyHashable: Any] = [:]
                var allStrings = true
                for entry in try archive.entries(reference) {
                    let key = try unarchive(entry.key, from: archive, depth: depth + 1)
                    let item = try unarchive(entry.value, from: archive, depth: depth + 1)
                    guard let hashable = key as? AnyHashable else { throw ArchiveError(description: "a dictionary key that cannot be hashed") }
                    if let name = key as? String { byString[name] = item } else { allStrings = false }
                    byAny[hashable] = item
                }
                return allStrings ? byString : byAny
            default:
                throw ArchiveError(description: "class \(classes[0]) is not one of the Foundation classes secure unarchiving allows")
            }
            throw ArchiveError(description: "an archived \(classes[0]) without its value")
        }
    }
}

// StrataCore finds this conformance by the type's module and name (`LinkedModules`): a new
// name must be written there too.
@_spi(StoreImplementation)
extension KeyedArchiveValueTransformer: BuiltInValueTransformer {}
