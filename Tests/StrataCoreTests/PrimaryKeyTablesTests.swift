import Foundation
import Testing
@testable import StrataCore

/// Values by permanent object ID (the registry's objects, the row cache's places): one table by
/// primary key per entity and store, answering as a dictionary keyed by the whole ID would.
@Suite("Primary-key tables by entity and store")
struct PrimaryKeyTablesTests {
    /// Removes the value of `id` from `tables`; returns what it was.
    private func removeValue(_ id: ManagedObjectID, from tables: inout PrimaryKeyTables<Int>) -> Int? {
        defer { tables[id] = nil }
        return tables[id]
    }

    @Test("IDs that share a primary key but not their entity or store have places of their own")
    func keysOfOtherEntitiesAndStores() {
        let ids = [
            ManagedObjectID(entityName: "Book", storeIdentifier: "A", primaryKey: 7),
            ManagedObjectID(entityName: "Author", storeIdentifier: "A", primaryKey: 7),
            ManagedObjectID(entityName: "Book", storeIdentifier: "B", primaryKey: 7),
            ManagedObjectID(entityName: "Book", storeIdentifier: "A", primaryKey: 8),
        ]
        var positions = PrimaryKeyTables<Int>()
        var expected: [ManagedObjectID: Int] = [:]
        for (place, id) in ids.enumerated() {
            positions[id] = place
            expected[id] = place
        }
        #expect(positions.count == 4)
        #expect(ids.allSatisfy { positions[$0] == expected[$0] })

        // The same ID spelled anew (strings made at run time) finds the same place.
        let respelled = ManagedObjectID(entityName: String("Auth" + "or"), storeIdentifier: String("A"), primaryKey: 7)
        #expect(positions[respelled] == 1)
        #expect(positions.value(entityName: "Author", storeIdentifier: "A", primaryKey: 7) == 1)
        #expect(positions.value(entityName: "Book", storeIdentifier: "B", primaryKey: 7) == 2)
        #expect(positions.value(entityName: "Book", storeIdentifier: "B", primaryKey: 8) == nil)
        #expect(positions.value(entityName: "Publisher", storeIdentifier: "A", primaryKey: 7) == nil)
        #expect(positions[.temporary(entityName: "Book")] == nil)
        #expect(positions[ManagedObjectID(entityName: "Book", storeIdentifier: "C", primaryKey: 7)] == nil)

        #expect(removeValue(ids[2], from: &positions) == 2)
        #expect(removeValue(ids[2], from: &positions) == nil)
        positions[ids[0]] = 9   // a new place for a row that has one
        #expect(positions.count == 3)
        #expect(positions[ids[0]] == 9 && positions[ids[1]] == 1 && positions[ids[2]] == nil && positions[ids[3]] == 3)
    }

    @Test("Places agree with a dictionary through random sets and removals across entities")
    func agreesWithDictionary() {
        var random = SystemRandomNumberGenerator()
        let entities = ["Book", "Author", "Publisher"]
        var positions = PrimaryKeyTables<Int>()
        var expected: [ManagedObjectID: Int] = [:]
        positions.reserveCapacity(adding: 100, like: ManagedObjectID(entityName: "Book", storeIdentifier: "S", primaryKey: 1), upTo: 1_000)
        for step in 0..<5_000 {
            let id = ManagedObjectID(entityName: entities[Int(random.next() % 3)], storeIdentifier: "S",
                                     primaryKey: Int64(random.next() % 300) + 1)
            if random.next() % 3 == 0 {
                #expect(removeValue(id, from: &positions) == expected.removeValue(forKey: id))
            } else {
                positions[id] = step
                expected[id] = step
            }
        }
        #expect(positions.count == expected.count)
        #expect(expected.allSatisfy { positions[$0.key] == $0.value })
    }
}
