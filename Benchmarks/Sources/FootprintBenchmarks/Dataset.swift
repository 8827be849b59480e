import BenchmarkSupport
import Foundation
import Strata

/// What the footprint is measured on: entities of 2, 6 and 12 attributes (`Item2`, `Item6`,
/// `Item12`), every one of them set, in an SQLite store. `Item6` is the benchmarks' book: a title
/// of three words, a category, a score, a flag, a date and 32 bytes.
enum Dataset: PseudoRandomValues {
    /// The attribute counts of the entities, each an entity `Item<count>`.
    static let attributeCounts = [2, 6, 12]

    /// The attributes of an entity of `count` attributes, in order: the first `count` of these.
    static let attributes: [(name: String, type: AttributeType)] = [
        ("title", .string), ("category", .integer32), ("score", .double), ("available", .boolean),
        ("published", .date), ("cover", .binaryData), ("code", .integer16), ("amount", .integer64),
        ("ratio", .float), ("note", .string), ("updated", .date), ("weight", .double),
    ]

    /// The name of the entity of `count` attributes.
    static func entityName(_ count: Int) -> String { "Item\(count)" }

    /// The model: one entity for each of ``attributeCounts``.
    static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: attributeCounts.map { count in
            EntityDescription(entityName(count)) {
                for attribute in attributes.prefix(count) { Attribute(attribute.name, attribute.type) }
            }
        })
    }

    /// The value of attribute `position` of row `index` of the entity of `count` attributes.
    static func value(_ position: Int, count: Int, index: Int) -> Any {
        let entity = UInt64(count)
        switch attributes[position].name {
        case "title": return "Item \(index + 1): " + phrase(entity, index, words: 3)
        case "category": return Int32(bits(entity, index, 1) % 10)
        case "score": return unit(entity, index, 2) * 100
        case "available": return bits(entity, index, 3) % 4 != 0
        case "published": return Date(timeIntervalSinceReferenceDate: baseDate - unit(entity, index, 4) * 900_000_000)
        case "cover": return bytes(entity, index, count: 32)
        case "code": return Int16(truncatingIfNeeded: bits(entity, index, 6))
        case "amount": return Int64(bitPattern: bits(entity, index, 7))
        case "ratio": return Float(unit(entity, index, 8))
        case "note": return phrase(entity, index, words: 4)
        case "updated": return Date(timeIntervalSinceReferenceDate: baseDate + unit(entity, index, 10) * 1_000_000)
        default: return unit(entity, index, 11)
        }
    }

    /// Opens the SQLite store at `file`, with a row cache of `rowCacheCapacity` rows (nil: the
    /// default).
    static func open(_ file: URL, rowCacheCapacity: Int? = nil) throws -> PersistentStoreCoordinator {
        let model = try model()
        let coordinator = rowCacheCapacity.map { PersistentStoreCoordinator(managedObjectModel: model, rowCacheCapacity: $0) }
            ?? PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: .sqlite, at: file)
        return coordinator
    }

    /// Inserts `rows` rows of the entity of `count` attributes into the store of `coordinator`,
    /// saved 10,000 at a time by contexts that are let go.
    static func insert(_ rows: Int, attributes count: Int, into coordinator: PersistentStoreCoordinator) throws {
        var start = 0
        while start < rows {
            let end = min(start + 10_000, rows)
            let context = ManagedObjectContext(coordinator: coordinator)
            for index in start..<end {
                let object = try context.insertNewObject(forEntityName: entityName(count))
                for position in 0..<count { try object.setValue(value(position, count: count, index: index), forKey: attributes[position].name) }
            }
            try context.save()
            start = end
        }
    }

    /// Reads every attribute of `object` and returns a digest of what it read, so that no read
    /// is left out.
    static func readAll(_ object: ManagedObject, attributes count: Int) throws -> Int {
        var digest = 0
        for attribute in attributes.prefix(count) {
            if try object.value(forKey: attribute.name) != nil { digest &+= 1 }
        }
        return digest
    }
}
