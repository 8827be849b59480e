import Foundation
import Strata
import StrataTestSupport
import Testing

/// Scenario 10: cascade, nullify and deny, on the Moody model.
@Suite("Delete rules")
struct DeleteRuleTests {
    /// Europe (France: 2 moods, Germany: 1 mood) and Asia (Japan: 1 mood), saved.
    private struct World {
        let context: ManagedObjectContext
        let europe, asia, france, germany, japan: ManagedObject
        let moods: [String: ManagedObject]
    }

    private func world(_ store: StoreUnderTest, countryMoodsRule: DeleteRule = .cascade) throws -> World {
        let context = try store.makeContext(model: SampleModels.moody(countryMoodsRule: countryMoodsRule))
        let europe = try context.insert("Continent", ["name": "Europe"])
        let asia = try context.insert("Continent", ["name": "Asia"])
        let france = try context.insert("Country", ["name": "France", "continent": europe])
        let germany = try context.insert("Country", ["name": "Germany", "continent": europe])
        let japan = try context.insert("Country", ["name": "Japan", "continent": asia])
        var moods: [String: ManagedObject] = [:]
        for (index, (name, country)) in [("fr1", france), ("fr2", france), ("de1", germany), ("jp1", japan)].enumerated() {
            moods[name] = try context.insert("Mood", [
                "date": Date(timeIntervalSinceReferenceDate: Double(index) * 86_400),
                "rating": index + 1, "country": country,
            ])
        }
        try context.save()
        return World(context: context, europe: europe, asia: asia, france: france, germany: germany,
                     japan: japan, moods: moods)
    }

    private func ratings(_ context: ManagedObjectContext) throws -> [Int32] {
        try context.fetch(sortedRequest("Mood", by: "rating")).map { try $0.value(forKey: "rating") as? Int32 ?? -1 }
    }

    @Test("Scenario 10: deleting a continent cascades to its countries and their moods",
          arguments: StoreUnderTest.all)
    func cascade(store: StoreUnderTest) throws {
        let world = try world(store)
        let context = world.context
        try context.delete(world.europe)

        // The cascade happens at once, before the save.
        for object in [world.europe, world.france, world.germany] + ["fr1", "fr2", "de1"].compactMap({ world.moods[$0] }) {
            #expect(object.isDeleted)
        }
        #expect(context.deletedObjects.count == 6)
        #expect(!world.asia.isDeleted && !world.japan.isDeleted && world.moods["jp1"]?.isDeleted == false)
        #expect(try context.strings(sortedRequest("Country")) == ["Japan"])
        #expect(try context.count("Mood") == 1)

        try context.save()
        let fresh = context.freshContext()
        #expect(try fresh.count("Continent") == 1)
        #expect(try fresh.count("Country") == 1)
        #expect(try fresh.count("Mood") == 1)
        #expect(try fresh.count("Region") == 2)
        #expect(try fresh.strings(sortedRequest("Region")) == ["Asia", "Japan"])
        #expect(try ratings(fresh) == [4])
        let japan = try #require(try fresh.fetch(FetchRequest(entityName: "Country")).first)
        #expect(try japan.value(forKeyPath: "continent.name") as? String == "Asia")
        #expect(try japan.objects("moods").count == 1)
    }

    @Test("Scenario 10: nullify removes the deleted object from the inverse at once", arguments: StoreUnderTest.all)
    func nullify(store: StoreUnderTest) throws {
        let world = try world(store)
        let context = world.context
        let fr1 = try #require(world.moods["fr1"])
        let fr2 = try #require(world.moods["fr2"])
        try context.delete(fr1)
        #expect(try world.france.objects("moods") == [fr2])
        #expect(!world.france.isDeleted)
        #expect(world.france.isUpdated)

        // Deleting a country nullifies its continent's side (Country.continent is nullify).
        try context.delete(world.germany)
        #expect(try world.europe.objects("countries") == [world.france])

        try context.save()
        let fresh = context.freshContext()
        #expect(try ratings(fresh) == [2, 4])
        #expect(try fresh.strings(sortedRequest("Country")) == ["France", "Japan"])
        let france = try fresh.existingObject(with: world.france.objectID)
        #expect(try france.objects("moods").map(\.objectID) == [fr2.objectID])
        let europe = try fresh.existingObject(with: world.europe.objectID)
        #expect(try europe.objects("countries").map(\.objectID) == [world.france.objectID])
    }

    @Test("Scenario 10: deny fails the save naming the country and key; nothing is lost",
          arguments: StoreUnderTest.all)
    func deny(store: StoreUnderTest) throws {
        let world = try world(store, countryMoodsRule: .deny)
        let context = world.context
        try context.delete(world.france)
        // Deny does not touch the destinations.
        #expect(world.moods["fr1"]?.isDeleted == false)

        let error = try #require(throws: ValidationError.self) { try context.save() }
        #expect(error.failures == [ValidationFailure(
            objectID: world.france.objectID, entityName: "Country", key: "moods",
            reason: .deleteDenied(destinationCount: 2))])

        // The store is unchanged…
        let fresh = context.freshContext()
        #expect(try fresh.strings(sortedRequest("Country")) == ["France", "Germany", "Japan"])
        let storedEurope = try fresh.existingObject(with: world.europe.objectID)
        #expect(try storedEurope.sortedNames("countries") == ["France", "Germany"])
        #expect(try fresh.count("Mood") == 4)
        // …and the context keeps its changes.
        #expect(context.hasChanges)
        #expect(Array(context.deletedObjects) == [world.france])
        #expect(world.france.isDeleted)
        #expect(try world.europe.objects("countries") == [world.germany])

        // A country without moods may go.
        context.rollback()
        try context.delete(world.germany)
        #expect(throws: ValidationError.self) { try context.save() }
        context.rollback()
        try context.delete(try #require(world.moods["de1"]))
        try context.delete(world.germany)
        try context.save()
        #expect(try context.freshContext().strings(sortedRequest("Country")) == ["France", "Japan"])
    }

    /// Two entities whose to-ones cascade into each other.
    private func pairs() throws -> ManagedObjectModel {
        try ManagedObjectModel {
            EntityDescription("Left") {
                Attribute("name", .string)
                Relationship("right", to: "Right", inverse: "left", deleteRule: .cascade)
            }
            EntityDescription("Right") {
                Attribute("name", .string)
                Relationship("left", to: "Left", inverse: "right", deleteRule: .cascade)
            }
        }
    }

    @Test("A cascade that leads back to the object being deleted stops there, saved or not",
          arguments: StoreUnderTest.all)
    func cascadeBackToItself(store: StoreUnderTest) throws {
        let context = try store.makeContext(model: pairs())
        // Never saved: both go, nothing is left to save.
        let left = try context.insert("Left", ["name": "L1"])
        let right = try context.insert("Right", ["name": "R1", "left": left])
        try context.delete(left)
        #expect(!context.hasChanges)
        #expect(context.insertedObjects.isEmpty && context.deletedObjects.isEmpty)
        #expect(!left.isInserted && !left.isDeleted && !right.isInserted && !right.isDeleted)
        try context.save()

        // Saved: both are deleted once, and the save removes both rows.
        let savedLeft = try context.insert("Left", ["name": "L2"])
        try context.insert("Right", ["name": "R2", "left": savedLeft])
        try context.save()
        let fresh = context.freshContext()
        try fresh.delete(fresh.existingObject(with: savedLeft.objectID))
        #expect(fresh.deletedObjects.count == 2)
        try fresh.save()
        #expect(try context.freshContext().count("Left") == 0)
        #expect(try context.freshContext().count("Right") == 0)
    }
}
