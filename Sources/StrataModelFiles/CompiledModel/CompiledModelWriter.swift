import Foundation
import StrataCore

/// Turns a ``ManagedObjectModel`` into an archived `NSManagedObjectModel`, with the classes,
/// keys and value encodings Core Data's own compiled models use (`docs/formats/model-cache.md`),
/// so that ``CompiledModelReader`` reads the same model back and Core Data can read it too.
///
/// Like Core Data's, the archive repeats every inherited property on each sub-entity (as an
/// object of that sub-entity), points every relationship at its destination entity and inverse,
/// and gives each element its name as its renaming identifier when none is set. Five keys Core
/// Data does not know (and ignores when it unarchives) keep what its own keys cannot say exactly:
/// ``writerKey``, ``propertyOrderKey``, ``predicateFormatKey``, ``derivationTextKey`` and
/// ``compositesKey``.
struct CompiledModelWriter {
    /// Marks an archive Strata wrote (on the model; its value is 1): configurations keep their
    /// order and a class name is read as written.
    static let writerKey = "StrataArchiveVersion"
    /// An entity's declared properties by name, in the model's order (Core Data keeps no order).
    static let propertyOrderKey = "StrataPropertyOrder"
    /// A fetch request's predicate as written in the model, beside the archived `NSPredicate`.
    static let predicateFormatKey = "StrataPredicateFormat"
    /// A derived attribute's derivation as written in the model, when the archived expression
    /// reads back as other text.
    static let derivationTextKey = "StrataDerivationExpression"
    /// The composite attributes an entity declares, as JSON text (``CompositeOutline``); their
    /// elements are archived as plain attributes named by their paths.
    static let compositesKey = "StrataCompositeAttributes"

    let model: ManagedObjectModel
    var archive = KeyedArchiveWriter()
    /// The object number of each entity.
    var entityNumbers: [String: Int] = [:]
    /// The object number of each property of each entity (inherited ones included).
    var propertyNumbers: [String: [String: Int]] = [:]

    init(model: ManagedObjectModel) {
        self.model = model
    }

    /// The archive's bytes (a binary property list).
    mutating func write() -> Data {
        let root = archive.reserve()
        for entity in model.entities {
            entityNumbers[entity.name] = archive.reserve()
        }
        for entity in model.entities {
            var numbers: [String: Int] = [:]
            for property in entity.properties { numbers[property.name] = archive.reserve() }
            propertyNumbers[entity.name] = numbers
        }
        for entity in model.entities { writeEntity(entity, model: root) }
        writeModel(root)
        return archive.data(root: .uid(root))
    }

    /// The `NSManagedObjectModel`.
    private mutating func writeModel(_ root: Int) {
        let names = model.entities.map(\.name)
        let keys = archive.array(names.map { archive.string($0) })
        let mapping = archive.object("NSKnownKeysMappingStrategy1", ["keys": keys, "length": .integer(Int64(names.count)), "version": .integer(1)])
        let values = archive.array(names.map { .uid(entityNumbers[$0] ?? 0) })
        let entities = archive.object("NSKnownKeysDictionary1", [
            "searchMapping": mapping, "values": values,
            "emptyToken": archive.string("__empty_slot_token_4c24_98dc_ac1e_b773__"), "version": .integer(1),
        ])
        var fields: [String: PlistValue] = [
            "NSEntities": entities,
            "NSVersionIdentifiers": archive.array(model.versionIdentifiers.sorted().map { archive.string($0) }, className: "NSSet"),
            "NSFetchRequestTemplates": KeyedArchiveWriter.null,
            Self.writerKey: .integer(1),
        ]
        if !model.configurations.isEmpty {
            let entries = model.configurations.keys.sorted().map { name in
                (key: archive.string(name),
                 value: archive.array((model.configurations[name] ?? []).map { .uid(entityNumbers[$0] ?? 0) }, className: "NSMutableSet"))
            }
            fields["NSConfigurations"] = archive.dictionary(entries, className: "NSMutableDictionary")
        }
        if !model.fetchRequestTemplates.isEmpty {
            let entries = model.fetchRequestTemplates.sorted { $0.key < $1.key }.map { name, template in
                (key: archive.string(name), value: fetchRequest(entity: template.entityName, predicate: template.predicateFormat))
            }
            fields["NSFetchRequestTemplates"] = archive.dictionary(entries)
        }
        archive.set(root, className: "NSManagedObjectModel", fields)
    }

    /// One `NSEntityDescription`, with every property it has (inherited ones included).
    private mutating func writeEntity(_ entity: EntityDescription, model root: Int) {
        let number = entityNumbers[entity.name] ?? 0
        let subentities = entity.subentityNames.map { (key: archive.string($0), value: PlistValue.uid(entityNumbers[$0] ?? 0)) }
        let properties = entity.properties.map { property in
            (key: archive.string(property.name), value: PlistValue.uid(propertyNumbers[entity.name]?[property.name] ?? 0))
        }
        for property in entity.properties {
            writeProperty(property, of: entity, number: propertyNumbers[entity.name]?[property.name] ?? 0)
        }
        var fields: [String: PlistValue] = [
            "NSEntityName": archive.string(entity.name),
            "NSManagedObjectModel": .uid(root),
            "NSSuperentity": entity.superentityName.map { .uid(entityNumbers[$0] ?? 0) } ?? KeyedArchiveWriter.null,
            "NSSubentities": archive.dictionary(subentities, className: "NSMutableDictionary"),
            "NSProperties": archive.dictionary(properties, className: "NSMutableDictionary"),
            "NSClassNameForEntity": archive.string(entity.managedObjectClassName),
            "NSUserInfo": userInfo(entity.userInfo),
            "NSRenamingIdentifier": archive.string(entity.renamingIdentifier ?? entity.name),
            "NSVersionHashModifier": archive.string(entity.versionHashModifier),
            Self.propertyOrderKey: archive.array(entity.declaredProperties.map { archive.string($0.name) }),
        ]
        if entity.isAbstract { fields["NSIsAbstract"] = .bool(true) }
        if let composites = CompositeOutline.text(declaredBy: entity) { fields[Self.compositesKey] = archive.string(composites) }
        // Like Core Data, the lists are left out when empty.
        if !entity.uniquenessConstraints.isEmpty {
            fields["NSUniqueTuples"] = archive.array(entity.uniquenessConstraints.map { tuple in
                archive.array(tuple.map { archive.string($0) }, className: "NSMutableArray")
            }, className: "NSMutableArray")
        }
        // Core Data lists an indexed attribute as a one-element fetch index named after it.
        var indexes = entity.declaredProperties.compactMap(\.attribute).filter(\.isIndexed).map {
            FetchIndexDescription(name: $0.name, elements: [.init(property: $0.name)])
        }
        indexes += entity.indexes
        guard !indexes.isEmpty else {
            archive.set(number, className: "NSEntityDescription", fields)
            return
        }
        fields["NSFetchIndexDescriptions"] = archive.array(indexes.map { fetchIndex($0, entity: number) }, className: "NSMutableArray")
        fields["NSCompoundIndexes"] = archive.array(indexes.map { index in
            archive.array(index.elements.map { archive.string($0.property) }, className: "NSMutableArray")
        }, className: "NSMutableArray")
        archive.set(number, className: "NSEntityDescription", fields)
    }

    /// An `NSFetchIndexDescription` with its elements.
    private mutating func fetchIndex(_ index: FetchIndexDescription, entity: Int) -> PlistValue {
        let number = archive.reserve()
        let elements = index.elements.map { element in
            archive.object("NSFetchIndexElementDescription", [
                "NSPropertyName": archive.string(element.property), "NSAscending": .bool(element.ascending),
                "NSFetchIndexElementType": .integer(0), "NSFetchIndexDescription": .uid(number),
            ])
        }
        archive.set(number, className: "NSFetchIndexDescription", [
            "NSIndexName": archive.string(index.name), "NSIndexElements": archive.array(elements, className: "NSMutableArray"),
            "NSEntity": .uid(entity), "NSPartialIndexPredicate": KeyedArchiveWriter.null,
        ])
        return .uid(number)
    }

    /// An `NSDictionary` of strings.
    mutating func userInfo(_ info: [String: String]) -> PlistValue {
        archive.dictionary(info.keys.sorted().map { (key: archive.string($0), value: archive.string(info[$0] ?? "")) })
    }

    /// An `NSFetchRequest` of `entity`, with its predicate archived where Strata can say it in
    /// `NSPredicate`'s terms and kept as text beside it.
    mutating func fetchRequest(entity: String, predicate format: String?) -> PlistValue {
        var fields: [String: PlistValue] = [
            "NSEntity": .uid(entityNumbers[entity] ?? 0),
            "NSPredicate": KeyedArchiveWriter.null,
            "NSFetchLimit": .integer(0), "NSFetchOffset": .integer(0), "NSBatchSize": .integer(0),
            "NSResultType": .integer(0), "NSAllocationType": .integer(0),
            "NSHasFetchRequestFlags": .bool(true), "NSFetchRequestFlags": .integer(30),
            "NSSortDescriptors": KeyedArchiveWriter.null, "NSHavingPredicate": KeyedArchiveWriter.null,
            "NSValuesToFetch": KeyedArchiveWriter.null, "NSValuesToGroupBy": KeyedArchiveWriter.null,
            "NSRelationshipKeyPathsForPrefetching": KeyedArchiveWriter.null,
        ]
        if let format {
            if let parsed = try? ObjectPredicate(format: format), let archived = predicate(parsed) {
                fields["NSPredicate"] = archived
            }
            fields[Self.predicateFormatKey] = archive.string(format)
        }
        return archive.object("NSFetchRequest", fields)
    }
}
