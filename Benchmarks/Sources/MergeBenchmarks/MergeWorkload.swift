import BenchmarkSupport
import Foundation
import Strata
import Synchronization

/// A store of items in groups, a context holding every item loaded, and the saves of another
/// context merged into it.
final class MergeWorkload: PseudoRandomValues {
    /// `Group` (name) ⇄ `Item` (number, name, value, group).
    static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel {
            EntityDescription("Group") {
                Attribute("name", .string)
                Relationship("items", toMany: "Item", inverse: "group", deleteRule: .nullify)
            }
            EntityDescription("Item") {
                Attribute("number", .integer64, indexed: true)
                Attribute("name", .string)
                Attribute("value", .double)
                Relationship("group", to: "Group", inverse: "items", deleteRule: .nullify)
            }
        }
    }

    let coordinator: PersistentStoreCoordinator
    /// The context merged into, and every item it holds (kept so that they stay registered).
    let merged: ManagedObjectContext
    private var held: [ManagedObject]
    /// The IDs of the items saved and not deleted, and of the groups.
    private var live: [ManagedObjectID]
    private let groups: [ManagedObjectID]
    private var nextNumber: Int
    private var random = SplitMix(seed: 0x5EED)

    init(items: Int, file: URL) throws {
        coordinator = PersistentStoreCoordinator(managedObjectModel: try Self.model())
        try coordinator.addPersistentStore(type: .sqlite, at: file)
        let writer = ManagedObjectContext(coordinator: coordinator)
        var groupObjects: [ManagedObject] = []
        for index in 0..<100 { groupObjects.append(try writer.insert("Group", ["name": "group \(index)"])) }
        for index in 0..<items {
            try writer.insert("Item", ["number": Int64(index), "name": Self.phrase(1, index, words: 3),
                                       "value": Self.unit(1, index, 1), "group": groupObjects[index % 100]])
        }
        try writer.save()
        groups = groupObjects.map(\.objectID)
        nextNumber = items
        merged = ManagedObjectContext(coordinator: coordinator)
        held = try merged.fetch(FetchRequest(entityName: "Item"))
        held += try merged.fetch(FetchRequest(entityName: "Group"))
        live = held.filter { $0.entity.name == "Item" }.map(\.objectID)
        guard live.count == items else { throw CocoaError(.coderReadCorrupt) }
    }

    /// The seconds each of `rounds` merges took (after two not counted).
    func measure(rounds: Int, automatically: Bool) throws -> [Double] {
        merged.automaticallyMergesChangesFromParent = automatically
        defer { merged.automaticallyMergesChangesFromParent = false }
        var times: [Double] = []
        for round in 0..<(rounds + 2) {
            let changes = try saveChanges()
            let start = ContinuousClock.now
            if automatically {
                merged.processPendingChanges()
            } else {
                merged.mergeChanges(fromContextDidSave: changes)
            }
            let elapsed = ContinuousClock.now - start
            if round >= 2 { times.append(Double(elapsed.components.attoseconds) / 1e18 + Double(elapsed.components.seconds)) }
            // What an app does next: read the merged objects (not timed), which keeps them loaded.
            for id in changes.inserted.union(changes.updated) where id.entityName == "Item" {
                _ = try merged.object(with: id).value(forKey: "value")
            }
            held += changes.inserted.compactMap { merged.registeredObject(for: $0) }
        }
        return times
    }

    /// Has another context on the coordinator save 60 updates, 20 inserts and 20 deletes of
    /// random items; returns its did-save changes.
    private func saveChanges() throws -> ContextChanges {
        let saver = ManagedObjectContext(coordinator: coordinator)
        var picked = Set<Int>()
        while picked.count < 80 { picked.insert(random.next(below: live.count)) }
        let positions = Array(picked)
        for position in positions.prefix(60) {
            try saver.existingObject(with: live[position]).setValue(random.unit(), forKey: "value")
        }
        for position in positions.suffix(20) { try saver.delete(try saver.existingObject(with: live[position])) }
        var inserted: [ManagedObject] = []
        for _ in 0..<20 {
            inserted.append(try saver.insert("Item", ["number": Int64(nextNumber), "name": "new \(nextNumber)", "value": random.unit(),
                                                      "group": try saver.object(with: groups[nextNumber % groups.count])]))
            nextNumber += 1
        }
        let saved = SavedChanges()
        let token = NotificationCenter.default.addObserver(
            forName: ManagedObjectContext.didSaveNotification, object: saver, queue: nil) { note in
            saved.changes.withLock { $0 = note.contextChanges }
        }
        defer { NotificationCenter.default.removeObserver(token) }
        try saver.save()
        guard let changes = saved.changes.withLock({ $0 }) else { throw CocoaError(.coderValueNotFound) }
        for position in positions.suffix(20).sorted(by: >) { live.swapAt(position, live.count - 1); live.removeLast() }
        live += inserted.map(\.objectID)
        guard changes.updated.count >= 60, changes.inserted.count == 20, changes.deleted.count == 20 else {
            throw CocoaError(.coderInvalidValue)
        }
        return changes
    }

    /// Whether the merged context's items, fetched, are the store's.
    func check() throws -> Bool {
        let fresh = ManagedObjectContext(coordinator: coordinator)
        let request = FetchRequest(entityName: "Item", sortDescriptors: [ObjectSortDescriptor(key: "number")])
        let stored = try fresh.fetch(request).map { [try $0.value(forKey: "number") as? Int64, try $0.value(forKey: "value") as? Double] as [AnyHashable?] }
        let seen = try merged.fetch(request).map { [try $0.value(forKey: "number") as? Int64, try $0.value(forKey: "value") as? Double] as [AnyHashable?] }
        return stored == seen && stored.count == live.count
    }
}

extension ManagedObjectContext {
    /// Inserts an object of `entityName` with `values`.
    @discardableResult
    func insert(_ entityName: String, _ values: [String: Any?]) throws -> ManagedObject {
        let object = try insertNewObject(forEntityName: entityName)
        for (key, value) in values.sorted(by: { $0.key < $1.key }) { try object.setValue(value, forKey: key) }
        return object
    }
}

/// The changes a did-save notification carried, set by its observer.
final class SavedChanges: Sendable {
    let changes = Mutex<ContextChanges?>(nil)
}

/// A small pseudo-random generator, the same numbers on every run.
struct SplitMix {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func next(below bound: Int) -> Int { Int(next() % UInt64(bound)) }

    mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
}
