import Collections
import Foundation
@_spi(StoreImplementation) import StrataCore

/// The `strata-export` JSON document (see `docs/formats/json.md`): a store's UUID, metadata and
/// every object, written so that two exports of equal data are equal byte for byte.
public enum ExportDocument {
    /// The value of the document's `format` member.
    public static let formatName = "strata-export"
    /// The document version this code writes and reads.
    public static let version = 1

    /// The reference of a saved object: `<Entity>/p<primary key>`.
    public static func ref(_ id: ManagedObjectID) -> String {
        "\(id.entityName)/p\(id.primaryKey.map(String.init) ?? "?")"
    }

    /// The whole document for `image`, one object per line, objects sorted by entity then
    /// primary key. `progress` hears (objects written, total) as the work goes.
    @_spi(StoreImplementation) public static func text(of image: StoreImage, storeType: StoreType, model: ManagedObjectModel,
                            progress: ((Int, Int) -> Void)? = nil) -> String {
        let store: JSONValue = .object([
            "type": .string(storeType.rawValue),
            "uuid": .string(image.identifier),
            "metadata": PropertyListJSON.encode(.dictionary(image.metadata)),
            "nextPrimaryKeys": .object(OrderedDictionary(uniqueKeysWithValues: image.nextPrimaryKeys.keys.sorted().map {
                ($0, JSONValue.integer(image.nextPrimaryKeys[$0]!))
            })),
        ])
        var output = "{\n  \"format\": \"\(formatName)\",\n  \"version\": \(version),\n  \"store\": "
        JSONWriter.write(store, to: &output)
        output += ",\n  \"objects\": ["
        let objects = image.orderedObjects
        for (index, snapshot) in objects.enumerated() {
            output += index == 0 ? "\n    " : ",\n    "
            let json = object(snapshot, model: model) { image.objects[snapshot.objectID]?.toMany[$0] ?? [] }
            JSONWriter.write(json, to: &output)
            if index % 1000 == 999 { progress?(index + 1, objects.count) }
        }
        progress?(objects.count, objects.count)
        output += objects.isEmpty ? "]\n}\n" : "\n  ]\n}\n"
        return output
    }

    /// One object of the `objects` array: entity, ref, every stored attribute (nil as `null`)
    /// and every stored relationship. `toMany` supplies a to-many the snapshot does not hold.
    public static func object(_ snapshot: ObjectSnapshot, model: ManagedObjectModel,
                              toMany: (String) throws -> [ManagedObjectID]) rethrows -> JSONValue {
        let id = snapshot.objectID
        var attributes = OrderedDictionary<String, JSONValue>()
        var relationships = OrderedDictionary<String, JSONValue>()
        if let entity = model.entity(named: id.entityName) {
            for attribute in entity.attributes.sorted(by: { $0.name < $1.name }) where !attribute.isTransient {
                attributes[attribute.name] = snapshot.attributes[attribute.name].map(AttributeJSON.encode) ?? .null
            }
            for relationship in entity.relationships.sorted(by: { $0.name < $1.name }) where !relationship.isTransient {
                if relationship.isToMany {
                    var destinations = try snapshot.toMany[relationship.name] ?? toMany(relationship.name)
                    if !relationship.isOrdered { destinations.sort(by: ManagedObjectID.storeOrder) }
                    relationships[relationship.name] = .array(destinations.map { .string(ref($0)) })
                } else {
                    relationships[relationship.name] = snapshot.toOne[relationship.name].map { .string(ref($0)) } ?? .null
                }
            }
        }
        return .object([
            "entity": .string(id.entityName),
            "ref": .string(ref(id)),
            "attributes": .object(attributes),
            "relationships": .object(relationships),
        ])
    }
}
