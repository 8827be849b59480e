import Foundation
import Strata
import StrataTestSupport
import Testing

/// Objects freed while their context lives: the context holds its objects unretained, and a freed
/// object leaves the registry (listed on the context's link, taken out before the registry is next
/// used). What the context answers afterwards, and what it frees when it goes, must be as if each
/// had left at once.
@Suite("Objects freed while their context lives")
struct FreedObjectTests {
    /// Hal and Wyn married, and two husbands alone, Gus and Gil, saved.
    private func seedCouples(_ store: StoreUnderTest) throws -> (context: ManagedObjectContext, hal: ManagedObjectID, loners: [ManagedObjectID]) {
        let context = try store.makeContext(model: SampleModels.couples())
        let hal = try context.insert("Husband", ["name": "Hal"])
        let wyn = try context.insert("Wife", ["name": "Wyn"])
        try hal.setValue(wyn, forKey: "wife")
        let loners = try ["Gus", "Gil"].map { try context.insert("Husband", ["name": $0]) }
        try context.save()
        return (context, hal.objectID, loners.map(\.objectID))
    }

    /// Loads Hal and his wife in `context` (each holding the other: a cycle) and returns them
    /// watched.
    private func loadCouple(_ context: ManagedObjectContext, _ hal: ManagedObjectID) throws -> Watched {
        let husband = try context.existingObject(with: hal)
        let wife = try #require(try husband.value(forKey: "wife") as? ManagedObject)
        #expect(try wife.value(forKey: "husband") as? ManagedObject === husband)
        return Watched(first: husband, second: wife)
    }

    @Test("Fetched objects freed while the context lives leave it; their IDs give new objects, loaded from the store",
          arguments: StoreUnderTest.all)
    func freedObjectsLeave(store: StoreUnderTest) throws {
        let (seeded, hal, loners) = try seedCouples(store)
        let context = seeded.freshContext()
        var watched = Watched()
        do {
            let husbands = try context.fetch(sortedRequest("Husband"))
            #expect(try husbands.map { try $0.string("name") } == ["Gil", "Gus", "Hal"])
            watched.first = husbands[0]
            watched.second = husbands[1]
        }
        // Freed with the list, the wife's fault (Hal's to-one) with Hal.
        #expect(watched.isFreed)
        #expect(context.registeredObjects.isEmpty)
        #expect(context.registeredObject(for: hal) == nil)
        #expect(loners.allSatisfy { context.registeredObject(for: $0) == nil })
        let again = try context.existingObject(with: loners[1])
        #expect(try again.string("name") == "Gil")
        #expect(context.registeredObject(for: loners[1]) === again)
        #expect(try context.fetch(sortedRequest("Husband")).map { try $0.string("name") } == ["Gil", "Gus", "Hal"])
    }

    @Test("A context that goes with freed objects and a cycle still registered frees the cycle",
          arguments: StoreUnderTest.all)
    func freedObjectsBesideCycle(store: StoreUnderTest) throws {
        let (seeded, hal, loners) = try seedCouples(store)
        func watch() throws -> Watched {
            let context = seeded.freshContext()
            let couple = try loadCouple(context, hal)
            // Two faults made and freed; the registry is not used again before the context goes.
            _ = try loners.map { try context.object(with: $0) }
            return couple
        }
        #expect(try watch().isFreed)
    }

    @Test("An object unregistered while in use and freed later does not count as a registered object freed",
          arguments: StoreUnderTest.all)
    func unregisteredThenFreed(store: StoreUnderTest) throws {
        let (seeded, hal, loners) = try seedCouples(store)
        func watch() throws -> Watched {
            let context = seeded.freshContext()
            // A fault whose row is gone throws rather than becoming a deleted object.
            context.shouldDeleteInaccessibleFaults = false
            var faults = try loners.map { try context.object(with: $0) }
            // Their rows go, through another context: filling the faults fails, and the context
            // forgets them while they are still held here.
            let other = seeded.freshContext()
            for id in loners { try other.delete(try other.existingObject(with: id)) }
            try other.save()
            for id in loners {
                #expect(throws: ObjectError.objectNotFound(id)) { try context.existingObject(with: id) }
                #expect(context.registeredObject(for: id) == nil)
            }
            let couple = try loadCouple(context, hal)
            #expect(context.registeredObjects.count == 2)
            // As many objects freed as the context holds (the two forgotten faults), while the
            // couple, a cycle, is registered: the context must still visit and cut it loose.
            faults.removeAll()
            return couple
        }
        #expect(try watch().isFreed)
    }

    @Test("A context reset after objects were freed forgets them and registers anew", arguments: StoreUnderTest.all)
    func resetAfterFreed(store: StoreUnderTest) throws {
        let (seeded, hal, loners) = try seedCouples(store)
        let context = seeded.freshContext()
        let couple = try loadCouple(context, hal)
        // Gus and Gil fetched and freed; the registry is not used again before the reset.
        #expect(try context.fetch(sortedRequest("Husband")).count == 3)
        context.reset()
        #expect(couple.isFreed)
        #expect(context.registeredObjects.isEmpty)
        let gus = try context.existingObject(with: loners[0])
        #expect(try gus.string("name") == "Gus")
        #expect(context.registeredObjects == [gus])
    }
}
