import Foundation
import Testing
import StrataCore
import StrataTestSupport

@Suite("ManagedObjectModel")
struct ManagedObjectModelTests {
    // MARK: Builder DSL

    @Test("The builder DSL records entities, attributes, relationships and fetched properties")
    func builderDSL() throws {
        let model = try ManagedObjectModel {
            EntityDescription("Country") {
                Attribute("name", .string, optional: false, indexed: true)
                Attribute("population", .integer64, defaultValue: .integer(0), minimum: 0)
                Relationship("moods", toMany: "Mood", inverse: "country", deleteRule: .cascade)
                FetchedProperty("goodMoods", of: "Mood", predicate: "country == $FETCH_SOURCE AND rating > 3")
            }
            EntityDescription("Mood") {
                Attribute("rating", .integer16)
                Relationship("country", to: "Country", inverse: "moods")
            }
        }
        #expect(model.entities.map(\.name) == ["Country", "Mood"])
        let country = try #require(model.entity(named: "Country"))
        #expect(country.properties.map(\.name) == ["name", "population", "moods", "goodMoods"])

        let name = try #require(country.attributesByName["name"])
        #expect(name.type == .string)
        #expect(!name.isOptional)
        #expect(name.isIndexed)
        let population = try #require(country.attribute(named: "population"))
        #expect(population.defaultValue == .integer(0))
        #expect(population.minimum == 0)
        #expect(population.isOptional)

        let moods = try #require(country.relationshipsByName["moods"])
        #expect(moods.destinationEntityName == "Mood")
        #expect(moods.inverseName == "country")
        #expect(moods.isToMany)
        #expect(moods.maxCount == 0)
        #expect(moods.deleteRule == .cascade)
        #expect(!moods.isOrdered)

        let fetched = try #require(country.fetchedPropertiesByName["goodMoods"])
        #expect(fetched.destinationEntityName == "Mood")
        #expect(fetched.predicateFormat == "country == $FETCH_SOURCE AND rating > 3")
        #expect(country.attributesByName.keys.sorted() == ["name", "population"])
        #expect(country.relationshipsByName.keys.sorted() == ["moods"])

        let mood = try #require(model.entity(named: "Mood"))
        let toOne = try #require(mood.relationship(named: "country"))
        #expect(!toOne.isToMany)
        #expect(toOne.maxCount == 1)
        #expect(toOne.minCount == 0)
        #expect(toOne.deleteRule == .nullify)
        #expect(mood.relationship(named: "rating") == nil)
        #expect(mood.attribute(named: "country") == nil)
        #expect(model.entity(named: "Nope") == nil)
    }

    @Test("DSL conditionals and loops add properties and entities")
    func builderControlFlow() throws {
        let withExtra = true
        let model = try ManagedObjectModel {
            EntityDescription("Grid") {
                for index in 0..<3 {
                    Attribute("c\(index)", .double)
                }
                if withExtra {
                    Attribute("extra", .boolean)
                } else {
                    Attribute("other", .boolean)
                }
            }
            if withExtra {
                EntityDescription("Extra")
            }
        }
        #expect(model.entity(named: "Grid")?.properties.map(\.name) == ["c0", "c1", "c2", "extra"])
        #expect(model.entity(named: "Extra") != nil)
    }

    @Test("A required to-one and a bounded to-many carry their counts")
    func relationshipCounts() throws {
        let model = try ManagedObjectModel {
            EntityDescription("Team") {
                Relationship("players", toMany: "Player", inverse: "team", ordered: true, minCount: 2, maxCount: 11)
            }
            EntityDescription("Player") {
                Relationship("team", to: "Team", inverse: "players", optional: false)
            }
        }
        let players = try #require(model.entity(named: "Team")?.relationship(named: "players"))
        #expect(players.minCount == 2)
        #expect(players.maxCount == 11)
        #expect(players.isOrdered)
        #expect(!players.isOptional)
        let team = try #require(model.entity(named: "Player")?.relationship(named: "team"))
        #expect(team.minCount == 1)
        #expect(team.maxCount == 1)
        #expect(!team.isOptional)
    }

    // MARK: Inheritance

    @Test("A sub-entity gets its parent's properties first, then its own")
    func inheritedProperties() throws {
        let model = try SampleModels.library()
        let book = try #require(model.entity(named: "Book"))
        #expect(book.properties.map(\.name) == ["title", "year", "authors", "isbn"])
        #expect(book.declaredProperties.map(\.name) == ["isbn"])
        #expect(book.attributesByName.keys.sorted() == ["isbn", "title", "year"])
        #expect(book.relationshipsByName["authors"]?.destinationEntityName == "Author")
        #expect(book.superentityName == "Publication")
        #expect(!book.isAbstract)

        // Three levels deep: the grandparent's properties come first.
        let deep = try ManagedObjectModel {
            EntityDescription("A") {
                Attribute("a", .string)
            }
            EntityDescription("B", parent: "A") {
                Attribute("b", .string)
            }
            EntityDescription("C", parent: "B") {
                Attribute("c", .string)
            }
        }
        #expect(deep.entity(named: "C")?.properties.map(\.name) == ["a", "b", "c"])
        #expect(deep.entity(named: "C")?.rootEntityName == "A")
        #expect(deep.entity(named: "B")?.rootEntityName == "A")
        #expect(deep.entityAndDescendants(of: "A") == ["A", "B", "C"])
        #expect(deep.entityAndDescendants(of: "B") == ["B", "C"])
    }

    @Test("Sub-entity names, root entity names, descendants and kind-of")
    func inheritanceQueries() throws {
        let model = try SampleModels.library()
        let publication = try #require(model.entity(named: "Publication"))
        #expect(publication.isAbstract)
        #expect(Set(publication.subentityNames) == ["Book", "Magazine"])
        #expect(publication.rootEntityName == "Publication")
        #expect(model.entity(named: "Book")?.rootEntityName == "Publication")
        #expect(model.entity(named: "Magazine")?.rootEntityName == "Publication")
        #expect(model.entity(named: "Author")?.rootEntityName == "Author")
        #expect(model.entity(named: "Author")?.subentityNames == [])

        let family = model.entityAndDescendants(of: "Publication")
        #expect(family.first == "Publication")
        #expect(Set(family) == ["Publication", "Book", "Magazine"])
        #expect(family.count == 3)
        #expect(model.entityAndDescendants(of: "Book") == ["Book"])
        #expect(model.entityAndDescendants(of: "Missing") == [])

        #expect(model.entity("Book", isKindOf: "Publication"))
        #expect(model.entity("Book", isKindOf: "Book"))
        #expect(!model.entity("Publication", isKindOf: "Book"))
        #expect(!model.entity("Book", isKindOf: "Magazine"))
        #expect(!model.entity("Author", isKindOf: "Publication"))
        #expect(!model.entity("Missing", isKindOf: "Publication"))
    }

    // MARK: Configurations

    @Test("Configurations name their entities; nil and Default mean every entity")
    func configurations() throws {
        let model = try SampleModels.library()
        #expect(model.entityNames(forConfiguration: "Notes") == ["Note"])
        #expect(model.entityNames(forConfiguration: "Catalog") == ["Publication", "Book", "Magazine", "Author"])
        let all = ["Publication", "Book", "Magazine", "Author", "Note"]
        #expect(model.entityNames(forConfiguration: nil) == all)
        #expect(model.entityNames(forConfiguration: ManagedObjectModel.defaultConfigurationName) == all)
        #expect(model.configurations.keys.sorted() == ["Catalog", "Notes"])
    }

    @Test("A store added with a configuration holds only that configuration's entities")
    func configurationRouting() throws {
        let model = try SampleModels.library()
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        let notes = try coordinator.addPersistentStore(type: .inMemory, configuration: "Notes")
        let catalog = try coordinator.addPersistentStore(type: .inMemory, configuration: "Catalog")
        #expect(try coordinator.assignedStore(forNewObjectOf: "Note") === notes)
        #expect(try coordinator.assignedStore(forNewObjectOf: "Book") === catalog)
        #expect(throws: StoreError.unknownConfiguration("Nope")) {
            try coordinator.addPersistentStore(type: .inMemory, configuration: "Nope")
        }
    }

    // MARK: Attribute types

    /// Core Data's type codes, from Apple's compiled models (see VERSION-HASHES.md).
    static let coreDataTypeCodes: [(AttributeType, String, Int32)] = [
        (.integer16, "Integer 16", 100), (.integer32, "Integer 32", 200), (.integer64, "Integer 64", 300),
        (.decimal, "Decimal", 400), (.double, "Double", 500), (.float, "Float", 600),
        (.string, "String", 700), (.boolean, "Boolean", 800), (.date, "Date", 900),
        (.binaryData, "Binary", 1000), (.uuid, "UUID", 1100), (.uri, "URI", 1200),
        (.transformable, "Transformable", 1800), (.objectID, "ObjectID", 2000),
    ]

    @Test("Every attribute type can be declared and has Core Data's type code and file name")
    func everyAttributeType() throws {
        #expect(AttributeType.allCases.count == Self.coreDataTypeCodes.count)
        let model = try ManagedObjectModel {
            EntityDescription("Everything") {
                for type in AttributeType.allCases {
                    Attribute("a\(type.typeCode)", type)
                }
            }
        }
        let entity = try #require(model.entity(named: "Everything"))
        for (type, fileName, code) in Self.coreDataTypeCodes {
            #expect(type.typeCode == code, "\(type)")
            #expect(type.modelFileName == fileName)
            #expect(AttributeType(rawValue: fileName) == type)
            #expect(entity.attributesByName["a\(code)"]?.type == type)
        }
        #expect(AttributeType.integer16.isNumeric && AttributeType.decimal.isNumeric && AttributeType.float.isNumeric)
        #expect(!AttributeType.string.isNumeric && !AttributeType.boolean.isNumeric && !AttributeType.date.isNumeric)
    }

    @Test("A default value of each type is accepted and given to new objects")
    func defaultValues() throws {
        let date = Date(timeIntervalSinceReferenceDate: 12.5)
        let uuid = UUID()
        let model = try ManagedObjectModel {
            EntityDescription("Defaults") {
                Attribute("i16", .integer16, defaultValue: .integer(-7))
                Attribute("d", .double, defaultValue: .double(2.5))
                Attribute("s", .string, defaultValue: .string("x"))
                Attribute("b", .boolean, defaultValue: .boolean(true))
                Attribute("t", .date, defaultValue: .date(date))
                Attribute("u", .uuid, defaultValue: .uuid(uuid))
                Attribute("dec", .decimal, defaultValue: .decimal(Decimal(string: "1.25")!))
            }
        }
        let context = try makeContext(model)
        let object = try context.insertNewObject(forEntityName: "Defaults")
        #expect(try object.value(forKey: "i16") as? Int16 == -7)
        #expect(try object.value(forKey: "d") as? Double == 2.5)
        #expect(try object.value(forKey: "s") as? String == "x")
        #expect(try object.value(forKey: "b") as? Bool == true)
        #expect(try object.value(forKey: "t") as? Date == date)
        #expect(try object.value(forKey: "u") as? UUID == uuid)
        #expect(try object.value(forKey: "dec") as? Decimal == Decimal(string: "1.25"))
    }

    // MARK: Transformable

    struct Palette: Codable, Sendable, Equatable {
        var name: String
        var colors: [String]
        var weights: [Double]
    }

    @Test("A transformable attribute round-trips a Codable value through a save")
    func transformableRoundTrip() throws {
        let transformerName = "StrataCoreTests.PaletteTransformer"
        ValueTransformerRegistry.register(CodableValueTransformer<Palette>(), forName: transformerName)
        let model = try ManagedObjectModel {
            EntityDescription("Mood") {
                Attribute("palette", .transformable, valueTransformerName: transformerName)
            }
        }
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: .inMemory)
        let palette = Palette(name: "dusk", colors: ["#FF0000", "Ünïcode"], weights: [0.25, -0.0, 1e-300])

        let writer = ManagedObjectContext(coordinator: coordinator)
        let mood = try writer.insertNewObject(forEntityName: "Mood")
        try mood.setValue(palette, forKey: "palette")
        #expect(try mood.value(forKey: "palette") as? Palette == palette)
        guard case .binary(let stored)? = try mood.primitiveValue(forKey: "palette") else {
            Issue.record("a transformable value is stored as bytes")
            return
        }
        #expect(try JSONDecoder().decode(Palette.self, from: stored) == palette)
        try writer.save()

        let reader = ManagedObjectContext(coordinator: coordinator)
        let fetched = try reader.fetch(FetchRequest(entityName: "Mood"))
        #expect(fetched.count == 1)
        let read = try #require(try fetched.first?.value(forKey: "palette") as? Palette)
        #expect(read == palette)
        #expect(read.weights.map(\.bitPattern) == palette.weights.map(\.bitPattern))
    }

    @Test("A transformable value of the wrong type, or with no registered transformer, is refused")
    func transformableErrors() throws {
        let transformerName = "StrataCoreTests.StringsTransformer"
        ValueTransformerRegistry.register(CodableValueTransformer<[String]>(), forName: transformerName)
        let model = try ManagedObjectModel {
            EntityDescription("Mood") {
                Attribute("colors", .transformable, valueTransformerName: transformerName)
                Attribute("ghost", .transformable, valueTransformerName: "StrataCoreTests.NeverRegistered")
                Attribute("raw", .transformable)
            }
        }
        let context = try makeContext(model)
        let mood = try context.insertNewObject(forEntityName: "Mood")
        #expect {
            try mood.setValue(42, forKey: "colors")
        } throws: { error in
            guard case .transformationFailed(let entity, let key, _)? = error as? ObjectError else { return false }
            return entity == "Mood" && key == "colors"
        }
        #expect(throws: ObjectError.unknownValueTransformer(entity: "Mood", key: "ghost", name: "StrataCoreTests.NeverRegistered")) {
            try mood.setValue(["a"], forKey: "ghost")
        }
        // Without a transformer name: Core Data's default, a keyed archive of a Foundation value
        // (StrataModelFiles, linked into the test process, gives the transformer).
        try mood.setValue(Data([1, 2, 3]), forKey: "raw")
        #expect(try mood.value(forKey: "raw") as? Data == Data([1, 2, 3]))
        try mood.setValue("text", forKey: "raw")
        #expect(try mood.value(forKey: "raw") as? String == "text")
        #expect {
            try mood.setValue(NSObject(), forKey: "raw")
        } throws: { error in
            guard case .transformationFailed(let entity, let key, _)? = error as? ObjectError else { return false }
            return entity == "Mood" && key == "raw"
        }
    }

    // MARK: Equality and description

    @Test("Two models built alike are equal; a different one is not")
    func equality() throws {
        #expect(try SampleModels.company() == SampleModels.company())
        #expect(try SampleModels.company() != SampleModels.student())
        let model = try SampleModels.student()
        #expect(model == model)
    }

    @Test("The description names each entity and its attributes")
    func description() throws {
        let text = try SampleModels.student().description
        #expect(text.contains("Student"))
        #expect(text.contains("id") && text.contains("name") && text.contains("age"))
    }

    @Test("Version metadata carries every key Core Data writes")
    func versionMetadata() throws {
        let model = try SampleModels.company()
        let metadata = model.versionMetadata
        #expect(metadata[StoreMetadataKey.modelVersionHashesVersion] == .integer(3))
        let hashes = try #require(metadata[StoreMetadataKey.modelVersionHashes]?.dictionaryValue)
        #expect(hashes.keys.sorted() == ["Employee", "Employer"])
        #expect(hashes["Employee"]?.dataValue == model.entityVersionHashesByName["Employee"])
        #expect(metadata[StoreMetadataKey.modelVersionHashesDigest]?.dataValue?.count == 64)
        #expect(metadata[StoreMetadataKey.modelVersionChecksum]?.dataValue?.count == 32)
        #expect(model.isCompatible(withVersionHashes: model.entityVersionHashesByName))
        var changed = model.entityVersionHashesByName
        changed["Employee"] = Data(repeating: 0, count: 32)
        #expect(!model.isCompatible(withVersionHashes: changed))
    }
}

/// A context on a fresh in-memory store for `model`.
func makeContext(_ model: ManagedObjectModel) throws -> ManagedObjectContext {
    let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
    try coordinator.addPersistentStore(type: .inMemory)
    return ManagedObjectContext(coordinator: coordinator)
}
