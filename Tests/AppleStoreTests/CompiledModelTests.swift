import Foundation
import Strata
@_spi(StoreImplementation) import StrataCore
@_spi(StoreImplementation) import StrataJSON
@_spi(StoreImplementation) import StrataTestSupport
import Testing

/// The compiled model an Apple-written SQLite store keeps in `Z_MODELCACHE`: read without the
/// model file, it gives the store's recorded version hashes byte for byte and reads every object
/// as the model file does.
@Suite struct CompiledModelTests {
    static let withModelCache = AppleStoreFixture.all.filter(\.hasModelCache)

    /// The entity version hashes a store recorded in its metadata.
    static func recordedHashes(of file: URL) throws -> [String: Data] {
        let metadata = try SQLiteStore.readMetadata(at: file)
        let hashes = try #require(metadata[StoreMetadataKey.modelVersionHashes]?.dictionaryValue, "no version hashes")
        return hashes.compactMapValues(\.dataValue)
    }

    @Test("The compiled model's version hashes are the store's, byte for byte", arguments: withModelCache)
    func hashesAreTheRecordedOnes(_ fixture: AppleStoreFixture) throws {
        let file = try fixture.workingCopy()
        let recorded = try Self.recordedHashes(of: file)
        let model = try #require(try ManagedObjectModel.compiledModel(inStoreAt: file))
        #expect(model.entitiesDiffering(fromVersionHashes: recorded) == [])
        #expect(model.entityVersionHashesByName == recorded)
        #expect(Set(model.entities.map(\.name)) == Set(recorded.keys))
        try model.checkCompatibility(withStoreMetadata: try SQLiteStore.readMetadata(at: file), file: file.path)
        if fixture.version != nil {
            #expect(model.entityVersionHashesByName == (try fixture.model()).entityVersionHashesByName)
        }
    }

    @Test("A store without a model cache has no compiled model", arguments: AppleStoreFixture.all.filter { !$0.hasModelCache })
    func storesWithoutCache(_ fixture: AppleStoreFixture) throws {
        let file = try fixture.workingCopy()
        #expect(try SQLiteStore.compiledModelData(at: file) == nil)
        #expect(try ManagedObjectModel.compiledModel(inStoreAt: file) == nil)
    }
}

extension CompiledModelTests {
    /// Opens `file` with `model` and reads every object.
    static func image(of file: URL, model: ManagedObjectModel) throws -> StoreImage {
        try StoreType.sqlite.makeStore(StoreDescription(type: .sqlite, url: file, model: model)).contentsImage()
    }

    @Test("Through the compiled model a store reads and exports the same objects as through its model file",
          arguments: withModelCache.filter { $0.version != nil })
    func sameObjectsAsWithTheModelFile(_ fixture: AppleStoreFixture) throws {
        let file = try fixture.workingCopy()
        let compiled = try #require(try ManagedObjectModel.compiledModel(inStoreAt: file))
        let modelFile = try fixture.model()
        let throughCompiled = try Self.image(of: file, model: compiled)
        let throughFile = try Self.image(of: file, model: modelFile)
        #expect(throughCompiled.objects.count == throughFile.objects.count)
        #expect(throughCompiled.objects == throughFile.objects)
        #expect(ExportDocument.text(of: throughCompiled, storeType: .sqlite, model: compiled)
            == ExportDocument.text(of: throughFile, storeType: .sqlite, model: modelFile))
    }

    @Test("Through the compiled model every row of every entity is read", arguments: withModelCache)
    func everyObjectIsRead(_ fixture: AppleStoreFixture) throws {
        let file = try fixture.workingCopy()
        let model = try #require(try ManagedObjectModel.compiledModel(inStoreAt: file))
        let expected = try AppleStoreReadingTests.rowCounts(in: file, model: model)
        var read: [String: Int] = [:]
        for objectID in try Self.image(of: file, model: model).objects.keys { read[objectID.entityName, default: 0] += 1 }
        for entity in model.entities where !entity.isAbstract {
            #expect(read[entity.name, default: 0] == expected[entity.name, default: 0], "\(entity.name)")
        }
    }

    @Test("The compiled model describes the entities as the model file does", arguments: withModelCache.filter { $0.version != nil })
    func sameEntitiesAsTheModelFile(_ fixture: AppleStoreFixture) throws {
        let file = try fixture.workingCopy()
        let compiled = try #require(try ManagedObjectModel.compiledModel(inStoreAt: file))
        let modelFile = try fixture.model()
        #expect(compiled.entities.map(\.name).sorted() == modelFile.entities.map(\.name).sorted())
        for expected in modelFile.entities {
            let entity = try #require(compiled.entity(named: expected.name))
            #expect(entity.superentityName == expected.superentityName, "\(entity.name)")
            #expect(entity.isAbstract == expected.isAbstract, "\(entity.name)")
            #expect(entity.versionHashModifier == expected.versionHashModifier, "\(entity.name)")
            #expect(entity.uniquenessConstraints == expected.uniquenessConstraints, "\(entity.name)")
            #expect(Set(entity.indexes) == Set(expected.indexes), "\(entity.name)")
            #expect(entity.subentityNames.sorted() == expected.subentityNames.sorted(), "\(entity.name)")
            #expect(entity.properties.map(\.name).sorted() == expected.properties.map(\.name).sorted(), "\(entity.name)")
            for attribute in expected.attributes {
                var read = try #require(entity.attribute(named: attribute.name), "\(entity.name).\(attribute.name)")
                // Not in a compiled model: Xcode's validation bounds (compiled into predicates), and
                // some transformable attributes' class names.
                read.minimum = attribute.minimum
                read.maximum = attribute.maximum
                read.regularExpression = attribute.regularExpression
                if read.valueClassName == nil { read.valueClassName = attribute.valueClassName }
                // The model compiler marks an attribute indexed when a fetch index holds it alone.
                let indexedAlone = expected.indexes.contains { $0.elements.map(\.property) == [attribute.name] }
                #expect(read.isIndexed == (attribute.isIndexed || indexedAlone), "\(entity.name).\(attribute.name)")
                read.isIndexed = attribute.isIndexed
                #expect(read == attribute, "\(entity.name).\(attribute.name)")
            }
            for relationship in expected.relationships {
                #expect(entity.relationship(named: relationship.name) == relationship, "\(entity.name).\(relationship.name)")
            }
        }
    }
}

extension CompiledModelTests {
    /// The compiled model of a fixture, by store file name.
    static func compiledModel(_ storeName: String) throws -> ManagedObjectModel {
        let fixture = try #require(AppleStoreFixture.all.first { $0.testDescription == storeName })
        return try #require(try ManagedObjectModel.compiledModel(inStoreAt: fixture.workingCopy()))
    }

    @Test("Abstract parents, derived attributes, fetched properties, configurations and renaming identifiers are read")
    func modelFeatures() throws {
        let model = try Self.compiledModel("SampleModel2_V2.sqlite")
        let writer = try #require(model.entity(named: "Writer"))
        #expect(writer.isAbstract && writer.subentityNames == ["Author"])
        let author = try #require(model.entity(named: "Author"))
        #expect(author.superentityName == "Writer" && author.managedObjectClassName == "AuthorV2")
        #expect(author.uniquenessConstraints == [["alias"]])
        #expect(author.declaredProperties.map(\.name) == ["alias", "books", "favFeedbacks", "feedbacks"])
        let books = try #require(author.relationship(named: "books"))
        #expect(books.destinationEntityName == "Book" && books.inverseName == "author" && books.isToMany && books.deleteRule == .cascade)
        let feedbacks = try #require(author.fetchedPropertiesByName["feedbacks"])
        #expect(feedbacks.destinationEntityName == "Feedback")
        #expect(feedbacks.predicateFormat == "authorAlias == $FETCH_SOURCE.alias")
        let favourites = try #require(author.fetchedPropertiesByName["favFeedbacks"])
        #expect(favourites.predicateFormat == "authorAlias == $FETCH_SOURCE.alias AND comment CONTAINS[c] $FETCHED_PROPERTY.userInfo.search")
        #expect(favourites.userInfo == ["search": "great"])
        let novel = try #require(model.entity(named: "GraphicNovel"))
        #expect(novel.attribute(named: "pagesCount")?.derivationExpression == "pages.@count")
        #expect(novel.attribute(named: "frontCover")?.renamingIdentifier == "cover")
        #expect(novel.attribute(named: "frontCover")?.valueTransformerName == "CoverTransformer")
        #expect(novel.relationship(named: "pages")?.maxCount == 10000 && novel.relationship(named: "pages")?.minCount == 1)
        #expect(model.configurations == ["SampleConfigurationV2Part1": ["Author", "Book", "Feedback", "Page", "Writer"],
                                         "SampleConfigurationV2Part2": ["Feedback"]])
        let cars = try Self.compiledModel("SampleModel_V2.sqlite")
        #expect(cars.entity(named: "LuxuryCar")?.renamingIdentifier == "ExpensiveSportCar")
        let people = try Self.compiledModel("SampleModel_V1.sqlite")
        #expect(people.entity(named: "Person")?.attribute(named: "id")?.preservesValueInHistoryOnDeletion == true)
        #expect(people.entity(named: "Person")?.attribute(named: "isDriving")?.isTransient == true)
        let bookmarks = try Self.compiledModel("Bookmarks_V1.sqlite")
        #expect(bookmarks.entity(named: "BookmarkEntity")?.relationship(named: "children")?.isOrdered == true)
    }
}
