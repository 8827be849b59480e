import Foundation
import StrataCore
import StrataModelFiles
import StrataTestSupport
import Testing

/// Writing a model as a compiled model (Core Data's keyed archive, raw DEFLATE) and reading it
/// back gives an equal model with the same version hashes.
@Suite struct CompiledModelWriterTests {
    /// Writes `model` as a store cache, reads it back and compares.
    static func expectRoundTrip(_ model: ManagedObjectModel, _ comment: Comment? = nil) throws {
        let cache = try CompiledModel.storeCache(of: model)
        let reread = try CompiledModel.model(fromStoreCache: cache)
        #expect(reread == model, comment)
        for entity in model.entities {
            #expect(reread.entity(named: entity.name)?.declaredProperties.map(\.name) == entity.declaredProperties.map(\.name), comment)
        }
        // The same model gives the same bytes.
        #expect(try CompiledModel.storeCache(of: reread) == cache, comment)
    }

    @Test("every fixture model survives compile → read", arguments: Fixtures.contentsPaths)
    func fixtureModels(_ path: String) throws {
        let model = try ModelFile.load(at: Fixtures.url(path))
        try Self.expectRoundTrip(model, "\(path)")
    }

    @Test("a model with every feature survives compile → read: defaults, validation, derivations, fetched properties")
    func everyFeature() throws {
        let model = try EveryFeatureModel.make()
        try Self.expectRoundTrip(model)
        let reread = try CompiledModel.model(fromStoreCache: try CompiledModel.storeCache(of: model))
        let publication = try #require(reread.entity(named: "Publication"))
        #expect(publication.attribute(named: "rating")?.defaultValue == .double(-0.0))
        #expect(publication.attribute(named: "published")?.minimum == -978_307_200)
        let authors = try #require(reread.entity(named: "Book")?.relationship(named: "authors"))
        #expect(authors.minCount == 1 && authors.maxCount == 5 && authors.isOrdered && authors.deleteRule == .deny)
    }

    @Test("the sample models of the tests survive compile → read")
    func sampleModels() throws {
        for model in [try SampleModels.student(), try SampleModels.company(employerHashModifier: "v2"), try SampleModels.moody(),
                      try SampleModels.validation(), try SampleModels.library(), try SampleModels.shelves(),
                      try SampleModels.couples(), try SampleModels.school(), try SampleModels.spelling()] {
            try Self.expectRoundTrip(model, "\(model.entities.map(\.name))")
        }
    }

    @Test("defaults of every type, decimals and bounds of every kind survive compile → read")
    func values() throws {
        let model = try ManagedObjectModel {
            EntityDescription("Thing") {
                Attribute("price", .decimal, defaultValue: .decimal(Decimal(string: "-12345678901234567890.123456789")!))
                Attribute("zero", .decimal, defaultValue: .decimal(0))
                Attribute("tiny", .decimal, defaultValue: .decimal(Decimal(string: "0.000001")!))
                Attribute("id", .uuid, defaultValue: .uuid(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!))
                Attribute("link", .uri, defaultValue: .uri(URL(string: "https://example.com/a?b=c")!))
                Attribute("when", .date, defaultValue: .date(Date(timeIntervalSinceReferenceDate: 12.5)), minimum: -5, maximum: 1e9)
                Attribute("blob", .binaryData, defaultValue: .binary(Data([0, 1, 2])), minimum: 1, maximum: 10)
                Attribute("name", .string, optional: false, defaultValue: .string("é ✓"), minimum: 2, maximum: 40, regularExpression: "[a-z]+")
                Attribute("count", .integer16, defaultValue: .integer(-3), minimum: -10, maximum: 10)
                Attribute("ratio", .float, defaultValue: .float(0.25), minimum: 0.5)
                Attribute("flag", .boolean, defaultValue: .boolean(true))
            }
        }
        try Self.expectRoundTrip(model)
    }

    @Test("the archive is a keyed archive of Core Data's classes")
    func archiveShape() throws {
        let archive = try CompiledModel.archive(of: SampleModels.company())
        let text = String(decoding: archive, as: UTF8.self)
        #expect(archive.starts(with: Array("bplist00".utf8)))
        for name in ["NSKeyedArchiver", "NSManagedObjectModel", "NSKnownKeysDictionary1", "NSEntityDescription",
                     "NSAttributeDescription", "NSRelationshipDescription", "NSInverseRelationship", "_NSDestinationEntityName"] {
            #expect(text.contains(name), "\(name)")
        }
    }
}
