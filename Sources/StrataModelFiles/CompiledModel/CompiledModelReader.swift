import Foundation
import StrataCore

/// Turns an archived `NSManagedObjectModel` into a ``ManagedObjectModel``.
///
/// References between archived objects (entity ↔ sub-entities, relationship ↔ inverse, a
/// property ↔ its entity) form cycles; the reader never follows them, it only reads the name of
/// the object a reference points to, so a hostile archive cannot make it loop.
struct CompiledModelReader {
    let archive: KeyedArchive
    /// Whether Strata wrote the archive (``CompiledModelWriter/writerKey``): its configurations
    /// list their entities in the model's order, and a class name is kept as written.
    let writtenByStrata: Bool

    /// A reader of `archive`.
    init(archive: KeyedArchive) {
        self.archive = archive
        var marked = false
        if let root = try? archive.object(archive.root) { marked = root[CompiledModelWriter.writerKey] != nil }
        writtenByStrata = marked
    }

    /// The archived object `value` points to, of class `expected` or a subclass of it.
    func object(_ value: PlistValue?, _ expected: String, for owner: String) throws(CompiledModelError) -> [String: PlistValue] {
        try reading(owner) { () throws(PlistError) in
            guard let value, let object = try archive.object(value) else { throw PlistError("no \(expected) where one is expected") }
            let classes = try archive.classes(of: object)
            guard classes.contains(expected) else { throw PlistError("a \(classes[0]) where an \(expected) is expected") }
            return object
        }
    }

    /// Runs `body`, naming `owner` in the error it throws.
    func reading<T>(_ owner: String, _ body: () throws(PlistError) -> T) throws(CompiledModelError) -> T {
        do {
            return try body()
        } catch {
            throw .invalidObject(object: owner, reason: error.description)
        }
    }

    /// The string under `key`, required.
    func requiredString(_ key: String, in object: [String: PlistValue], of owner: String) throws(CompiledModelError) -> String {
        try reading(owner) { () throws(PlistError) in
            guard let text = try archive.string(key, in: object), !text.isEmpty else { throw PlistError("it has no \(key)") }
            return text
        }
    }

    /// The string under `key`, if there is one.
    func optionalString(_ key: String, in object: [String: PlistValue], of owner: String) throws(CompiledModelError) -> String? {
        try reading(owner) { () throws(PlistError) in try archive.string(key, in: object) }
    }

    // MARK: The model

    /// The whole model: entities, configurations, fetch request templates, version identifiers.
    func model() throws(CompiledModelError) -> ManagedObjectModel {
        let root = try object(archive.root, "NSManagedObjectModel", for: "model")
        let entityEntries = try reading("model") { () throws(PlistError) in try archive.stringKeyedEntries("NSEntities", in: root) }
        var entities: [EntityDescription] = []
        for (name, value) in entityEntries {
            entities.append(try entity(value, named: name))
        }
        var configurations: [String: [String]] = [:]
        for (name, value) in try reading("model", { () throws(PlistError) in try archive.stringKeyedEntries("NSConfigurations", in: root) }) {
            let owner = "configuration \(name)"
            var members: [String] = []
            for member in try reading(owner, { () throws(PlistError) in try archive.array(value) }) {
                members.append(try entityName(of: member, for: owner))
            }
            configurations[name] = writtenByStrata ? members : members.sorted()
        }
        var templates: [String: FetchRequestTemplate] = [:]
        for (name, value) in try reading("model", { () throws(PlistError) in try archive.stringKeyedEntries("NSFetchRequestTemplates", in: root) }) {
            let request = try fetchRequest(value, for: "fetch request template \(name)")
            templates[name] = FetchRequestTemplate(name: name, entityName: request.entityName, predicateFormat: request.predicateFormat)
        }
        let identifiers = try reading("model") { () throws(PlistError) in
            var identifiers: Set<String> = []
            for value in try archive.elements("NSVersionIdentifiers", in: root) {
                guard case .string(let identifier)? = try archive.resolve(value) else { throw PlistError("a version identifier that is not a string") }
                identifiers.insert(identifier)
            }
            return identifiers
        }
        do {
            return try ManagedObjectModel(entities: entities, configurations: configurations,
                                          fetchRequestTemplates: templates, versionIdentifiers: identifiers)
        } catch {
            throw .invalidModel(reason: String(describing: error))
        }
    }

    /// The name of the archived entity `value` points to.
    func entityName(of value: PlistValue?, for owner: String) throws(CompiledModelError) -> String {
        let entity = try object(value, "NSEntityDescription", for: owner)
        return try requiredString("NSEntityName", in: entity, of: owner)
    }

    // MARK: Entities

    /// One `NSEntityDescription`, with the properties it declares (those its parent has are
    /// inherited, though the archive repeats them on every sub-entity).
    func entity(_ value: PlistValue, named key: String) throws(CompiledModelError) -> EntityDescription {
        let owner = "entity \(key)"
        let archived = try object(value, "NSEntityDescription", for: owner)
        let name = try requiredString("NSEntityName", in: archived, of: owner)
        guard name == key else { throw .invalidObject(object: owner, reason: "it is filed under another name than its own, \(name)") }
        var inherited: Set<String> = []
        var parentName: String?
        if let reference = archived["NSSuperentity"], try reading(owner, { () throws(PlistError) in try archive.resolve(reference) }) != nil {
            let parent = try object(reference, "NSEntityDescription", for: owner)
            parentName = try requiredString("NSEntityName", in: parent, of: owner)
            let parentProperties = try reading(owner) { () throws(PlistError) in try archive.stringKeyedEntries("NSProperties", in: parent) }
            inherited = Set(parentProperties.map(\.key))
        }
        var className = try optionalString("NSClassNameForEntity", in: archived, of: owner)
        if className == "NSManagedObject", !writtenByStrata { className = nil }
        var entity = EntityDescription(
            name, parent: parentName,
            isAbstract: try reading(owner) { () throws(PlistError) in try archive.flag("NSIsAbstract", in: archived) },
            managedObjectClassName: className,
            userInfo: try userInfo(archived, of: owner),
            renamingIdentifier: try renamingIdentifier(archived, name: name, of: owner),
            versionHashModifier: try optionalString("NSVersionHashModifier", in: archived, of: owner),
            uniquenessConstraints: try uniquenessConstraints(archived, of: owner))
        var attributes: [PropertyDescription] = []
        var relationships: [PropertyDescription] = []
        var fetchedProperties: [PropertyDescription] = []
        let properties = try reading(owner) { () throws(PlistError) in try archive.stringKeyedEntries("NSProperties", in: archived) }
        for (propertyName, archivedProperty) in properties.sorted(by: { $0.key < $1.key }) where !inherited.contains(propertyName) {
            switch try property(archivedProperty, named: propertyName, in: name) {
            case .attribute(let attribute)?: attributes.append(.attribute(attribute))
            case .relationship(let relationship)?: relationships.append(.relationship(relationship))
            case .fetchedProperty(let fetched)?: fetchedProperties.append(.fetchedProperty(fetched))
            case nil: break
            }
        }
        // Xcode's order: attributes, relationships, fetched properties, each by name; the order
        // the model had when Strata wrote the archive.
        entity.declaredProperties = attributes + relationships + fetchedProperties
        let order = try reading(owner) { () throws(PlistError) in
            try archive.elements(CompiledModelWriter.propertyOrderKey, in: archived).map { value throws(PlistError) -> String in
                guard case .string(let name)? = try archive.resolve(value) else { throw PlistError("a property name that is not a string") }
                return name
            }
        }
        if !order.isEmpty {
            let positions = Dictionary(order.enumerated().map { ($1, $0) }) { first, _ in first }
            entity.declaredProperties.sort { (positions[$0.name] ?? .max) < (positions[$1.name] ?? .max) }
        }
        if let composites = try optionalString(CompiledModelWriter.compositesKey, in: archived, of: owner) {
            entity.declaredProperties = try CompositeOutline.restoring(composites, in: entity.declaredProperties, of: owner)
        }
        entity.indexes = try indexes(archived, attributes: attributes.compactMap(\.attribute), of: owner)
        return entity
    }

    /// Core Data archives every element's name as its renaming identifier when none was set;
    /// only one that differs from the name is kept.
    func renamingIdentifier(_ archived: [String: PlistValue], name: String, of owner: String) throws(CompiledModelError) -> String? {
        let identifier = try optionalString("NSRenamingIdentifier", in: archived, of: owner)
        return identifier == name || identifier?.isEmpty == true ? nil : identifier
    }

    /// `NSUniqueTuples`: arrays of property names (or of archived properties).
    func uniquenessConstraints(_ archived: [String: PlistValue], of owner: String) throws(CompiledModelError) -> [[String]] {
        try reading(owner) { () throws(PlistError) in
            var constraints: [[String]] = []
            for tuple in try archive.elements("NSUniqueTuples", in: archived) {
                var names: [String] = []
                for element in try archive.array(tuple) {
                    names.append(try propertyName(element))
                }
                constraints.append(names)
            }
            return constraints
        }
    }

    /// A property named by a string or by an archived property description.
    private func propertyName(_ value: PlistValue) throws(PlistError) -> String {
        switch try archive.resolve(value) {
        case .string(let name)?: return name
        case .dictionary(let object)? where object["NS.string"] != nil:
            guard let name = try archive.string("NS.string", in: object) else { throw PlistError("an empty property name") }
            return name
        case .dictionary(let object)?:
            guard let name = try archive.string("NSPropertyName", in: object) else { throw PlistError("a property without a name") }
            return name
        default:
            throw PlistError("a property name that is neither a string nor a property")
        }
    }

    /// `NSFetchIndexDescriptions`, without the one-element indexes Core Data makes for each
    /// indexed attribute (the attribute's ``AttributeDescription/isIndexed`` says it); from
    /// `NSCompoundIndexes` when an older archive has no fetch index descriptions.
    func indexes(_ archived: [String: PlistValue], attributes: [AttributeDescription], of owner: String) throws(CompiledModelError) -> [FetchIndexDescription] {
        try reading(owner) { () throws(PlistError) in
            let indexed = Set(attributes.filter(\.isIndexed).map(\.name))
            var hasFetchIndexes = false
            if let value = archived["NSFetchIndexDescriptions"], try archive.resolve(value) != nil { hasFetchIndexes = true }
            if !hasFetchIndexes {
                var result: [FetchIndexDescription] = []
                for (number, compound) in try archive.elements("NSCompoundIndexes", in: archived).enumerated() {
                    var elements: [FetchIndexDescription.Element] = []
                    for element in try archive.array(compound) { elements.append(.init(property: try propertyName(element))) }
                    result.append(FetchIndexDescription(name: ContentsReader.compoundIndexName(number), elements: elements))
                }
                return result
            }
            var result: [FetchIndexDescription] = []
            for value in try archive.elements("NSFetchIndexDescriptions", in: archived) {
                guard let index = try archive.object(value), let name = try archive.string("NSIndexName", in: index) else {
                    throw PlistError("a fetch index without a name")
                }
                var elements: [FetchIndexDescription.Element] = []
                for item in try archive.elements("NSIndexElements", in: index) {
                    guard let element = try archive.object(item), let property = try archive.string("NSPropertyName", in: element) else {
                        throw PlistError("an element of fetch index \(name) names no property")
                    }
                    let ascending = element["NSAscending"] == nil ? true : try archive.flag("NSAscending", in: element)
                    elements.append(.init(property: property, ascending: ascending))
                }
                if elements.count == 1, elements[0].property == name, indexed.contains(name) { continue }
                result.append(FetchIndexDescription(name: name, elements: elements))
            }
            return result
        }
    }
}
