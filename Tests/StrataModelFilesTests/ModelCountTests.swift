import Foundation
import StrataCore
import StrataModelFiles
import Testing

/// Exact sizes of named fixture models. The numbers were counted straight from the XML with
/// Python's ElementTree (`<entity>` elements, and the `<attribute>`, `<relationship>` and
/// `<fetchedProperty>` elements directly inside them), not with the reader under test.
@Suite struct ModelCountTests {
    struct Counts: Sendable, CustomTestStringConvertible {
        /// The `contents` file (or a file in that format), under `Fixtures/`.
        let path: String
        let entities: Int
        let attributes: Int
        let relationships: Int
        var fetchedProperties = 0

        var testDescription: String { path }
    }

    static let table: [Counts] = [
        Counts(path: "3lvis__Sync/Tests/PropertyMapper/Models/Model.xcdatamodeld/Model.xcdatamodel/contents",
               entities: 12, attributes: 54, relationships: 12),
        Counts(path: "HalloAppInc__halloapp-ios-pub/Core/Core/Source/MainDataStore/MainDataStore.xcdatamodeld/MainDataStore.xcdatamodel/contents",
               entities: 22, attributes: 178, relationships: 47),
        Counts(path: "HalloAppInc__halloapp-ios-pub/Halloapp/Models/Feed/CoreData Stack/Feed.xcdatamodeld/Feed7.xcdatamodel/contents",
               entities: 8, attributes: 48, relationships: 23),
        Counts(path: "JohnEstropia__CoreStore/CoreStoreTests/Model.xcdatamodeld/Model.xcdatamodel/contents",
               entities: 2, attributes: 16, relationships: 4),
        Counts(path: "JohnEstropia__CoreStore/Demo/Sources/Demos/Classic/ColorsDemo/Classic.ColorsDemo.xcdatamodeld/ColorsDemo.xcdatamodel/contents",
               entities: 1, attributes: 4, relationships: 0, fetchedProperties: 1),
        Counts(path: "RestKit__RestKit/Tests/Models/VersionedModel.xcdatamodeld/VersionedModel 3.xcdatamodel/contents",
               entities: 2, attributes: 5, relationships: 0),
        Counts(path: "alemar11__CoreDataPlus/Tests/Resources/SampleModel/SampleModel.xcdatamodeld/SampleModel3.xcdatamodel/contents",
               entities: 5, attributes: 8, relationships: 6),
        Counts(path: "bignerdranch__CoreDataStack/Sample Model/Deprecated/Sample.xcdatamodeld/TestModel 2.xcdatamodel/contents",
               entities: 3, attributes: 4, relationships: 4),
        Counts(path: "drewmccormack__ensembles/Framework/Resources/CDEEventStoreModel.xcdatamodeld/CDEEventStoreModel_2.xcdatamodel/contents",
               entities: 5, attributes: 14, relationships: 10),
        Counts(path: "duckduckgo__BrowserServicesKit/Sources/Bookmarks/BookmarksModel.xcdatamodeld/BookmarksModel 6.xcdatamodel/contents",
               entities: 1, attributes: 8, relationships: 4),
        Counts(path: "gonzalezreal__Groot/GrootTests/Model.xcdatamodeld/Model.xcdatamodel/contents",
               entities: 8, attributes: 13, relationships: 6),
        Counts(path: "magicalpanda__MagicalRecord/Tests/Fixtures/TestModel.xcdatamodeld/TestModel.xcdatamodel/contents",
               entities: 12, attributes: 29, relationships: 9),
        Counts(path: "objcio__core-data/Migrations/Migrations/Moody.xcdatamodeld/Moody 4.xcdatamodel/contents",
               entities: 3, attributes: 20, relationships: 6),
        Counts(path: "rentzsch__mogenerator/test/test.xcdatamodel/contents",
               entities: 9, attributes: 24, relationships: 4),
        Counts(path: "jessesquires__JSQCoreDataKit/Example/ExampleModel/ExampleModel/ExampleModel.xcdatamodeld/Version 3.xcdatamodel/contents",
               entities: 2, attributes: 6, relationships: 2),
        Counts(path: "phimage__MomXML/Tests/model.xml",
               entities: 3, attributes: 10, relationships: 4, fetchedProperties: 2),
        Counts(path: "phimage__MomXML/Tests/model2.xml",
               entities: 19, attributes: 34, relationships: 6),
        // 11 <attribute> elements, one of them Composite, stored as its two attribute elements
        // (its nested composite has none).
        Counts(path: "phimage__MomXML/Tests/Model.xcdatamodeld/Model.xcdatamodel/contents",
               entities: 3, attributes: 12, relationships: 4),
    ]

    @Test("entity, attribute, relationship and fetched property counts", arguments: table)
    func counts(_ expected: Counts) throws {
        let model = try ModelFile.load(at: Fixtures.url(expected.path))
        let declared = model.entities.flatMap(\.declaredProperties)
        #expect(model.entities.count == expected.entities)
        #expect(declared.compactMap(\.attribute).count == expected.attributes)
        #expect(declared.compactMap(\.relationship).count == expected.relationships)
        #expect(declared.compactMap(\.fetchedProperty).count == expected.fetchedProperties)
    }

    @Test("at least twelve models are counted")
    func tableSize() {
        #expect(Self.table.count >= 12)
    }

    @Test("what the Moody model says, read in detail")
    func moodyInDetail() throws {
        let model = try ModelFile.load(at: Fixtures.url("objcio__core-data/Moody/MoodyModel/Moody.xcdatamodeld"))
        let region = try #require(model.entity(named: "Region"))
        #expect(region.isAbstract)
        #expect(region.managedObjectClassName == "MoodyModel.Region")
        #expect(model.entityAndDescendants(of: "Region").sorted() == ["Continent", "Country", "Region"])
        let mood = try #require(model.entity(named: "Mood"))
        let colors = try #require(mood.attribute(named: "colors"))
        #expect(colors.type == .transformable)
        let remoteIdentifier = try #require(mood.attribute(named: "remoteIdentifier"))
        #expect(remoteIdentifier.isIndexed)
        #expect(mood.indexes.map(\.name) == ["compoundIndex"])
        #expect(mood.indexes.first?.elements.map(\.property) == ["markedForRemoteDeletion", "markedForDeletionDate", "date"])
        let country = try #require(mood.relationship(named: "country"))
        #expect(!country.isToMany && country.isOptional && country.inverseName == "moods")
        #expect(region.uniquenessConstraints == [["numericISO3166Code", "uniquenessDummy"]])
        let countryEntity = try #require(model.entity(named: "Country"))
        // Inherited from Region.
        let numberOfMoods = try #require(countryEntity.attribute(named: "numberOfMoods"))
        #expect(numberOfMoods.defaultValue == .integer(0))
        #expect(!numberOfMoods.isOptional)
    }

    @Test("configurations, fetched properties and stored fetch requests")
    func modelLevelElements() throws {
        let coreStore = try ModelFile.load(at: Fixtures.url("JohnEstropia__CoreStore/CoreStoreTests/Model.xcdatamodeld"))
        #expect(coreStore.configurations == ["Config1": ["TestEntity1AAA"], "Config2": ["TestEntity2"]])
        let ordered = try #require(coreStore.entity(named: "TestEntity2")?.relationship(named: "testToManyOrdered"))
        #expect(ordered.isOrdered && ordered.isToMany && ordered.maxCount == 0)

        let colors = try ModelFile.load(at: Fixtures.url("JohnEstropia__CoreStore/Demo/Sources/Demos/Classic/ColorsDemo/Classic.ColorsDemo.xcdatamodeld"))
        let fetched = try #require(colors.entity(named: "Palette")?.fetchedPropertiesByName["testFetchProperty"])
        #expect(fetched.destinationEntityName == "Palette")
        #expect(fetched.predicateFormat == nil)

        let mogenerator = try ModelFile.load(at: Fixtures.url("rentzsch__mogenerator/test/test.xcdatamodel"))
        #expect(mogenerator.fetchRequestTemplates.keys.sorted() == [
            "allHumans", "byHumanName", "byParent", "byParentName", "oneByHumanName",
        ])
        #expect(mogenerator.fetchRequestTemplates["byParentName"]
            == FetchRequestTemplate(name: "byParentName", entityName: "Child", predicateFormat: "parent.parentName == $parentName"))
        #expect(mogenerator.fetchRequestTemplates["allHumans"]?.predicateFormat == nil)

        let momXML = try ModelFile.load(at: Fixtures.url("phimage__MomXML/Tests/model.xml"))
        let produitFetch = try #require(momXML.entity(named: "Produit")?.fetchedPropertiesByName["fetchedProperty1"])
        #expect(produitFetch.destinationEntityName == "Produit" && produitFetch.predicateFormat == "predicate1")
        let derived = try #require(momXML.entity(named: "Client")?.attribute(named: "commandeCount"))
        #expect(derived.derivationExpression == "client_commande.@count")
        #expect(derived.isDerived)
    }

    @Test("renaming identifiers, version hash modifiers and delete rules")
    func renamingAndModifiers() throws {
        let bookmarks = try ModelBundle(at: Fixtures.url("duckduckgo__BrowserServicesKit/Sources/Bookmarks/BookmarksModel.xcdatamodeld"))
        let entity = try #require(bookmarks.currentModel.entity(named: "BookmarkEntity"))
        #expect(entity.relationship(named: "favoriteFolders")?.renamingIdentifier == "favoriteFolder")
        #expect(entity.attribute(named: "uuid")?.versionHashModifier == "3")
        #expect(entity.relationship(named: "children")?.deleteRule == .cascade)
        #expect(entity.attribute(named: "isPendingDeletion")?.defaultValue == .boolean(false))
        #expect(entity.indexes.map(\.name) == ["byUUID", "byURL", "byIsPendingDeletion"])

        let sample = try ModelBundle(at: Fixtures.url("alemar11__CoreDataPlus/Tests/Resources/SampleModel/SampleModel.xcdatamodeld"))
        let person = try #require(sample.versions["SampleModel"]?.entity(named: "Person"))
        #expect(person.attribute(named: "id")?.preservesValueInHistoryOnDeletion == true)
        let car = try #require(sample.versions["SampleModel"]?.entity(named: "Car"))
        #expect(car.attribute(named: "color")?.valueTransformerName == "ColorTransformer")
        #expect(car.attribute(named: "color")?.valueClassName == "Color")
    }
}
