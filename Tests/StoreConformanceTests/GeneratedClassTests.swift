import Foundation
import Strata
import StrataTestSupport
import Testing

/// The classes `strata codegen` wrote for `Resources/Moody.xcdatamodeld` (in `GeneratedMoody/`,
/// kept current by `scripts/codegen-check.sh`), used as an app uses them, on every store type.
@Suite("Generated classes")
struct GeneratedClassTests {
    private static func model() throws -> ManagedObjectModel {
        try ModelBundle(at: try #require(Bundle.module.url(forResource: "Moody", withExtension: "xcdatamodeld"))).currentModel
    }

    private func makeContext(_ store: StoreUnderTest) throws -> ManagedObjectContext {
        let context = try store.makeContext(model: Self.model())
        MoodyClasses.register(with: context.persistentStoreCoordinator)
        return context
    }

    /// France and Peru on Europe and South America, with three moods.
    private func seed(_ context: ManagedObjectContext) throws {
        let europe = try #require(try context.insertNewObject(forEntityName: Continent.entityName) as? Continent)
        europe.numericISO3166Code = 150
        let france = try #require(try context.insertNewObject(forEntityName: Country.entityName) as? Country)
        france.numericISO3166Code = 250
        france.updatedAt = Date(timeIntervalSince1970: 1_000)
        france.continent = europe
        let peru = try #require(try context.insertNewObject(forEntityName: Country.entityName) as? Country)
        peru.numericISO3166Code = 604
        peru.updatedAt = Date(timeIntervalSince1970: 2_000)
        for (rating, country) in [(Int16(4), france), (2, france), (5, peru)] {
            let mood = try #require(try context.insertNewObject(forEntityName: Mood.entityName) as? Mood)
            mood.rating = rating
            mood.date = Date(timeIntervalSince1970: Double(rating) * 100)
            mood.country = country
        }
        try context.save()
    }

    @Test("Typed properties read and write the object's values, and relationships keep their inverses",
          arguments: StoreUnderTest.all)
    func propertiesAndInverses(store: StoreUnderTest) throws {
        let seeded = try makeContext(store)
        try seed(seeded)
        let context = seeded.freshContext()
        let moods = try context.fetch(FetchRequest<Mood>(sortDescriptors: [try ObjectSortDescriptor(\Mood.rating)]))
        #expect(moods.map(\.rating) == [2, 4, 5])
        #expect(moods.map { $0.country?.numericISO3166Code } == [250, 250, 604])
        let france = try #require(moods[0].country)
        #expect(Set(france.moods.map(\.rating)) == [2, 4])
        #expect(france.continent?.countries == [france])
        #expect(moods[0].latitude == nil && !moods[0].markedForRemoteDeletion)

        // Moving a mood through the to-many's setter updates the to-one on the other side.
        let peru = try #require(moods[2].country)
        peru.moods = peru.moods.union([moods[0]])
        #expect(moods[0].country === peru)
        #expect(Set(france.moods.map(\.rating)) == [4])
        try context.save()
        let reader = seeded.freshContext()
        let counts = try reader.fetch(Country.sortedFetchRequest(with: try ObjectPredicate(format: "moods.@count == 2")))
        #expect(counts.map(\.numericISO3166Code) == [604])
    }

    @Test("Entity names, key constants, key paths and the Managed requests match the model",
          arguments: StoreUnderTest.all)
    func namesAndRequests(store: StoreUnderTest) throws {
        let seeded = try makeContext(store)
        try seed(seeded)
        let context = seeded.freshContext()
        #expect(Mood.entityName == "Mood" && Mood.Keys.remoteID == "remoteID" && Country.Keys.moods == "moods")
        #expect(try Mood.modelKey(for: \Mood.country) == "country")
        #expect(MoodyClasses.all.map(\.entityName) == ["Continent", "Country", "Mood"])
        let request = Mood.sortedFetchRequest(with: try ObjectPredicate(format: "%K >= 4", Mood.Keys.rating))
        #expect(Set(try context.fetch(request).map(\.rating)) == [4, 5])
        let typed = try FetchRequest<Mood>(predicate: #Predicate { $0.rating > 3 })
        #expect(try context.count(for: typed) == 2)
    }
}
