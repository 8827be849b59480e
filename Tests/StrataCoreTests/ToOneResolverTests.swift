import Foundation
@testable import StrataCore
import StrataTestSupport
import Testing

/// The resolver a fetch finds to-one destinations with: a map shared with the snapshot before
/// gives the objects found for that one, kept only when the resolver was told the next shares it;
/// any other map is looked up in the context.
@Suite("To-one resolver")
struct ToOneResolverTests {
    /// A context on an in-memory store of scenario 7's model with one employer, saved, and its ID.
    private func savedEmployer() throws -> (ManagedObjectContext, ManagedObjectID) {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try SampleModels.company())
        try coordinator.addPersistentStore(type: .inMemory)
        let context = ManagedObjectContext(coordinator: coordinator)
        let employer = try context.insertNewObject(forEntityName: "Employer")
        try employer.setValue("Acme", forKey: "name")
        try context.save()
        return (context, employer.objectID)
    }

    @Test("Copies of one map share its entries; a changed copy, a map made alike and empty maps do not")
    func sharedEntries() {
        let id = ManagedObjectID(entityName: "Employer", storeIdentifier: "S", primaryKey: 1)
        let map: NameMap<ManagedObjectID> = ["whereIWork": id]
        let copy = map
        #expect(copy.sharesEntries(with: map))
        var changed = map
        changed["whereIWork"] = ManagedObjectID(entityName: "Employer", storeIdentifier: "S", primaryKey: 2)
        #expect(!changed.sharesEntries(with: map))
        let alike: NameMap<ManagedObjectID> = ["whereIWork": id]
        #expect(alike == map)
        #expect(!alike.sharesEntries(with: map))
        #expect(!NameMap<ManagedObjectID>().sharesEntries(with: NameMap()))
    }

    @Test("A shared map gets the objects kept for it; a map made alike, or one met after a snapshot that did not share, is looked up")
    func keepsForSharedMapsOnly() throws {
        let (context, employerID) = try savedEmployer()
        let map: NameMap<ManagedObjectID> = ["whereIWork": employerID]
        var resolver = ToOneResolver()
        let first = try #require(try resolver.destinations(of: map, in: context, nextSharesThem: true)["whereIWork"])
        #expect(first === context.registeredObject(for: employerID))

        // After a reset the context makes a new object for the ID; the kept one is what a shared
        // map gets (a resolver lives for one fetch, in which no reset can happen), an alike map
        // the context's new one.
        context.reset()
        let alike: NameMap<ManagedObjectID> = ["whereIWork": employerID]
        let kept = try #require(try resolver.destinations(of: map, in: context, nextSharesThem: true)["whereIWork"])
        #expect(kept === first)
        let lookedUp = try #require(try resolver.destinations(of: alike, in: context, nextSharesThem: false)["whereIWork"])
        #expect(lookedUp !== first)
        #expect(lookedUp === context.registeredObject(for: employerID))

        // Told that the next did not share, the resolver kept nothing: the shared map is looked up.
        let again = try #require(try resolver.destinations(of: map, in: context, nextSharesThem: false)["whereIWork"])
        #expect(again === lookedUp)
    }
}
