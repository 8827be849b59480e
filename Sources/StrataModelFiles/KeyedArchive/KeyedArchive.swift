import Foundation

/// An `NSKeyedArchiver` archive: `$objects` (the archived objects, `$null` first), `$top.root`
/// (the archived object) and `CF$UID` references between them.
///
/// The readers built on it (expressions, predicates, property-list values, compiled models,
/// mapping models) follow references at most ``maximumDepth`` deep or not at all, so a cycle or
/// a deep chain in a hostile archive is an error rather than a crash.
package struct KeyedArchive: Sendable {
    /// How deep a reader follows references.
    package static let maximumDepth = 64

    /// The archived objects, `$null` first.
    package let objects: [PlistValue]
    /// The archived object (`$top.root`), usually a reference into ``objects``.
    package let root: PlistValue

    /// Reads the archive's outline from a binary property list.
    ///
    /// - Throws: ``PlistError`` when `data` is no binary property list or no keyed archive.
    package init(_ data: Data) throws(PlistError) {
        guard let top = try BinaryPropertyList.parse(data).dictionary else { throw PlistError("the archive is not a dictionary") }
        guard top["$archiver"]?.string == "NSKeyedArchiver" else { throw PlistError("not an NSKeyedArchiver archive") }
        guard let objects = top["$objects"]?.array else { throw PlistError("the archive has no $objects") }
        guard let root = top["$top"]?.dictionary?["root"] else { throw PlistError("the archive has no $top root") }
        self.objects = objects
        self.root = root
    }

    /// The object a value stands for: a `CF$UID` is looked up in `$objects`; `$null` is `nil`.
    package func resolve(_ value: PlistValue) throws(PlistError) -> PlistValue? {
        guard case .uid(let index) = value else { return value }
        guard objects.indices.contains(index) else { throw PlistError("reference \(index) points past the archive's \(objects.count) objects") }
        let object = objects[index]
        if case .string("$null") = object { return nil }
        return object
    }

    /// The archived object (a dictionary with a `$class`) a value stands for; `nil` for `$null`.
    package func object(_ value: PlistValue) throws(PlistError) -> [String: PlistValue]? {
        guard let resolved = try resolve(value) else { return nil }
        guard case .dictionary(let object) = resolved, object["$class"] != nil else {
            throw PlistError("a value that is not an archived object where one is expected")
        }
        return object
    }

    /// The class name of an archived object (`$class` → `$classname`), with its ancestors.
    package func classes(of object: [String: PlistValue]) throws(PlistError) -> [String] {
        guard let reference = object["$class"], let info = try resolve(reference)?.dictionary,
              let name = info["$classname"]?.string else { throw PlistError("an archived object has no class") }
        let ancestors = info["$classes"]?.array?.compactMap(\.string) ?? []
        return [name] + ancestors.filter { $0 != name }
    }

    /// The string an object holds under `key`, if it holds one.
    package func string(_ key: String, in object: [String: PlistValue]) throws(PlistError) -> String? {
        guard let value = object[key], let resolved = try resolve(value) else { return nil }
        if case .string(let string) = resolved { return string }
        // An NSMutableString is archived as an object holding NS.string.
        if case .dictionary(let inner) = resolved, case .string(let string)? = inner["NS.string"] { return string }
        return nil
    }

    /// The elements of an archived `NSArray`.
    package func array(_ value: PlistValue) throws(PlistError) -> [PlistValue] {
        guard let object = try resolve(value)?.dictionary, let items = object["NS.objects"]?.array else {
            throw PlistError("an archived array has no NS.objects")
        }
        return items
    }

    /// The elements of the `NSArray` or `NSSet` an object holds under `key`; empty when absent
    /// or `$null`.
    package func elements(_ key: String, in object: [String: PlistValue]) throws(PlistError) -> [PlistValue] {
        guard let value = object[key], try resolve(value) != nil else { return [] }
        return try array(value)
    }

    /// The entries of an archived dictionary (`NSDictionary`, or Core Data's
    /// `NSKnownKeysDictionary1`, whose keys sit in its `searchMapping`), in archive order; empty
    /// when `value` is `$null`.
    package func entries(_ value: PlistValue) throws(PlistError) -> [(key: PlistValue, value: PlistValue)] {
        guard let object = try object(value) else { return [] }
        if let keys = object["NS.keys"]?.array, let values = object["NS.objects"]?.array {
            guard keys.count == values.count else { throw PlistError("an archived dictionary has \(keys.count) keys for \(values.count) values") }
            return Array(zip(keys, values)).map { (key: $0.0, value: $0.1) }
        }
        guard let mapping = object["searchMapping"], let strategy = try self.object(mapping),
              let keyList = strategy["keys"], let values = object["values"] else {
            throw PlistError("an archived dictionary of class \(try classes(of: object)[0]) has neither NS.keys nor searchMapping")
        }
        let keys = try array(keyList)
        let items = try array(values)
        guard keys.count == items.count else { throw PlistError("an archived dictionary has \(keys.count) keys for \(items.count) values") }
        // Empty slots of the hash table hold the dictionary's emptyToken.
        var empty: PlistValue?
        if let token = object["emptyToken"] { empty = try resolve(token) }
        var result: [(key: PlistValue, value: PlistValue)] = []
        for (key, item) in zip(keys, items) {
            if let empty, try resolve(item) == empty { continue }
            result.append((key: key, value: item))
        }
        return result
    }

    /// The entries of the dictionary an object holds under `key`, keyed by string; empty when
    /// absent or `$null`.
    package func stringKeyedEntries(_ key: String, in object: [String: PlistValue]) throws(PlistError) -> [(key: String, value: PlistValue)] {
        guard let value = object[key] else { return [] }
        var result: [(key: String, value: PlistValue)] = []
        for entry in try entries(value) {
            guard case .string(let name)? = try resolve(entry.key) else {
                throw PlistError("the dictionary under \(key) has a key that is not a string")
            }
            result.append((key: name, value: entry.value))
        }
        return result
    }

    /// The integer an object holds under `key`, if it holds one.
    package func integer(_ key: String, in object: [String: PlistValue]) throws(PlistError) -> Int64? {
        guard let value = object[key], let resolved = try resolve(value) else { return nil }
        switch resolved {
        case .integer(let number): return number
        case .bool(let flag): return flag ? 1 : 0
        default: throw PlistError("\(key) is not an integer")
        }
    }

    /// The Boolean an object holds under `key`; `false` when absent.
    package func flag(_ key: String, in object: [String: PlistValue]) throws(PlistError) -> Bool {
        guard let value = object[key], let resolved = try resolve(value) else { return false }
        switch resolved {
        case .bool(let flag): return flag
        case .integer(let number): return number != 0
        default: throw PlistError("\(key) is not a Boolean")
        }
    }
}
