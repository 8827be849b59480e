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
