import BenchmarkSupport
import Foundation
import Strata
import SQLiteBenchmarkSupport

/// The workload as an app writes it with Strata: one SQLite store, objects made with
/// `insertNewObject` and typed `setValue(_:forKey:)`, read with `value(forKey:as:)`, fetched
/// with `FetchRequest`s, deleted with `delete(_:)` (the model's cascade does the pets), one
/// `save()` per write (which validates every rule).
enum StrataEngine {
    static func row(_ object: ManagedObject) throws -> PersonRow {
        guard let id = object.objectID.primaryKey else { throw BenchmarkError("\(object.objectID) has no primary key") }
        return PersonRow(id: id, name: try StrataSQLite.read(object, "name"), email: try StrataSQLite.read(object, "email"), age: try StrataSQLite.read(object, "age"),
                         score: try StrataSQLite.read(object, "score"), joined: try StrataSQLite.read(object, "joined"), active: try StrataSQLite.read(object, "active"))
    }

    static func insert(_ context: ManagedObjectContext, persons: [PersonRow], pets: [PetRow]) throws {
        var objects: [ManagedObject] = []
        objects.reserveCapacity(persons.count)
        for row in persons {
            let object = try context.insertNewObject(forEntityName: "Person")
            try object.setValue(row.name, forKey: "name")
            try object.setValue(row.email, forKey: "email")
            try object.setValue(row.age, forKey: "age")
            try object.setValue(row.score, forKey: "score")
            try object.setValue(row.joined, forKey: "joined")
            try object.setValue(row.active, forKey: "active")
            objects.append(object)
        }
        for row in pets {
            let object = try context.insertNewObject(forEntityName: "Pet")
            try object.setValue(row.name, forKey: "name")
            try object.setValue(row.species, forKey: "species")
            try object.setValue(row.weight, forKey: "weight")
            try object.setValue(objects[Int(row.ownerId - 1)], forKey: "owner")
        }
    }

    static func fetchAll(_ coordinator: PersistentStoreCoordinator) throws -> (rows: Int, digest: UInt64) {
        let context = ManagedObjectContext(coordinator: coordinator)
        var digest = Digest()
        for object in try context.fetch(FetchRequest(entityName: "Person")) { digest.sum(Digest.of(try row(object))) }
        return (digest.rows, digest.value)
    }

    static func range(_ comparison: ObjectSortDescriptor.Comparison, _ coordinator: PersistentStoreCoordinator) throws -> (rows: Int, digest: UInt64) {
        let context = ManagedObjectContext(coordinator: coordinator)
        var request = FetchRequest(entityName: "Person")
        request.predicate = try ObjectPredicate(format: "age BETWEEN {%@, %@}", Workload.rangeLow, Workload.rangeHigh)
        request.sortDescriptors = [ObjectSortDescriptor(key: "name", comparison: comparison)]
        var digest = Digest()
        for object in try context.fetch(request) {
            guard let id = object.objectID.primaryKey else { throw BenchmarkError("\(object.objectID) has no primary key") }
            digest.append(id: id, name: try StrataSQLite.read(object, "name"))
        }
        return (digest.rows, digest.value)
    }

    static func count(_ coordinator: PersistentStoreCoordinator, _ entities: [String]) throws -> Int {
        let context = ManagedObjectContext(coordinator: coordinator)
        return try entities.reduce(0) { $0 + (try context.count(for: FetchRequest(entityName: $1))) }
    }

    /// Runs the insert and the `phases` listed, in order.
    static func run(_ workload: Workload, file: URL, repeats: Int, phases: Set<Phase>) throws -> RunRecord {
        let model = try Workload.model()
        var record = RunRecord()
        try? FileManager.default.removeItem(at: file)
        let persons = workload.personRows(), pets = workload.petRows()
        do {
            let coordinator = try StrataSQLite.open(file, model: model)
            let context = ManagedObjectContext(coordinator: coordinator)
            let ((), seconds) = try PerfControl.timed(.insert) {
                try insert(context, persons: persons, pets: pets)
                try context.save()
            }
            record.record(.insert, seconds: seconds, rows: persons.count + pets.count)
        }
        let coordinator = try StrataSQLite.open(file, model: model)
        let (cold, coldSeconds) = try timed { try fetchAll(coordinator) }
        record.record(.cold, seconds: coldSeconds, rows: cold.rows, digest: cold.digest)
        if phases.contains(.warm) { try record.repeated(.warm, times: repeats) { try fetchAll(coordinator) } }
        if phases.contains(.binary) { try record.repeated(.binary, times: repeats) { try range(.standard, coordinator) } }
        if phases.contains(.localized) { try record.repeated(.localized, times: repeats) { try range(.localized(Workload.locale), coordinator) } }
        if phases.isDisjoint(with: [.update, .countUpdate, .delete, .countDelete]) { return record }
        let (updated, updateSeconds) = try PerfControl.timed(.update) {
            let context = ManagedObjectContext(coordinator: coordinator)
            var request = FetchRequest(entityName: "Person")
            request.predicate = try ObjectPredicate(format: "age < %@", Workload.updatedBelow)
            let objects = try context.fetch(request)
            for object in objects {
                let new = Workload.updated(try row(object))
                try object.setValue(new.score, forKey: "score")
                try object.setValue(new.active, forKey: "active")
            }
            try context.save()
            return objects.count
        }
        record.record(.update, seconds: updateSeconds, rows: updated)
        let (afterUpdate, countSeconds) = try timed { try count(coordinator, ["Person"]) }
        record.record(.countUpdate, seconds: countSeconds, rows: afterUpdate)
        let (deleted, deleteSeconds) = try PerfControl.timed(.delete) {
            let context = ManagedObjectContext(coordinator: coordinator)
            var request = FetchRequest(entityName: "Person")
            request.predicate = try ObjectPredicate(format: "age >= %@", Workload.deletedFrom)
            let objects = try context.fetch(request)
            for object in objects { try context.delete(object) }
            try context.save()
            return objects.count
        }
        record.record(.delete, seconds: deleteSeconds, rows: deleted)
        let (afterDelete, count2Seconds) = try timed { try count(coordinator, ["Person", "Pet"]) }
        record.record(.countDelete, seconds: count2Seconds, rows: afterDelete)
        return record
    }

    /// Writes `count` persons (no pets), 100,000 a context and save.
    static func millionSetup(_ workload: Workload, file: URL) throws {
        try? FileManager.default.removeItem(at: file)
        let coordinator = try StrataSQLite.open(file, model: try Workload.model())
        var start = 0
        while start < workload.persons {
            let end = min(start + 100_000, workload.persons)
            let context = ManagedObjectContext(coordinator: coordinator)
            try insert(context, persons: (start..<end).map(workload.person), pets: [])
            try context.save()
            start = end
        }
    }

    /// A plain fetch of every person, the objects held until counted.
    static func millionFetch(file: URL) throws -> Int {
        let coordinator = try StrataSQLite.open(file, model: try Workload.model())
        let context = ManagedObjectContext(coordinator: coordinator)
        let objects = try context.fetch(FetchRequest(entityName: "Person"))
        var names = 0
        for object in objects { names &+= try StrataSQLite.read(object, "name", as: String.self).utf8.count }
        guard names > 0 else { throw BenchmarkError("no names read") }
        return withExtendedLifetime(objects) { objects.count }
    }
}
