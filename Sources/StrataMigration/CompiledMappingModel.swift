import Foundation
import StrataCore
import StrataModelFiles

extension MappingModel {
    /// Reads a compiled mapping model: the `.cdm` file Xcode's mapping model compiler makes of
    /// an `.xcmappingmodel`, an `NSKeyedArchiver` archive of Core Data's `NSMappingModel`.
    ///
    /// The archive holds the entity mappings in the order Core Data runs them, each with its
    /// type, entities and their version hashes, its source expression, policy class, property
    /// mappings and user info; the result is the ``MappingModel`` an `.xcmappingmodel` gives,
    /// its version hashes filled in. A source expression in Core Data's usual form,
    /// `FETCH(FUNCTION($manager, "fetchRequestForSourceEntityNamed:predicateString:", …), $manager.sourceContext, NO)`,
    /// is read as the mapping's filter predicate (``SourceFetch``).
    ///
    /// - Throws: ``MappingModelError`` naming the file, and the entity or property mapping at
    ///   fault: a file that is no keyed archive (truncated, garbled), an archive of another
    ///   class, a mapping without a name.
    public static func loadCompiled(at url: URL) throws(MappingModelError) -> MappingModel {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw .unreadable(file: url.path, reason: "no such file, or it cannot be read")
        }
        return try MappingModel(compiledArchive: data, file: url.path)
    }

    /// Reads a compiled mapping model from the bytes of a `.cdm` file; `file` names it in errors.
    ///
    /// - Throws: ``MappingModelError`` as ``loadCompiled(at:)`` does.
    public init(compiledArchive data: Data, file: String) throws(MappingModelError) {
        let archive: KeyedArchive
        do {
            archive = try KeyedArchive(data)
        } catch {
            throw .invalidDocument(file: file, reason: "not a compiled mapping model (a keyed archive): \(error)")
        }
        self = try CompiledMappingReader(archive: archive, file: file).mappingModel()
    }

    /// The mapping model as a compiled mapping model (a `.cdm` file's bytes), in the form
    /// ``init(compiledArchive:file:)`` and Core Data read: an `NSKeyedArchiver` archive of an
    /// `NSMappingModel`. An entity mapping whose source fetch is generated is written with the
    /// source expression Core Data generates from its source entity and filter predicate.
    public func compiledArchive() -> Data {
        var writer = CompiledMappingWriter()
        return writer.data(self)
    }
}

/// Reads the objects of a compiled mapping model's archive.
private struct CompiledMappingReader {
    let archive: KeyedArchive
    let file: String

    func mappingModel() throws(MappingModelError) -> MappingModel {
        let entityMappings = try reading("the archive") { () throws(PlistError) -> [PlistValue] in
            guard let root = try archive.object(archive.root) else { throw PlistError("the root is nil") }
            let className = try archive.classes(of: root)[0]
            guard className == "NSMappingModel" else { throw PlistError("the root is an \(className), not an NSMappingModel") }
            return try archive.elements("NSEntityMappings", in: root)
        }
        var mappings: [EntityMapping] = []
        var seen: Set<String> = []
        for (index, value) in entityMappings.enumerated() {
            let mapping = try entityMapping(value, position: index)
            guard seen.insert(mapping.name).inserted else {
                throw .invalidDocument(file: file, reason: "two entity mappings are named '\(mapping.name)'")
            }
            mappings.append(mapping)
        }
        return MappingModel(entityMappings: mappings, file: file)
    }

    private func entityMapping(_ value: PlistValue, position: Int) throws(MappingModelError) -> EntityMapping {
        var label = "entity mapping #\(position + 1)"
        let object = try reading(label) { () throws(PlistError) -> [String: PlistValue] in
            guard let object = try archive.object(value), try archive.classes(of: object)[0] == "NSEntityMapping" else {
                throw PlistError("not an NSEntityMapping")
            }
            return object
        }
        let name = try reading(label) { () throws(PlistError) in try archive.string("NSMappingName", in: object) }
        guard let name, !name.isEmpty else { throw .invalidObject(file: file, object: label, reason: "an entity mapping without a name") }
        label = "entity mapping \(name)"
        return try reading(label) { () throws(PlistError) -> EntityMapping in
            let typeCode = try archive.integer("NSMappingType", in: object) ?? 0
            guard let type = EntityMappingType(rawValue: Int(typeCode)) else { throw PlistError("unknown mapping type \(typeCode)") }
            var mapping = EntityMapping(
                name: name, mappingType: type,
                sourceEntityName: try archive.string("NSSourceEntityName", in: object),
                sourceEntityVersionHash: try data("NSSourceEntityVersionHash", in: object),
                destinationEntityName: try archive.string("NSDestinationEntityName", in: object),
                destinationEntityVersionHash: try data("NSDestinationEntityVersionHash", in: object),
                generatesSourceExpression: true,
                entityMigrationPolicyClassName: try archive.string("NSEntityMigrationPolicyClassName", in: object).flatMap { $0.isEmpty ? nil : $0 },
                attributeMappings: try propertyMappings("NSAttributeMappings", in: object),
                relationshipMappings: try propertyMappings("NSRelationshipMappings", in: object),
                userInfo: try userInfo(object))
            if let value = object["NSSourceExpression"], try archive.resolve(value) != nil {
                let expression = try archive.expression(value, depth: 1)
                mapping.sourceExpression = expression
                // Core Data's generated fetch is the filter predicate; any other is custom.
                if let fetch = expression.sourceFetch, fetch.entityName == mapping.sourceEntityName,
                   case .fetch(.function(_, SourceFetch.selector, _), _, _) = expression {
                    mapping.filterPredicate = fetch.predicate
                } else {
                    mapping.generatesSourceExpression = false
                }
            }
            return mapping
        }
    }

    private func propertyMappings(_ key: String, in owner: [String: PlistValue]) throws(PlistError) -> [PropertyMapping] {
        var mappings: [PropertyMapping] = []
        for value in try archive.elements(key, in: owner) {
            guard let object = try archive.object(value), try archive.classes(of: object)[0] == "NSPropertyMapping" else {
                throw PlistError("\(key) holds an object that is not an NSPropertyMapping")
            }
            var name = try archive.string("NSDestinationPropertyName", in: object)
            if name == nil { name = try archive.string("NSPropertyName", in: object) }
            guard let name, !name.isEmpty else {
                throw PlistError("\(key) holds a property mapping without a name")
            }
            var expression: MappingExpression?
            if let value = object["NSValueExpression"], try archive.resolve(value) != nil {
                do {
                    expression = try archive.expression(value, depth: 1)
                } catch {
                    throw PlistError("property mapping \(name): \(error)")
                }
            }
            mappings.append(PropertyMapping(name: name, valueExpression: expression, userInfo: try userInfo(object)))
        }
        let sorted = mappings.sorted { $0.name < $1.name }
        for (a, b) in zip(sorted, sorted.dropFirst()) where a.name == b.name {
            throw PlistError("two mappings of the property '\(a.name)'")
        }
        return sorted
    }

    /// Bytes held as a plain value or as an archived `NSData`.
    private func data(_ key: String, in object: [String: PlistValue]) throws(PlistError) -> Data? {
        guard let value = object[key], let resolved = try archive.resolve(value) else { return nil }
        switch resolved {
        case .data(let bytes): return bytes
        case .dictionary(let inner):
            if case .data(let bytes)? = inner["NS.data"] { return bytes }
        default: break
        }
        throw PlistError("\(key) is not bytes")
    }

    private func userInfo(_ object: [String: PlistValue]) throws(PlistError) -> [String: PropertyListValue] {
        guard let value = object["NSUserInfo"], try archive.resolve(value) != nil else { return [:] }
        guard case .dictionary(let info) = try archive.propertyList(value, depth: 1) else {
            throw PlistError("NSUserInfo is not a dictionary")
        }
        return info
    }

    /// Runs `body`, turning what it throws into a ``MappingModelError`` naming `object`.
    private func reading<T>(_ object: String, _ body: () throws(PlistError) -> T) throws(MappingModelError) -> T {
        do {
            return try body()
        } catch {
            throw .invalidObject(file: file, object: object, reason: error.description)
        }
    }
}

/// Writes a mapping model as `NSKeyedArchiver` archives an `NSMappingModel`.
private struct CompiledMappingWriter {
    var archive = KeyedArchiveWriter()

    mutating func data(_ model: MappingModel) -> Data {
        let mappings = model.entityMappings.map { entityMapping($0) }
        let root = archive.object("NSMappingModel", ["NSEntityMappings": archive.array(mappings)])
        return archive.data(root: root)
    }

    private mutating func entityMapping(_ mapping: EntityMapping) -> PlistValue {
        var source = mapping.sourceExpression.map { archive.expression($0) } ?? KeyedArchiveWriter.null
        if mapping.generatesSourceExpression, let entity = mapping.sourceEntityName,
           mapping.mappingType != .add, mapping.mappingType != .remove {
            source = archive.expression(SourceFetch(entityName: entity, predicate: mapping.filterPredicate).expression)
        }
        let attributes = mapping.attributeMappings.map { propertyMapping($0) }
        let relationships = mapping.relationshipMappings.map { propertyMapping($0) }
        return archive.object("NSEntityMapping", [
            "NSMappingName": archive.string(mapping.name),
            "NSMappingType": .integer(Int64(mapping.mappingType.rawValue)),
            "NSSourceEntityName": archive.string(mapping.sourceEntityName),
            "NSSourceEntityVersionHash": mapping.sourceEntityVersionHash.map { archive.value(.data($0)) } ?? KeyedArchiveWriter.null,
            "NSDestinationEntityName": archive.string(mapping.destinationEntityName),
            "NSDestinationEntityVersionHash": mapping.destinationEntityVersionHash.map { archive.value(.data($0)) } ?? KeyedArchiveWriter.null,
            "NSSourceExpression": source,
            "NSEntityMigrationPolicyClassName": archive.string(mapping.entityMigrationPolicyClassName),
            "NSAttributeMappings": archive.array(attributes),
            "NSRelationshipMappings": archive.array(relationships),
            "NSUserInfo": userInfo(mapping.userInfo),
        ])
    }

    private mutating func propertyMapping(_ mapping: PropertyMapping) -> PlistValue {
        let expression = mapping.valueExpression.map { archive.expression($0) } ?? KeyedArchiveWriter.null
        return archive.object("NSPropertyMapping", [
            "NSDestinationPropertyName": archive.string(mapping.name),
            "NSValueExpression": expression,
            "NSUserInfo": userInfo(mapping.userInfo),
        ])
    }

    private mutating func userInfo(_ info: [String: PropertyListValue]) -> PlistValue {
        info.isEmpty ? KeyedArchiveWriter.null : value(.dictionary(info))
    }

    private mutating func value(_ value: PropertyListValue) -> PlistValue {
        switch value {
        case .string(let text): return archive.string(text)
        case .integer(let number): return archive.value(.integer(number))
        case .double(let number): return archive.value(.real(number))
        case .bool(let flag): return archive.value(.bool(flag))
        case .data(let bytes): return archive.value(.data(bytes))
        case .date(let date): return archive.object("NSDate", ["NS.time": .real(date.timeIntervalSinceReferenceDate)])
        case .array(let items):
            let references = items.map { self.value($0) }
            return archive.array(references)
        case .dictionary(let entries):
            let pairs = entries.keys.sorted().map { key in (key: archive.string(key), value: self.value(entries[key] ?? .string(""))) }
            return archive.dictionary(pairs)
        }
    }
}
