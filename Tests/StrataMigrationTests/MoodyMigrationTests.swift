import Foundation
import Strata
import StrataMigration
import StrataTestSupport
import Testing

/// objc.io's `Country5ToCountry6Policy` (Moody 5 → 6), in Swift without the Objective-C
/// runtime: after the default mapping of a country, it finds or makes the continent of the
/// country's `isoContinent` code in the destination and relates the two.
final class Country5ToCountry6Policy: EntityMigrationPolicy {
    struct MissingCountry: Error {}

    override func createDestinationInstances(forSource source: ManagedObject, in mapping: EntityMapping,
                                             manager: MigrationManager) throws {
        try super.createDestinationInstances(forSource: source, in: mapping, manager: manager)
        guard let code = try source.value(forKey: "isoContinent") as? Int16 else { return }
        guard let country = try manager.destinationInstances(forEntityMappingName: mapping.name, sourceInstances: [source]).first
        else { throw MissingCountry() }
        let context = manager.destinationContext
        // The continents made so far: saved by earlier batches, or inserted in this one.
        let request = FetchRequest(entityName: "Continent", predicate: .equal("numericISO3166Code", code))
        let continent = try context.fetch(request).first ?? {
            let continent = try context.insertNewObject(forEntityName: "Continent")
            try continent.setValue(code, forKey: "numericISO3166Code")
            return continent
        }()
        try country.setValue(continent, forKey: "continent")
    }
}

@Suite("The Moody chain (objc.io): mapping models 2 → 3 → 4 → 5 → 6 on generated data")
struct MoodyMigrationTests {
    static let folder = "objcio__core-data/Migrations/Migrations/"

    static func model(_ version: Int) throws -> ManagedObjectModel {
        let bundle = try ModelBundle(at: MappingFixtures.url(folder + "Moody.xcdatamodeld"))
        return try #require(bundle.versions["Moody \(version)"])
    }

    static func mapping(_ from: Int) throws -> MappingModel {
        try MappingModel.load(at: MappingFixtures.url(folder + "Moody \(from)-Moody \(from + 1).xcmappingmodel"))
    }

    /// Three continents of two countries each; five moods per country (ratings 0…29 in order).
    static let continentCodes: [Int16] = [2, 142, 150]

    static func fillMoody2(_ context: ManagedObjectContext) throws {
        let now = Date(timeIntervalSinceReferenceDate: 700_000_000)
        var rating: Int16 = 0
        for (continentIndex, code) in continentCodes.enumerated() {
            let continent = try context.insertNewObject(forEntityName: "Continent")
            try continent.setValue(code, forKey: "numericISO3166Code")
            try continent.setValue(now, forKey: "updatedAt")
            try continent.setValue(Int64(2), forKey: "numberOfCountries")
            for countryIndex in 0..<2 {
                let country = try context.insertNewObject(forEntityName: "Country")
                try country.setValue(Int16(100 * (continentIndex + 1) + countryIndex), forKey: "numericISO3166Code")
                try country.setValue(now, forKey: "updatedAt")
                try country.setValue(continent, forKey: "continent")
                for _ in 0..<5 {
                    let mood = try context.insertNewObject(forEntityName: "Mood")
                    try mood.setValue(now.addingTimeInterval(Double(rating) * 60), forKey: "date")
                    try mood.setValue(rating, forKey: "rating")
                    try mood.setValue("creator-\(rating)", forKey: "creatorID")
                    try mood.setValue(country, forKey: "country")
                    rating += 1
                }
            }
        }
    }

    /// Each mood's (rating, country code, continent code of its country), sorted by rating.
    static func moods(_ context: ManagedObjectContext) throws -> [[Int16?]] {
        try context.all("Mood", sortedBy: "rating").map { mood in
            [try mood.value(forKey: "rating") as? Int16,
             try mood.value(forKeyPath: "country.numericISO3166Code") as? Int16,
             try ((try? mood.value(forKeyPath: "country.continent.numericISO3166Code")) ?? mood.value(forKeyPath: "country.isoContinent")) as? Int16]
        }
    }

    @Test("Every step migrates with Xcode's mapping models and the policy, on every store type", arguments: MigrationRun.all)
    func chain(run: MigrationRun) throws {
        EntityMigrationPolicy.register(Country5ToCountry6Policy.self, forName: "Country5ToCountry6Policy")
        var url = try run.makeSource(model: Self.model(2), Self.fillMoody2)
        let expected = try Self.moods(run.openSource(url, model: Self.model(2)))
        #expect(expected.count == 30)
        var sourceType = run.source.type
        for version in 2..<6 {
            let manager = MigrationManager(sourceModel: try Self.model(version), destinationModel: try Self.model(version + 1))
            manager.batchSize = 4
            let next = run.destinationURL(besides: url)
            try manager.migrateStore(from: url, type: sourceType, mapping: try Self.mapping(version), to: next, type: run.destination.type)
            url = next
            sourceType = run.destination.type
            let context = try run.open(url, model: try Self.model(version + 1))
            #expect(try Self.moods(context) == expected, "Moody \(version + 1)")
            switch version + 1 {
            case 3:
                // Moody 3 relates each mood to its continent: $source.country.continent.
                for mood in try context.all("Mood", sortedBy: "rating") {
                    #expect(try mood.value(forKeyPath: "continent.numericISO3166Code") as? Int16
                            == mood.value(forKeyPath: "country.continent.numericISO3166Code") as? Int16)
                }
                // …and each continent to the moods of its countries (@distinctUnionOfSets).
                for continent in try context.all("Continent", sortedBy: "numericISO3166Code") {
                    #expect((try continent.value(forKey: "moods") as? Set<ManagedObject>)?.count == 10)
                }
            case 5:
                #expect(try context.count(for: FetchRequest(entityName: "Country")) == 6)
            case 6:
                // The policy made one continent per code and related every country to it.
                let continents = try context.all("Continent", sortedBy: "numericISO3166Code")
                #expect(try continents.map { try $0.value(forKey: "numericISO3166Code") as? Int16 } == Self.continentCodes)
                for continent in continents {
                    #expect((try continent.value(forKey: "countries") as? Set<ManagedObject>)?.count == 2)
                }
                for country in try context.all("Country", sortedBy: "numericISO3166Code") {
                    #expect((try country.value(forKey: "moods") as? Set<ManagedObject>)?.count == 5)
                }
            default:
                break
            }
        }
    }
}

/// The whole Moody chain in one run, as an app opens an old store: version 1 → 2 inferred (an
/// attribute added, one renamed), then the four mapping models, found among the fixture's files
/// by the versions they connect, the last with its custom policy.
@Suite("The Moody chain (objc.io): versions 1 → 6 in one progressive migration")
struct MoodyProgressiveTests {
    static let folder = MoodyMigrationTests.folder

    /// Three continents of two countries each; five moods per country, a minute apart, with
    /// Moody 1's `remoteIdentifier` (`mood-0`…`mood-29`).
    static func fillMoody1(_ context: ManagedObjectContext) throws {
        let now = Date(timeIntervalSinceReferenceDate: 700_000_000)
        var index = 0
        for (continentIndex, code) in MoodyMigrationTests.continentCodes.enumerated() {
            let continent = try context.insertNewObject(forEntityName: "Continent")
            try continent.setValue(code, forKey: "numericISO3166Code")
            try continent.setValue(now, forKey: "updatedAt")
            for countryIndex in 0..<2 {
                let country = try context.insertNewObject(forEntityName: "Country")
                try country.setValue(Int16(100 * (continentIndex + 1) + countryIndex), forKey: "numericISO3166Code")
                try country.setValue(now, forKey: "updatedAt")
                try country.setValue(continent, forKey: "continent")
                for _ in 0..<5 {
                    let mood = try context.insertNewObject(forEntityName: "Mood")
                    try mood.setValue(now.addingTimeInterval(Double(index) * 60), forKey: "date")
                    try mood.setValue("mood-\(index)", forKey: "remoteIdentifier")
                    try mood.setValue("creator-\(index)", forKey: "creatorID")
                    try mood.setValue(country, forKey: "country")
                    index += 1
                }
            }
        }
    }

    /// Each mood by date: its remote ID, creator, rating, its country's code and its continent's.
    static func moods(_ context: ManagedObjectContext, remoteIDKey: String) throws -> [[String]] {
        try context.all("Mood", sortedBy: "date").map { mood in
            let values: [Any?] = [try mood.value(forKey: remoteIDKey), try mood.value(forKey: "creatorID"),
                                  try? mood.value(forKey: "rating"),
                                  try mood.value(forKeyPath: "country.numericISO3166Code"),
                                  try mood.value(forKeyPath: "country.continent.numericISO3166Code")]
            return values.map { $0.map { "\($0)" } ?? "nil" }
        }
    }

    @Test("The plan: 1 → 2 inferred, each later step by its mapping model, found by the versions it connects")
    func plan() throws {
        let bundle = try ModelBundle(at: MappingFixtures.url(Self.folder + "Moody.xcdatamodeld"))
        let provider = try MappingModelProvider(contentsOf: [MappingFixtures.url(Self.folder)])
        #expect(provider.mappingModels.count == 4)
        let planner = MigrationPlanner(versions: bundle.versionChain, mappingProviders: [provider])
        let moody1 = try #require(bundle.versions["Moody"])
        let metadata: [String: PropertyListValue] = [
            StoreMetadataKey.modelVersionHashes: .dictionary(moody1.entityVersionHashesByName.mapValues { .data($0) }),
        ]
        let plan = try planner.plan(storeMetadata: metadata, storedModel: nil, to: bundle.currentModel, file: "moody")
        #expect(plan.steps.map(\.title) == [
            "Moody → Moody 2: inferred",
            "Moody 2 → Moody 3: mapped (Moody 2-Moody 3)",
            "Moody 3 → Moody 4: mapped (Moody 3-Moody 4)",
            "Moody 4 → Moody 5: mapped (Moody 4-Moody 5)",
            "Moody 5 → Moody 6: mapped (Moody 5-Moody 6)",
        ])
        #expect(plan.steps[0].summary.contains("Mood: property 'remoteIdentifier' renamed to 'remoteID'"))
        #expect(plan.steps[4].summary.contains { $0.hasPrefix("CountryToCountry: Country → Country") && $0.contains("Country5ToCountry6Policy") })
        // Each mapping model is for its own step only.
        func model(_ version: Int) throws -> ManagedObjectModel { try #require(bundle.versions["Moody \(version)"]) }
        for (index, mapping) in provider.mappingModels.enumerated() {
            let version = index + 2
            #expect(mapping.displayName == "Moody \(version)-Moody \(version + 1)")
            #expect(mapping.matches(source: try model(version), destination: try model(version + 1)))
            let other = version == 5 ? 2 : version + 1
            #expect(!mapping.matches(source: try model(other), destination: try model(other + 1)))
        }
    }

    @Test("A Moody 1 store opened by a container with Moody 6 arrives whole, through the store options alone",
          arguments: StoreUnderTest.fileBacked)
    @MainActor
    func container(store: StoreUnderTest) throws {
        EntityMigrationPolicy.register(Country5ToCountry6Policy.self, forName: "Country5ToCountry6Policy")
        let bundleURL = try MappingFixtures.url(Self.folder + "Moody.xcdatamodeld")
        let bundle = try ModelBundle(at: bundleURL)
        let moody1 = try #require(bundle.versions["Moody"])
        let folder = try TemporaryFolder.make()
        let url = try store.storeURL(in: folder)
        do {
            let coordinator = PersistentStoreCoordinator(managedObjectModel: moody1)
            let written = try coordinator.addPersistentStore(type: store.type, at: url)
            let context = ManagedObjectContext(coordinator: coordinator)
            try Self.fillMoody1(context)
            try context.save()
            try coordinator.remove(written)
        }
        let expected = try {
            let reader = PersistentStoreCoordinator(managedObjectModel: moody1)
            let opened = try reader.addPersistentStore(type: store.type, at: url, options: [StoreOption.readOnly: .bool(true)])
            defer { try? reader.remove(opened) }
            return try Self.moods(ManagedObjectContext(coordinator: reader), remoteIDKey: "remoteIdentifier")
        }()
        #expect(expected.count == 30)

        var description = ContainerStoreDescription(type: store.type, url: url)
        description.modelBundleURL = bundleURL
        description.mappingModelURLs = [try MappingFixtures.url(Self.folder)]
        let container = PersistentContainer(name: "Moody", managedObjectModel: bundle.currentModel)
        container.storeDescriptions = [description]
        try container.loadPersistentStores()
        let context = container.viewContext

        // Every mood kept its values (the rating Moody 2 added took its default), its country
        // and, through the policy's continents, its continent.
        let expectedAfter = expected.map { [$0[0], $0[1], "0", $0[3], $0[4]] }
        #expect(try Self.moods(context, remoteIDKey: "remoteID") == expectedAfter)
        let continents = try context.all("Continent", sortedBy: "numericISO3166Code")
        #expect(try continents.map { try $0.value(forKey: "numericISO3166Code") as? Int16 } == MoodyMigrationTests.continentCodes)
        for continent in continents {
            #expect((try continent.value(forKey: "countries") as? Set<ManagedObject>)?.count == 2)
        }
        #expect(try context.count(for: FetchRequest(entityName: "Country")) == 6)
        #expect(bundle.versionNames(matchingStoreMetadata: try #require(container.persistentStoreCoordinator.persistentStores.first).metadata)
                == ["Moody 6"])
        // Nothing is left beside the store: no copies, no staging store.
        #expect(try files(in: folder, startingWith: ".").isEmpty)
    }
}
