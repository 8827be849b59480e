import Foundation
import Strata
@_spi(StoreImplementation) import StrataCore
@_spi(StoreImplementation) import StrataTestSupport
import Testing
@testable @_spi(StoreImplementation) import StrataJSON

@Suite("Export and import documents")
struct ExportImportTests {
    /// `image` as import gives it back: versions 1, every to-many present, unordered ones sorted,
    /// and a date of -0.0 seconds as +0.0 (the same instant; JSON seconds since 1970 cannot tell them apart).
    private func normalized(_ image: StoreImage, model: ManagedObjectModel) -> StoreImage {
        var copy = image
        for (id, var snapshot) in copy.objects {
            snapshot.version = 1
            for relationship in model.entity(named: id.entityName)?.relationships ?? [] where relationship.isToMany {
                let destinations = snapshot.toMany[relationship.name] ?? []
                snapshot.toMany[relationship.name] = relationship.isOrdered ? destinations : destinations.sorted(by: ManagedObjectID.storeOrder)
            }
            for (key, value) in snapshot.attributes {
                if case .date(let date) = value, date.timeIntervalSinceReferenceDate == 0 {
                    snapshot.attributes[key] = .date(Date(timeIntervalSinceReferenceDate: 0))
                }
            }
            copy.objects[id] = snapshot
        }
        return copy
    }

    @Test("an image exported and imported comes back identical: every value, key, order and the metadata")
    func roundTrip() throws {
        let model = try StoreImageFixtures.everyTypeModel()
        let image = StoreImageFixtures.everyValueImage(model: model)
        let text = ExportDocument.text(of: image, storeType: .binary, model: model)
        let imported = try ImportDocument.read(Data(text.utf8), model: model)
        #expect(Identical.differences(normalized(image, model: model), imported) == [])
        #expect(StoreImageFixtures.valueMismatches(in: imported) == ["date 3 -0.0: got Optional(StrataCore.AttributeValue.date(2001-01-01 00:00:00 +0000))"],
                "every value but the documented -0.0 date comes back by its bits")
        #expect(ExportDocument.text(of: imported, storeType: .binary, model: model) == text)
    }

    @Test("two exports of equal data are equal byte for byte, whatever order the objects were added in")
    func deterministic() throws {
        let model = try StoreImageFixtures.everyTypeModel()
        let image = StoreImageFixtures.everyValueImage(model: model)
        var shuffled = StoreImage(identifier: image.identifier, metadata: image.metadata, nextPrimaryKeys: image.nextPrimaryKeys)
        for (id, var snapshot) in image.objects.shuffled() {
            for (name, destinations) in snapshot.toMany where !(model.entity(named: id.entityName)?.relationship(named: name)?.isOrdered ?? false) {
                snapshot.toMany[name] = destinations.shuffled()
            }
            shuffled.objects[id] = snapshot
        }
        #expect(ExportDocument.text(of: shuffled, storeType: .xml, model: model) == ExportDocument.text(of: image, storeType: .xml, model: model))
    }

    @Test("the document has the documented shape")
    func shape() throws {
        let model = try SampleModels.company()
        let store = "5B7C2B9E-3F4A-4C1D-9E8F-0A1B2C3D4E5F"
        let employer = ManagedObjectID(entityName: "Employer", storeIdentifier: store, primaryKey: 7)
        let employee = ManagedObjectID(entityName: "Employee", storeIdentifier: store, primaryKey: 1)
        var image = StoreImage(identifier: store, metadata: ["k": .string("v")], nextPrimaryKeys: ["Employer": 8, "Employee": 2])
        image.objects[employer] = ObjectSnapshot(objectID: employer, attributes: ["name": .string("Acme")], toMany: ["employees": [employee]])
        image.objects[employee] = ObjectSnapshot(objectID: employee, attributes: ["salary": .double(0.1)], toOne: ["whereIWork": employer])
        let text = ExportDocument.text(of: image, storeType: .xml, model: model)
        #expect(text == """
        {
          "format": "strata-export",
          "version": 1,
          "store": {"type": "XML", "uuid": "5B7C2B9E-3F4A-4C1D-9E8F-0A1B2C3D4E5F", "metadata": {"k": "v"}, "nextPrimaryKeys": {"Employee": 2, "Employer": 8}},
          "objects": [
            {"entity": "Employee", "ref": "Employee/p1", "attributes": {"name": null, "salary": 0.1}, "relationships": {"whereIWork": "Employer/p7"}},
            {"entity": "Employer", "ref": "Employer/p7", "attributes": {"name": "Acme"}, "relationships": {"employees": ["Employee/p1"]}}
          ]
        }

        """)
    }

    @Test("refs of another form link objects, keys are numbered per inheritance root, inverses are filled in")
    func freeFormRefs() throws {
        let model = try SampleModels.moody()
        let document = """
        {"format": "strata-export", "version": 1, "objects": [
          {"entity": "Continent", "ref": "europe", "attributes": {"name": "Europe"}},
          {"entity": "Country", "ref": "fr", "attributes": {"name": "France"}, "relationships": {"continent": "europe"}},
          {"entity": "Country", "ref": "de", "attributes": {"name": "Germany"}, "relationships": {"continent": "europe"}},
          {"entity": "Mood", "ref": "m1", "attributes": {"date": 0}, "relationships": {"country": "fr"}}
        ]}
        """
        let image = try ImportDocument.read(Data(document.utf8), model: model)
        let ids = Dictionary(uniqueKeysWithValues: image.objects.keys.map { ("\($0.entityName)/p\($0.primaryKey ?? 0)", $0) })
        #expect(Set(ids.keys) == ["Continent/p1", "Country/p2", "Country/p3", "Mood/p1"])
        let europe = try #require(ids["Continent/p1"])
        #expect(image.objects[europe]?.toMany["countries"] == [try #require(ids["Country/p2"]), try #require(ids["Country/p3"])])
        #expect(image.objects[try #require(ids["Country/p2"])]?.toMany["moods"] == [try #require(ids["Mood/p1"])])
        #expect(image.objects[try #require(ids["Mood/p1"])]?.attributes["rating"] == .integer(3), "the model's default value")
        #expect(image.nextPrimaryKeys == ["Region": 4, "Mood": 2])
        #expect(UUID(uuidString: image.identifier) != nil)
    }

    @Test("every problem of a document is reported with its JSON path, and nothing is returned")
    func problems() throws {
        let model = try SampleModels.moody()
        let document = """
        {"format": "strata-export", "version": 2, "extra": 1,
         "store": {"uuid": "not-a-uuid", "metadata": {"bad": null}, "nextPrimaryKeys": {"Country": 3}},
         "objects": [
          {"entity": "Planet", "ref": "p"},
          {"entity": "Region", "ref": "r"},
          {"entity": "Mood", "ref": "m", "attributes": {"rating": "high", "date": 1, "colour": "blue"}, "relationships": {"country": "nowhere", "friends": []}},
          {"entity": "Mood", "ref": "m"},
          {"entity": "Continent", "ref": "c", "relationships": {"countries": ["m", "m"]}},
          {"entity": "Country", "ref": "x", "relationships": {"moods": "m"}},
          {"ref": "y"},
          42
         ]}
        """
        do {
            _ = try ImportDocument.read(Data(document.utf8), model: model)
            Issue.record("imported")
        } catch {
            let paths = error.problems.map(\.path)
            #expect(paths == [
                "$.extra", "$.version", "$.store.nextPrimaryKeys.Country", "$.store.uuid", "$.store.metadata",
                "$.objects[0].entity", "$.objects[1].entity", "$.objects[3].ref", "$.objects[6].entity", "$.objects[7]",
                "$.objects[2].attributes.rating", "$.objects[2].attributes.colour",
                "$.objects[2].relationships.country", "$.objects[2].relationships.friends",
                "$.objects[4].relationships.countries[0]", "$.objects[4].relationships.countries[1]",
                "$.objects[5].relationships.moods",
            ], "\(error)")
            #expect(error.problems.first { $0.path == "$.objects[2].attributes.rating" }?.message.contains("expected an integer") == true)
            #expect(error.problems.first { $0.path == "$.objects[2].relationships.country" }?.message.contains("no object has the ref 'nowhere'") == true)
            #expect(error.problems.first { $0.path == "$.objects[4].relationships.countries[0]" }?.message.contains("is a Mood, not a Country") == true)
        }
    }

    @Test("invalid JSON is one problem at $ with the line and column")
    func invalidJSON() {
        do {
            _ = try ImportDocument.read(Data("{\n  \"format\": }".utf8), model: try SampleModels.company())
            Issue.record("imported")
        } catch let error as ImportError {
            #expect(error.problems.count == 1)
            #expect(error.problems.first?.path == "$")
            #expect(error.problems.first?.message.contains("line 2, column 13") == true, "\(error)")
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test("a link stated on both sides that disagrees is a problem")
    func conflictingInverse() throws {
        let model = try SampleModels.company()
        let document = """
        {"format": "strata-export", "version": 1, "objects": [
          {"entity": "Employer", "ref": "a", "relationships": {"employees": ["e"]}},
          {"entity": "Employer", "ref": "b"},
          {"entity": "Employee", "ref": "e", "relationships": {"whereIWork": "b"}}
        ]}
        """
        #expect(throws: ImportError.self) { try ImportDocument.read(Data(document.utf8), model: model) }
    }

    @Test("metadata of every property-list kind survives, even dictionaries that look like tagged values")
    func metadata() throws {
        let values: [PropertyListValue] = [
            .dictionary(["$data": .string("not data")]),
            .dictionary(["$dictionary": .dictionary(["$date": .integer(1)])]),
            .dictionary(["$x": .array([])]),
            .double(1), .double(-0.0), .double(.infinity), .integer(1), .bool(false),
            .date(Date(timeIntervalSinceReferenceDate: 0.1)), .data(Data([1, 2, 3])),
            .array([.string(""), .dictionary([:])]),
        ]
        for value in values {
            let back = try PropertyListJSON.decode(try JSONParser.parse(JSONWriter.compact(PropertyListJSON.encode(value))))
            #expect(Identical.plist(value, back), "\(value) came back as \(back)")
        }
        for value in StoreImageFixtures.customMetadata.values {
            let back = try PropertyListJSON.decode(try JSONParser.parse(JSONWriter.compact(PropertyListJSON.encode(value))))
            #expect(Identical.plist(value, back), "\(value) came back as \(back)")
        }
    }
}
