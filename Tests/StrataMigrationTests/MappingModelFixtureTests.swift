import Foundation
import StrataCore
import StrataMigration
import StrataModelFiles
import Testing

/// Every mapping model of the fixtures, loaded and checked against the two model versions it
/// connects (found by the paths Xcode recorded in it).
@Suite("Mapping models of the fixtures")
struct MappingModelFixtureTests {
    struct Loaded {
        let raw: MappingModel
        let resolved: MappingModel
        let source: ManagedObjectModel
        let destination: ManagedObjectModel
    }

    static func load(_ path: String) throws -> Loaded {
        let raw = try MappingModel.load(at: MappingFixtures.url(path))
        let source = try MappingFixtures.model(recordedPath: try #require(raw.sourceModelPath), besideMappingModel: path)
        let destination = try MappingFixtures.model(recordedPath: try #require(raw.destinationModelPath), besideMappingModel: path)
        return Loaded(raw: raw, resolved: try raw.resolved(source: source, destination: destination),
                      source: source, destination: destination)
    }

    @Test("Every mapping model loads and agrees with the two model versions it connects",
          arguments: try MappingFixtures.mappingModelPaths())
    func agreesWithItsModels(path: String) throws {
        let loaded = try Self.load(path)
        let text = try String(contentsOf: MappingFixtures.url(path).appending(path: "xcmapping.xml"), encoding: .utf8)
        #expect(loaded.raw.entityMappings.count == text.matches(of: /<object type="XDDEVENTITYMAPPING"/).count)
        #expect(loaded.raw.file?.hasSuffix("xcmapping.xml") == true)
        #expect(Set(loaded.raw.entityMappings.map(\.name)).count == loaded.raw.entityMappings.count)

        for (raw, entityMapping) in zip(loaded.raw.entityMappings, loaded.resolved.entityMappings) {
            // The file records no version hashes and leaves every type undefined.
            #expect(raw.sourceEntityVersionHash == nil && raw.destinationEntityVersionHash == nil)
            #expect(raw.mappingType == .undefined)
            #expect(raw.name == entityMapping.name)

            let sourceEntity = entityMapping.sourceEntityName.flatMap { loaded.source.entity(named: $0) }
            let destinationEntity = entityMapping.destinationEntityName.flatMap { loaded.destination.entity(named: $0) }
            #expect((entityMapping.sourceEntityName == nil) == (sourceEntity == nil), "\(entityMapping.name): source entity")
            #expect((entityMapping.destinationEntityName == nil) == (destinationEntity == nil), "\(entityMapping.name): destination entity")
            #expect(entityMapping.sourceEntityVersionHash == entityMapping.sourceEntityName.flatMap { loaded.source.entityVersionHashesByName[$0] })
            #expect(entityMapping.destinationEntityVersionHash == entityMapping.destinationEntityName.flatMap { loaded.destination.entityVersionHashesByName[$0] })
            if let hash = entityMapping.sourceEntityVersionHash { #expect(hash.count == 32) }

            let expectedType: EntityMappingType = switch (entityMapping.sourceEntityVersionHash, entityMapping.destinationEntityVersionHash) {
            case (nil, _): .add
            case (_, nil): .remove
            case let (a?, b?): a == b ? .copy : .transform
            }
            #expect(entityMapping.mappingType == expectedType, "\(entityMapping.name)")

            // Property mappings name properties of the destination entity, once each.
            let destinationAttributes = Set(destinationEntity?.attributesByName.keys.map { $0 } ?? [])
            let destinationRelationships = Set(destinationEntity?.relationshipsByName.keys.map { $0 } ?? [])
            for attributeMapping in entityMapping.attributeMappings {
                #expect(destinationAttributes.contains(attributeMapping.name), "\(entityMapping.name).\(attributeMapping.name)")
            }
            for relationshipMapping in entityMapping.relationshipMappings {
                #expect(destinationRelationships.contains(relationshipMapping.name), "\(entityMapping.name).\(relationshipMapping.name)")
            }
            #expect(entityMapping.attributeMappings.map(\.name) == entityMapping.attributeMappings.map(\.name).sorted())

            // A stated expression is kept; a missing one is `$source.<name>` exactly when the
            // source entity has that attribute.
            for (rawAttribute, attributeMapping) in zip(raw.attributeMappings, entityMapping.attributeMappings) {
                if let stated = rawAttribute.valueExpression {
                    #expect(attributeMapping.valueExpression == stated)
                } else if sourceEntity?.attributesByName[attributeMapping.name] != nil {
                    #expect(attributeMapping.valueExpressionFormat == "$source.\(attributeMapping.name)")
                } else {
                    #expect(attributeMapping.valueExpression == nil)
                }
            }

            // Every `$source.x…` reads a property the source entity has; every reference to an
            // entity mapping names one of this model.
            for propertyMapping in entityMapping.attributeMappings + entityMapping.relationshipMappings {
                guard let expression = propertyMapping.valueExpression else { continue }
                for path in Self.sourceKeyPaths(in: expression) {
                    let first = String(path.split(separator: ".").first ?? "")
                    #expect(sourceEntity?.propertiesByName[first] != nil, "\(entityMapping.name).\(propertyMapping.name): \(path)")
                }
                if let reference = expression.destinationInstances {
                    #expect(loaded.raw.entityMapping(named: reference.entityMappingName) != nil)
                    let target = loaded.resolved.entityMapping(named: reference.entityMappingName)
                    let relationship = destinationEntity?.relationshipsByName[propertyMapping.name]
                    #expect(target?.destinationEntityName == relationship?.destinationEntityName,
                            "\(entityMapping.name).\(propertyMapping.name) takes objects of the relationship's destination")
                }
            }

            // Nothing in the fixtures uses a filter predicate, user info or a custom source fetch.
            #expect(entityMapping.filterPredicate == nil && entityMapping.userInfo.isEmpty)
            #expect(entityMapping.generatesSourceExpression && entityMapping.sourceExpression == nil)
        }
    }

    /// The key paths read from `$source` anywhere in an expression.
    static func sourceKeyPaths(in expression: MappingExpression) -> [String] {
        switch expression {
        case let .keyPath(base, path): (base == .variable("source") ? [path] : []) + sourceKeyPaths(in: base)
        case let .function(receiver, _, arguments): sourceKeyPaths(in: receiver) + arguments.flatMap(sourceKeyPaths)
        case let .builtInFunction(_, arguments): arguments.flatMap(sourceKeyPaths)
        case let .fetch(request, context, _): sourceKeyPaths(in: request) + sourceKeyPaths(in: context)
        case .constant, .variable, .evaluatedObject, .unsupported: []
        }
    }

    static let destinationInstances = "destinationInstancesForEntityMappingNamed:sourceInstances:"

    // MARK: The Moody mapping models (objc.io's Core Data book)

    @Test("Moody 2 → 3: relationships carried over through key paths and named mappings")
    func moody2to3() throws {
        let loaded = try Self.load("objcio__core-data/Migrations/Migrations/Moody 2-Moody 3.xcmappingmodel")
        let raw = loaded.raw
        #expect(raw.sourceModelPath == "Migrations/Moody.xcdatamodeld/Moody 2.xcdatamodel")
        #expect(raw.destinationModelPath == "Migrations/Moody.xcdatamodeld/Moody 3.xcdatamodel")
        #expect(raw.entityMappings.map(\.name) == ["MoodToMood", "CountryToCountry", "ContinentToContinent"])
        // Xcode saved an emptied "Custom Policy" field as an empty string: no policy.
        #expect(raw.entityMappings.allSatisfy { $0.entityMigrationPolicyClassName == nil })

        let mood = try #require(raw.entityMapping(named: "MoodToMood"))
        #expect(mood.attributeMappings.map(\.name) == ["colors", "creatorID", "date", "latitude", "longitude",
                                                       "markedForDeletionDate", "markedForRemoteDeletion", "rating", "remoteID"])
        let continent = try #require(mood.relationshipMapping(named: "continent"))
        #expect(continent.generatesValueExpression && continent.valueExpression == nil)
        #expect(continent.sourceKeyPath == "$source.country.continent")
        #expect(continent.sourceMappingName == "ContinentToContinent")
        let resolvedMood = try #require(loaded.resolved.entityMapping(named: "MoodToMood"))
        #expect(resolvedMood.relationshipMapping(named: "continent")?.valueExpressionFormat
                == "FUNCTION($manager, \"\(Self.destinationInstances)\", \"ContinentToContinent\", $source.country.continent)")
        #expect(resolvedMood.relationshipMapping(named: "country")?.valueExpressionFormat
                == "FUNCTION($manager, \"\(Self.destinationInstances)\", \"CountryToCountry\", $source.country)")

        let continents = try #require(loaded.resolved.entityMapping(named: "ContinentToContinent"))
        let moods = try #require(continents.relationshipMapping(named: "moods")?.valueExpression?.destinationInstances)
        #expect(moods.entityMappingName == "MoodToMood")
        #expect(moods.sourceInstances == .keyPath(.variable("source"), "countries.@distinctUnionOfSets.moods"))
        // Generated without a key path or mapping name: the relationship of the same name, and
        // the mapping that makes the destination entity's objects.
        #expect(continents.relationshipMapping(named: "countries")?.valueExpressionFormat
                == "FUNCTION($manager, \"\(Self.destinationInstances)\", \"CountryToCountry\", $source.countries)")

        // Two relationship mappings are left-overs of deleted entity mappings: not read.
        let text = try String(contentsOf: MappingFixtures.url("objcio__core-data/Migrations/Migrations/Moody 2-Moody 3.xcmappingmodel/xcmapping.xml"), encoding: .utf8)
        #expect(text.matches(of: /<object type="XDDEVRELATIONSHIPMAPPING"/).count == 8)
        #expect(raw.entityMappings.map(\.relationshipMappings.count).reduce(0, +) == 6)
        #expect(loaded.resolved.entityMappings.map(\.mappingType) == [.transform, .copy, .transform])
    }

    @Test("Moody 3 → 4: default mappings only; Mood is copied")
    func moody3to4() throws {
        let loaded = try Self.load("objcio__core-data/Migrations/Migrations/Moody 3-Moody 4.xcmappingmodel")
        #expect(loaded.raw.entityMappings.map(\.name) == ["ContinentToContinent", "CountryToCountry", "MoodToMood"])
        #expect(loaded.resolved.entityMappings.map(\.mappingType) == [.transform, .transform, .copy])
        let allProperties = loaded.raw.entityMappings.flatMap { $0.attributeMappings + $0.relationshipMappings }
        #expect(allProperties.allSatisfy { $0.valueExpression == nil && $0.sourceKeyPath == nil && $0.sourceMappingName == nil })
        let relationshipMappings = loaded.raw.entityMappings.flatMap(\.relationshipMappings)
        #expect(relationshipMappings.allSatisfy { $0.generatesValueExpression })
        let mood = try #require(loaded.resolved.entityMapping(named: "MoodToMood"))
        #expect(mood.sourceEntityVersionHash == mood.destinationEntityVersionHash)
        #expect(mood.relationshipMapping(named: "continent")?.valueExpressionFormat
                == "FUNCTION($manager, \"\(Self.destinationInstances)\", \"ContinentToContinent\", $source.continent)")
    }

    @Test("Moody 4 → 5: Continent is dropped; a country keeps its continent's code in isoContinent")
    func moody4to5() throws {
        let loaded = try Self.load("objcio__core-data/Migrations/Migrations/Moody 4-Moody 5.xcmappingmodel")
        #expect(loaded.raw.entityMappings.map(\.name) == ["MoodToMood", "CountryToCountry"])
        #expect(loaded.source.entity(named: "Continent") != nil && loaded.destination.entity(named: "Continent") == nil)
        let country = try #require(loaded.raw.entityMapping(named: "CountryToCountry"))
        let isoContinent = try #require(country.attributeMapping(named: "isoContinent")?.valueExpression)
        #expect(isoContinent == .keyPath(.variable("source"), "continent.numericISO3166Code"))
        #expect(isoContinent.format == "$source.continent.numericISO3166Code")
        #expect(isoContinent.sourceKeyPath == "continent.numericISO3166Code")
        #expect(country.relationshipMappings.map(\.name) == ["moods"])
    }

    @Test("Moody 5 → 6: Continent comes back, made by the custom policy Country5ToCountry6Policy")
    func moody5to6() throws {
        let loaded = try Self.load("objcio__core-data/Migrations/Migrations/Moody 5-Moody 6.xcmappingmodel")
        #expect(loaded.raw.entityMappings.map(\.name) == ["Continent", "CountryToCountry", "MoodToMood"])
        let continent = try #require(loaded.resolved.entityMapping(named: "Continent"))
        #expect(continent.sourceEntityName == nil && continent.destinationEntityName == "Continent")
        #expect(continent.mappingType == .add && continent.sourceEntityVersionHash == nil)
        #expect(continent.attributeMappings.map(\.name) == ["numericISO3166Code"])
        #expect(continent.attributeMappings[0].valueExpression == nil)
        let country = try #require(loaded.resolved.entityMapping(named: "CountryToCountry"))
        #expect(country.entityMigrationPolicyClassName == "Migrations.Country5ToCountry6Policy")
        #expect(country.mappingType == .transform)
        // Moody 5's Country has no continent: the policy sets it, no expression does.
        #expect(country.relationshipMapping(named: "continent")?.valueExpression == nil)
        #expect(loaded.source.entity(named: "Country")?.relationshipsByName["continent"] == nil)

        // Three attribute mappings are left-overs that belong to no entity mapping: not read.
        let text = try String(contentsOf: MappingFixtures.url("objcio__core-data/Migrations/Migrations/Moody 5-Moody 6.xcmappingmodel/xcmapping.xml"), encoding: .utf8)
        #expect(text.matches(of: /<object type="XDDEVATTRIBUTEMAPPING"/).count == 18)
        #expect(loaded.raw.entityMappings.map(\.attributeMappings.count).reduce(0, +) == 15)
    }

    // MARK: The others

    @Test("CoreStore EvolutionDemo V1 → V2: a renamed attribute, a constant, a custom policy")
    func coreStoreV1toV2() throws {
        let loaded = try Self.load("JohnEstropia__CoreStore/Demo/Sources/Demos/Advanced/EvolutionDemo/Advanced.EvolutionDemo.V2.FromV1.xcmappingmodel")
        let creature = try #require(loaded.resolved.entityMappings.first)
        #expect(loaded.resolved.entityMappings.count == 1)
        #expect(creature.name == "CreatureToCreature" && creature.mappingType == .transform)
        #expect(creature.entityMigrationPolicyClassName == "Advanced_EvolutionDemo_V2_FromV1MigrationPolicy")
        #expect(creature.attributeMappings.map(\.name) == ["dnaCode", "hasHead", "hasTail", "hasVertebrae", "numberOfFlippers"])
        #expect(creature.attributeMapping(named: "numberOfFlippers")?.valueExpressionFormat == "$source.numberOfFlagella")
        #expect(creature.attributeMapping(named: "hasHead")?.valueExpression == .constant(.bool(true)))
        #expect(creature.attributeMapping(named: "hasHead")?.valueExpressionFormat == "YES")
        #expect(creature.attributeMapping(named: "dnaCode")?.valueExpressionFormat == "$source.dnaCode")
        #expect(creature.attributeMapping(named: "hasTail")?.valueExpression == nil)
        #expect(loaded.raw.sourceModelPath?.hasPrefix("⭐️Sources/") == true)
    }

    @Test("CoreStore EvolutionDemo V2 → V1: the rename undone")
    func coreStoreV2toV1() throws {
        let loaded = try Self.load("JohnEstropia__CoreStore/Demo/Sources/Demos/Advanced/EvolutionDemo/Advanced.EvolutionDemo.V1.FromV2.xcmappingmodel")
        let creature = try #require(loaded.resolved.entityMapping(named: "CreatureToCreature"))
        #expect(creature.entityMigrationPolicyClassName == nil)
        #expect(creature.attributeMappings.map(\.name) == ["dnaCode", "numberOfFlagella"])
        #expect(creature.attributeMapping(named: "numberOfFlagella")?.valueExpression?.sourceKeyPath == "numberOfFlippers")
    }

    @Test("JSQCoreDataKit Version 1 → 2: new attributes from constants and now()")
    func jsqV1toV2() throws {
        let loaded = try Self.load("jessesquires__JSQCoreDataKit/Example/ExampleModel/ExampleModel/Version1_to_Version2.xcmappingmodel")
        let employee = try #require(loaded.resolved.entityMapping(named: "EmployeeToEmployee"))
        #expect(employee.attributeMapping(named: "companyDateFounded")?.valueExpression == .builtInFunction(name: "now", arguments: []))
        #expect(employee.attributeMapping(named: "companyDateFounded")?.valueExpressionFormat == "now()")
        #expect(employee.attributeMapping(named: "companyName")?.valueExpression == .constant(.string("Unknown")))
        #expect(employee.attributeMapping(named: "companyName")?.valueExpressionFormat == "\"Unknown\"")
        #expect(employee.attributeMapping(named: "companyProfits")?.valueExpression == .constant(.integer(0)))
        #expect(employee.attributeMapping(named: "salary")?.valueExpressionFormat == "$source.salary")
    }

    @Test("JSQCoreDataKit Version 2 → 3: one entity split into two, a named mapping")
    func jsqV2toV3() throws {
        let loaded = try Self.load("jessesquires__JSQCoreDataKit/Example/ExampleModel/ExampleModel/Version2_to_Version3.xcmappingmodel")
        #expect(loaded.raw.entityMappings.map(\.name) == ["EmployeeToEmployee", "EmployeeToCompany"])
        let company = try #require(loaded.resolved.entityMapping(named: "EmployeeToCompany"))
        #expect(company.sourceEntityName == "Employee" && company.destinationEntityName == "Company")
        #expect(company.attributeMapping(named: "name")?.valueExpressionFormat == "$source.companyName")
        #expect(company.attributeMapping(named: "profits")?.valueExpressionFormat == "$source.companyProfits")
        #expect(company.attributeMapping(named: "dateFounded")?.valueExpressionFormat == "$source.companyDateFounded")
        #expect(company.relationshipMappings.map(\.name) == ["employees"])
        // Version 2's Employee has no `employees` nor `company`: nothing to generate from.
        #expect(company.relationshipMapping(named: "employees")?.valueExpression == nil)
        #expect(loaded.resolved.entityMapping(named: "EmployeeToEmployee")?.relationshipMapping(named: "company")?.valueExpression == nil)
    }

    @Test("CoreDataPlus V2 → V3: policies on three mappings, a new entity, relationship expressions")
    func coreDataPlusV2toV3() throws {
        let loaded = try Self.load("alemar11__CoreDataPlus/Tests/Resources/SampleModel/MappingModels/V2toV3.xcmappingmodel")
        #expect(loaded.raw.entityMappings.map(\.name) == ["CarToCar", "LuxuryCarToLuxuryCar", "PersonToPerson", "SportCarToSportCar", "Maker"])
        for name in ["CarToCar", "LuxuryCarToLuxuryCar", "SportCarToSportCar"] {
            #expect(loaded.raw.entityMapping(named: name)?.entityMigrationPolicyClassName == "REPLACE_AT_RUNTIME.V2to3MakerPolicy")
        }
        #expect(loaded.raw.entityMapping(named: "PersonToPerson")?.entityMigrationPolicyClassName == nil)
        let maker = try #require(loaded.resolved.entityMapping(named: "Maker"))
        #expect(maker.mappingType == .add && maker.sourceEntityName == nil)

        let car = try #require(loaded.raw.entityMapping(named: "CarToCar"))
        let previousOwners = try #require(car.relationshipMapping(named: "previousOwners"))
        // A stated expression, although the mapping also says "generate": the stated one counts.
        #expect(previousOwners.generatesValueExpression)
        #expect(previousOwners.valueExpression?.destinationInstances
                == .init(entityMappingName: "PersonToPerson", sourceInstances: .keyPath(.variable("source"), "owner")))
        let person = try #require(loaded.resolved.entityMapping(named: "PersonToPerson"))
        #expect(person.relationshipMapping(named: "previousCars")?.valueExpression
                == .function(receiver: .variable("manager"), selector: "destinationInstancesForSourceRelationshipNamed:sourceInstances:",
                             arguments: [.constant(.string("cars")), .keyPath(.variable("source"), "cars")]))
        #expect(person.relationshipMapping(named: "cars")?.valueExpressionFormat
                == "FUNCTION($manager, \"\(Self.destinationInstances)\", \"CarToCar\", $source.cars)")
    }

    @Test("halloapp Feed6 → Feed7: eight mappings; only FeedPostMedia changed")
    func halloAppFeed6to7() throws {
        let loaded = try Self.load("HalloAppInc__halloapp-ios-pub/Halloapp/Models/Feed/CoreData Stack/Feed6ToFeed7.xcmappingmodel")
        #expect(loaded.resolved.entityMappings.count == 8)
        #expect(loaded.resolved.entityMappings.filter { $0.mappingType == .transform }.map(\.name) == ["FeedPostMediaToFeedPostMedia"])
        #expect(loaded.resolved.entityMappings.filter { $0.mappingType != .copy }.count == 1)
        let media = try #require(loaded.resolved.entityMapping(named: "FeedPostMediaToFeedPostMedia"))
        for added in ["blobSize", "blobVersionValue", "chunkSize"] {
            #expect(media.attributeMapping(named: added)?.valueExpression == nil)
            #expect(loaded.source.entity(named: "FeedPostMedia")?.attributesByName[added] == nil)
        }
    }
}

extension MappingModelFixtureTests {
    @Test("Xcode's copies of the two models inside each mapping model are the versions it connects",
          arguments: try MappingFixtures.mappingModelPaths())
    func embeddedModels(path: String) throws {
        let loaded = try Self.load(path)
        let source = try #require(loaded.raw.sourceModelOutline)
        let destination = try #require(loaded.raw.destinationModelOutline)
        #expect(source == ModelOutline(loaded.source))
        #expect(destination == ModelOutline(loaded.destination))
        #expect(!source.entities.isEmpty && !destination.entities.isEmpty)
    }

    @Test("The outlines tell which versions of a bundle a mapping model connects")
    func versionsByOutline() throws {
        let moody = "objcio__core-data/Migrations/Migrations/"
        let bundle = try ModelBundle(at: MappingFixtures.url(moody + "Moody.xcdatamodeld"))
        for (from, to) in [(2, 3), (3, 4), (4, 5), (5, 6)] {
            let mapping = try MappingModel.load(at: MappingFixtures.url(moody + "Moody \(from)-Moody \(to).xcmappingmodel"))
            let sources = bundle.versions.filter { ModelOutline($0.value) == mapping.sourceModelOutline }.map(\.key)
            let destinations = bundle.versions.filter { ModelOutline($0.value) == mapping.destinationModelOutline }.map(\.key)
            #expect(sources == ["Moody \(from)"])
            #expect(destinations == ["Moody \(to)"])
        }
        let moody2 = try MappingFixtures.model(recordedPath: "Moody.xcdatamodeld/Moody 2.xcdatamodel", besideMappingModel: moody)
        let region = try #require(ModelOutline(moody2).entities["Country"])
        #expect(region.parentName == "GeographicRegion" && ModelOutline(moody2).entities["GeographicRegion"]?.isAbstract == true)
    }
}
