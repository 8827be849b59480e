import Foundation
import Strata
@_spi(StoreImplementation) import StrataCore
import StrataTestSupport
import Testing

/// How much a fetch reads, counted at the store: batches, prefetched relationships, faults and
/// ID-only fetches.
@Suite("Fetch loading")
struct FetchLoadingTests {
    private static let day: TimeInterval = 86_400

    /// Scenario 9: `count` moods, one a day from 2001-01-01, ratings 1…5 in turn.
    private func moods(_ store: StoreUnderTest, count: Int) throws -> (PersistentStoreCoordinator, CountingStore) {
        let (coordinator, counting) = try CountingStore.coordinator(store, model: SampleModels.moody())
        let context = ManagedObjectContext(coordinator: coordinator)
        for index in 0..<count {
            try context.insert("Mood", ["date": Date(timeIntervalSinceReferenceDate: Double(index) * Self.day),
                                        "rating": index % 5 + 1])
        }
        try context.save()
        return (coordinator, counting)
    }

    /// Scenario 9's default request: newest first, in batches of 20.
    private func newestFirst() -> FetchRequest<ManagedObject> {
        var request = FetchRequest(entityName: "Mood", sortDescriptors: [ObjectSortDescriptor(key: "date", ascending: false)])
        request.fetchBatchSize = 20
        return request
    }

    private func day(of object: ManagedObject) throws -> Int {
        let date = try #require(try object.value(forKey: "date") as? Date)
        return Int(date.timeIntervalSinceReferenceDate / Self.day)
    }

    @Test("Scenario 9: 1,000 moods with a batch size of 20 load in batches as they are touched, not all at once",
          arguments: StoreUnderTest.all)
    func batches(store: StoreUnderTest) throws {
        let (coordinator, counting) = try moods(store, count: 1_000)
        let context = ManagedObjectContext(coordinator: coordinator)
        counting.reset()
        let moods = try context.fetchBatched(newestFirst())
        // One store fetch for the IDs; no values yet.
        #expect(counting.fetches == 1)
        #expect(counting.reads == 1)
        #expect(moods.count == 1_000)
        #expect(moods.batchSize == 20)
        #expect(moods.loadedBatchCount == 0)
        // No object is registered before its batch is touched.
        let ids = moods.objectIDs
        #expect(ids.allSatisfy { context.registeredObject(for: $0) == nil })

        // Touching the first object loads its batch, 0…19, in one store request.
        #expect(try day(of: moods[0]) == 999)
        #expect(counting.batchSnapshots == 1)
        #expect((0..<20).allSatisfy { context.registeredObject(for: ids[$0])?.isFault == false })
        #expect(context.registeredObject(for: ids[20]) == nil)
        #expect(try day(of: moods[19]) == 980)
        #expect(counting.batchSnapshots == 1)

        // The last batch, then everything: 50 batches in all, never one object at a time.
        #expect(try day(of: moods[999]) == 0)
        #expect(counting.batchSnapshots == 2)
        #expect(moods.loadedBatchCount == 2)
        let days = try moods.map { try day(of: $0) }
        #expect(days == Array((0..<1_000).reversed()))
        // The results keep the objects of the last few batches touched: the last batch, touched
        // early and freed since, is made again when the iteration reaches it, from the rows the
        // coordinator's cache kept, without a store request.
        #expect(counting.batchSnapshots == 50)
        #expect(counting.singleSnapshots == 0)
        #expect(counting.fetches == 1)
        #expect(moods.loadedBatchCount == 50)
    }

    @Test("Iterating batched results, each batch turned back into faults, keeps a few batches registered, not every object",
          arguments: StoreUnderTest.all)
    func iterationFreesBatches(store: StoreUnderTest) throws {
        let (coordinator, _) = try moods(store, count: 1_000)
        let context = ManagedObjectContext(coordinator: coordinator)
        let moods = try context.fetchBatched(newestFirst())
        var days: [Int] = []
        for start in stride(from: 0, to: moods.count, by: moods.batchSize) {
            let batch = start..<min(start + moods.batchSize, moods.count)
            for index in batch { days.append(try day(of: moods[index])) }
            for index in batch { try context.refresh(moods[index], mergeChanges: false) }
        }
        #expect(days == Array((0..<1_000).reversed()))
        #expect(context.registeredObjects.count <= 4 * moods.batchSize)
        // An object in use stays the one instance of its ID.
        let first = moods[0]
        #expect(try context.existingObject(with: first.objectID) === first)
        #expect(moods[0] === first)
    }

    @Test("Batched results with offset, limit, a predicate and an unsaved insert", arguments: StoreUnderTest.all)
    func batchesWithPendingAndRange(store: StoreUnderTest) throws {
        let (coordinator, counting) = try moods(store, count: 100)
        let context = ManagedObjectContext(coordinator: coordinator)
        var request = newestFirst()
        request.predicate = try ObjectPredicate(format: "rating == 5")
        request.fetchOffset = 2
        request.fetchLimit = 7
        request.fetchBatchSize = 3
        // Rating 5 on days 4, 9, …, 99; newest first from the third: 89, 84, …, 59.
        let page = try context.fetchBatched(request)
        #expect(try page.map { try day(of: $0) } == [89, 84, 79, 74, 69, 64, 59])
        #expect(page.loadedBatchCount == 3)

        // An unsaved mood of day 200 with rating 5 comes first, already filled.
        let newest = try context.insert("Mood", ["date": Date(timeIntervalSinceReferenceDate: 200 * Self.day), "rating": 5])
        counting.reset()
        let withPending = try context.fetchBatched(request)
        #expect(counting.fetches == 1)
        #expect(try withPending.map { try day(of: $0) } == [94, 89, 84, 79, 74, 69, 64])
        request.fetchOffset = 0
        let first = try context.fetchBatched(request)
        #expect(first[0] === newest)
        #expect(first.objectIDs.first == newest.objectID)
    }

    @Test("Object IDs and counts read IDs only: nothing is registered, no values are read", arguments: StoreUnderTest.all)
    func idsAndCountsReadLittle(store: StoreUnderTest) throws {
        let (coordinator, counting) = try moods(store, count: 50)
        let context = ManagedObjectContext(coordinator: coordinator)
        counting.reset()
        let ids = try context.fetchObjectIDs(newestFirst())
        #expect(ids.count == 50)
        #expect(context.registeredObjects.isEmpty)
        #expect(counting.fetches == 1)
        #expect(try context.count(for: newestFirst()) == 50)
        #expect(counting.counts == 1)
        #expect(counting.reads == 2)
        // A whole fetch is one store request too: the values come with the rows.
        counting.reset()
        let objects = try context.fetch(newestFirst())
        #expect(objects.map(\.objectID) == ids)
        #expect(objects.allSatisfy { !$0.isFault })
        #expect(counting.reads == 1)
    }

    @Test("includesPropertyValues false gives faults that fill one by one; filled objects stay filled",
          arguments: StoreUnderTest.all)
    func withoutPropertyValues(store: StoreUnderTest) throws {
        let (coordinator, counting) = try moods(store, count: 5)
        let context = ManagedObjectContext(coordinator: coordinator)
        var request = FetchRequest(entityName: "Mood", sortDescriptors: [ObjectSortDescriptor(key: "date")], fetchLimit: 1)
        let filled = try #require(try context.fetch(request).first)
        request.fetchLimit = 0
        request.includesPropertyValues = false
        counting.reset()
        let objects = try context.fetch(request)
        #expect(objects.count == 5)
        #expect(objects[0] === filled)
        #expect(!objects[0].isFault)
        #expect(objects[1...].allSatisfy { $0.isFault })
        #expect(counting.reads == 1)
        #expect(try day(of: objects[3]) == 3)
        #expect(counting.singleSnapshots == 1)
        #expect(objects[4].isFault)

        // Dictionaries and sorted merges read values whatever the request says.
        var dictionaries = request
        dictionaries.propertiesToFetch = ["rating"]
        #expect(try context.fetchDictionaries(dictionaries).map { $0["rating"] as? Int32 } == [1, 2, 3, 4, 5])
        try context.insert("Mood", ["date": Date(timeIntervalSinceReferenceDate: -Self.day), "rating": 9])
        #expect(try context.fetchObjectIDs(request).count == 6)
        #expect(try context.fetchDictionaries(dictionaries).map { $0["rating"] as? Int32 } == [9, 1, 2, 3, 4, 5])

        // returnsObjectsAsFaults: Strata fills objects from the rows the fetch read either way.
        let fresh = ManagedObjectContext(coordinator: coordinator)
        var faults = FetchRequest(entityName: "Mood")
        faults.returnsObjectsAsFaults = true
        #expect(try fresh.fetch(faults).allSatisfy { !$0.isFault })
    }

    /// Europe (France, Spain) and Asia (Japan), two moods in each country.
    /// Moods, countries and continents saved through a coordinator that keeps no rows, so that
    /// every context's reads reach the store and can be counted.
    private func world(_ store: StoreUnderTest) throws -> (PersistentStoreCoordinator, CountingStore) {
        let (coordinator, counting) = try CountingStore.coordinator(store, model: SampleModels.moody(), rowCacheCapacity: 0)
        let context = ManagedObjectContext(coordinator: coordinator)
        let europe = try context.insert("Continent", ["name": "Europe"])
        let asia = try context.insert("Continent", ["name": "Asia"])
        for (index, (country, continent)) in [("France", europe), ("Japan", asia), ("Spain", europe)].enumerated() {
            let place = try context.insert("Country", ["name": country])
            try place.setValue(continent, forKey: "continent")
            for offset in 0..<2 {
                let mood = try context.insert("Mood", ["date": Date(timeIntervalSinceReferenceDate: Double(index * 2 + offset) * Self.day)])
                try mood.setValue(place, forKey: "country")
            }
        }
        try context.save()
        return (coordinator, counting)
    }

    private func continents(of moods: [ManagedObject]) throws -> [String] {
        try moods.map { mood in
            let continent = try #require(try mood.value(forKeyPath: "country.continent") as? ManagedObject)
            return try continent.string("name")
        }
    }

    @Test("A to-many faults as a whole: the first read asks the store once for all its destinations, the next asks nothing",
          arguments: StoreUnderTest.all)
    func toManyFaultsAsAWhole(store: StoreUnderTest) throws {
        // France has moods on days 0…6, Japan on days 7…9: France's to-many must not take Japan's.
        let (coordinator, counting) = try CountingStore.coordinator(store, model: SampleModels.moody(), rowCacheCapacity: 0)
        let writer = ManagedObjectContext(coordinator: coordinator)
        for (country, days) in [("France", 0..<7), ("Japan", 7..<10)] {
            let place = try writer.insert("Country", ["name": country])
            for day in days {
                let mood = try writer.insert("Mood", ["date": Date(timeIntervalSinceReferenceDate: Double(day) * Self.day)])
                try mood.setValue(place, forKey: "country")
            }
        }
        try writer.save()
        // A store that holds its whole graph in memory hands a fetched row over with its
        // to-manys' destinations; the SQLite store leaves them for the first read to ask for.
        let askedOnFirstRead = store.type == .sqlite ? 1 : 0

        let context = ManagedObjectContext(coordinator: coordinator)
        let request = FetchRequest(entityName: "Country", predicate: try ObjectPredicate(format: "name == 'France'"))
        let france = try #require(try context.fetch(request).first)
        #expect(!france.isFault)
        counting.reset()

        // The first read of the to-many: one request for all its destinations, no other read;
        // the destinations come as faults.
        let moods = try france.objects("moods")
        #expect(counting.relatedObjectIDsCalls == askedOnFirstRead)
        #expect(counting.reads == askedOnFirstRead)
        #expect(moods.count == 7)
        #expect(moods.allSatisfy { $0.isFault })

        // Reading it again asks nothing more, and gives the same objects.
        #expect(try france.objects("moods") == moods)
        #expect(counting.relatedObjectIDsCalls == askedOnFirstRead)
        #expect(counting.reads == askedOnFirstRead)

        // Every destination is there: filling them gives France's seven days, none of Japan's,
        // and never asks for the to-many again.
        #expect(try moods.map { try day(of: $0) }.sorted() == Array(0..<7))
        let countries = try moods.map { try $0.value(forKey: "country") as? ManagedObject }
        #expect(countries.allSatisfy { $0 === france })
        #expect(counting.relatedObjectIDsCalls == askedOnFirstRead)
    }

    @Test("Prefetching loads related objects with the fetch; touching them then reads nothing from the store",
          arguments: StoreUnderTest.all)
    func prefetching(store: StoreUnderTest) throws {
        let (coordinator, counting) = try world(store)
        let byDate = FetchRequest(entityName: "Mood", sortDescriptors: [ObjectSortDescriptor(key: "date")])
        let expected = ["Europe", "Europe", "Asia", "Asia", "Europe", "Europe"]

        // Without prefetching, each country and continent is read when first touched.
        let plain = ManagedObjectContext(coordinator: coordinator)
        let moods = try plain.fetch(byDate)
        counting.reset()
        #expect(try continents(of: moods) == expected)
        #expect(counting.singleSnapshots == 5)  // three countries, two continents

        // Prefetching the key path: one store request per level, then nothing more.
        let prefetched = ManagedObjectContext(coordinator: coordinator)
        var request = byDate
        request.relationshipKeyPathsForPrefetching = ["country.continent"]
        counting.reset()
        let again = try prefetched.fetch(request)
        #expect(counting.fetches == 1)
        #expect(counting.batchSnapshots == 2)
        counting.reset()
        #expect(try continents(of: again) == expected)
        #expect(counting.reads == 0)

        // A to-many: countries with their moods.
        let countries = ManagedObjectContext(coordinator: coordinator)
        var withMoods = FetchRequest(entityName: "Country", sortDescriptors: [ObjectSortDescriptor(key: "name")])
        withMoods.relationshipKeyPathsForPrefetching = ["moods", "continent"]
        let fetched = try countries.fetch(withMoods)
        counting.reset()
        let days = try fetched.map { country in try country.objects("moods").map { try day(of: $0) }.sorted() }
        #expect(days == [[0, 1], [2, 3], [4, 5]])
        #expect(try fetched.map { try #require(try $0.value(forKey: "continent") as? ManagedObject).string("name") }
            == ["Europe", "Asia", "Europe"])
        #expect(counting.reads == 0)

        // Batched results prefetch batch by batch.
        let batched = ManagedObjectContext(coordinator: coordinator)
        request.fetchBatchSize = 2
        counting.reset()
        let pages = try batched.fetchBatched(request)
        #expect(counting.reads == 1)
        _ = pages[0]  // moods 0, 1 (France, Europe): moods, countries, continents
        #expect(counting.batchSnapshots == 3)
        _ = pages[4]  // moods 4, 5 (Spain; Europe already loaded): moods, countries
        #expect(counting.batchSnapshots == 5)
        counting.reset()
        #expect(try continents(of: [pages[0], pages[1], pages[4], pages[5]]) == ["Europe", "Europe", "Europe", "Europe"])
        #expect(counting.reads == 0)
    }
}
