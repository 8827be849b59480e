import Foundation
import Strata
import StrataMigration

/// The models, the mapping model and the data of the benchmark: people, each in one of 200
/// countries, migrated to a version that renames, computes, denormalizes and filters.
enum Workload {
    /// How many countries the people are spread over.
    static let countryCount = 200

    /// Version 1: `Country` (name, code) ← `Person` (first, last, age, height, country); the
    /// to-one has no inverse, so that building the store takes linear time.
    static let source = try! ManagedObjectModel {
        EntityDescription("Country") {
            Attribute("name", .string, optional: false)
            Attribute("code", .integer16, optional: false)
        }
        EntityDescription("Person") {
            Attribute("first", .string, optional: false)
            Attribute("last", .string, optional: false)
            Attribute("age", .integer16, optional: false)
            Attribute("height", .double, optional: false)
            Relationship("country", to: "Country")
        }
    }

    /// Version 2: `Person` gets `fullName` (from a policy function), `age` widened, `heightCM`
    /// renamed, `countryName` copied from its country, `status` constant; the relationship gets
    /// its inverse, `Country.residents`.
    static let destination = try! ManagedObjectModel {
        EntityDescription("Country") {
            Attribute("name", .string, optional: false)
            Attribute("code", .integer16, optional: false)
            Relationship("residents", toMany: "Person", inverse: "country")
        }
        EntityDescription("Person") {
            Attribute("fullName", .string, optional: false)
            Attribute("age", .integer32, optional: false)
            Attribute("heightCM", .double, optional: false)
            Attribute("countryName", .string)
            Attribute("status", .string, optional: false)
            Relationship("country", to: "Country", inverse: "residents")
        }
    }

    /// Answers `FUNCTION($entityPolicy, "fullNameForFirst:last:", …)`.
    final class PersonPolicy: EntityMigrationPolicy {
        override func function(_ selector: String, arguments: [Any?], manager: MigrationManager) throws -> Any? {
            guard selector == "fullNameForFirst:last:" else { return try super.function(selector, arguments: arguments, manager: manager) }
            return "\(arguments[0] as? String ?? "") \(arguments[1] as? String ?? "")"
        }
    }

    /// People of 2.4 m and more (about 1 in 20) are left behind by the filter.
    static let mapping: MappingModel = {
        let source = MappingExpression.variable("source")
        return MappingModel(entityMappings: [
            EntityMapping(name: "CountryToCountry", sourceEntityName: "Country", destinationEntityName: "Country",
                          attributeMappings: [PropertyMapping(name: "name"), PropertyMapping(name: "code")]),
            EntityMapping(name: "PersonToPerson", sourceEntityName: "Person", destinationEntityName: "Person",
                          filterPredicate: "$source.height < 2.4",
                          entityMigrationPolicyClassName: "Benchmarks.PersonPolicy",
                          attributeMappings: [
                            PropertyMapping(name: "fullName", valueExpression: .function(
                                receiver: .variable("entityPolicy"), selector: "fullNameForFirst:last:",
                                arguments: [.keyPath(source, "first"), .keyPath(source, "last")])),
                            PropertyMapping(name: "age", valueExpression: .keyPath(source, "age")),
                            PropertyMapping(name: "heightCM", valueExpression: .builtInFunction(
                                name: "multiply:by", arguments: [.keyPath(source, "height"), .constant(.integer(100))])),
                            PropertyMapping(name: "countryName", valueExpression: .keyPath(source, "country.name")),
                            PropertyMapping(name: "status", valueExpression: .constant(.string("active"))),
                          ],
                          relationshipMappings: [PropertyMapping(name: "country", generatesValueExpression: true)]),
        ])
    }()

    /// Writes `count` people and the countries to a new SQLite store at `url`, saving every
    /// 20,000 people.
    static func build(count: Int, at url: URL) throws {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: source)
        try coordinator.addPersistentStore(type: .sqlite, at: url)
        let context = ManagedObjectContext(coordinator: coordinator)
        var countryIDs: [ManagedObjectID] = []
        for index in 0..<countryCount {
            let country = try context.insertNewObject(forEntityName: "Country")
            try country.setValue("Country \(index)", forKey: "name")
            try country.setValue(Int16(index), forKey: "code")
        }
        try context.save()
        countryIDs = try context.fetchObjectIDs(FetchRequest(entityName: "Country", sortDescriptors: [ObjectSortDescriptor(key: "code")]))
        context.reset()
        var random = SplitMix(seed: 42)
        for index in 0..<count {
            let person = try context.insertNewObject(forEntityName: "Person")
            try person.setValue("First\(index % 997)", forKey: "first")
            try person.setValue("Last\(index)", forKey: "last")
            try person.setValue(Int16(random.next() % 100), forKey: "age")
            try person.setValue(1.45 + Double(random.next() % 1_000) / 1_000, forKey: "height")
            try person.setValue(context.object(with: countryIDs[index % countryCount]), forKey: "country")
            if (index + 1) % 20_000 == 0 {
                try context.save()
                context.reset()
            }
        }
        try context.save()
    }

    /// A small deterministic generator.
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
    }
}
