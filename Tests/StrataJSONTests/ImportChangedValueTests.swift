import Foundation
import Strata
@_spi(StoreImplementation) import StrataCore
import StrataTestSupport
import Testing
@testable @_spi(StoreImplementation) import StrataJSON

/// An import never changes a value or a key on its way into a store: numbers beyond their
/// type's range, decimals of more digits than a Decimal keeps and colliding primary keys are
/// refused with their JSON paths (keys are given new numbers only when asked, and reported).
@Suite("Import: values and keys that would change")
struct ImportChangedValueTests {
    private static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel {
            EntityDescription("Item") {
                Attribute("d", .double)
                Attribute("f", .float)
                Attribute("amount", .decimal)
                Attribute("when", .date)
            }
        }
    }

    private func problems(_ document: String, model: ManagedObjectModel) throws -> [ImportProblem] {
        do {
            _ = try ImportDocument.read(Data(document.utf8), model: model)
            Issue.record("imported")
            return []
        } catch {
            return error.problems
        }
    }

    private func item(_ attributes: String) -> String {
        """
        {"format": "strata-export", "version": 1, "objects": [{"entity": "Item", "ref": "Item/p1", "attributes": {\(attributes)}}]}
        """
    }

    @Test("a number beyond Double's or Float's range is refused with its path, not read as an infinity",
          arguments: [("d", "1e400"), ("d", "-1e309"), ("f", "1e39"), ("when", "1e400")])
    func beyondRange(key: String, number: String) throws {
        let found = try problems(item("\"\(key)\": \(number)"), model: Self.model())
        #expect(found.map(\.path) == ["$.objects[0].attributes.\(key)"])
        #expect(found.first?.message.contains("found the number \(number)") == true, "\(found)")
    }

    @Test("the largest finite numbers and the strings Infinity and NaN still read")
    func finiteAndSpelledInfinities() throws {
        let image = try ImportDocument.read(Data(item("\"d\": 1.7976931348623157e308, \"f\": \"Infinity\"").utf8), model: Self.model())
        let snapshot = try #require(image.objects.values.first)
        #expect(snapshot.attributes["d"] == .double(.greatestFiniteMagnitude))
        #expect(snapshot.attributes["f"] == .float(.infinity))
    }

    @Test("a decimal of more than 38 significant digits is refused; 38 digits read exactly")
    func decimalDigits() throws {
        let thirtyEight = "1234567890123456789012345678901234567.8"
        let image = try ImportDocument.read(Data(item("\"amount\": \"\(thirtyEight)\"").utf8), model: Self.model())
        #expect(image.objects.values.first?.attributes["amount"] == .decimal(try #require(Decimal(string: thirtyEight))))
        for text in ["12345678901234567890123456789012345678.9", "0.000123456789012345678901234567890123456789"] {
            let found = try problems(item("\"amount\": \"\(text)\""), model: Self.model())
            #expect(found.map(\.path) == ["$.objects[0].attributes.amount"])
            #expect(found.first?.message.contains("at most 38 significant digits") == true, "\(found)")
        }
        // Trailing and leading zeros are not significant.
        #expect(throws: Never.self) {
            try ImportDocument.read(Data(item("\"amount\": \"000\(String(repeating: "9", count: 38))00000\"").utf8), model: Self.model())
        }
    }

    private static let colliding = """
    {"format": "strata-export", "version": 1, "objects": [
      {"entity": "Book", "ref": "Book/p3", "attributes": {"title": "B"}},
      {"entity": "Magazine", "ref": "Magazine/p3", "attributes": {"title": "M"}, "relationships": {"authors": ["Author/p1"]}},
      {"entity": "Magazine", "ref": "Magazine/p7", "attributes": {"title": "N"}},
      {"entity": "Author", "ref": "Author/p1", "attributes": {"name": "A"}},
      {"entity": "Book", "ref": "loose", "attributes": {"title": "L"}}
    ]}
    """

    @Test("refs whose keys collide under one inheritance root are refused, naming both paths")
    func collisionRefused() throws {
        let found = try problems(Self.colliding, model: SampleModels.library())
        #expect(found.map(\.path) == ["$.objects[1].ref"], "\(found)")
        let message = try #require(found.first?.message)
        #expect(message.contains("'Magazine/p3' has primary key 3 under 'Publication'"), "\(message)")
        #expect(message.contains("'Book/p3' at $.objects[0].ref"), "\(message)")
    }

    @Test("renumbering gives the later object a key past every stated one and reports it; other keys stay")
    func renumbering() throws {
        let (image, renumbered) = try ImportDocument.read(Data(Self.colliding.utf8), model: SampleModels.library(), renumbering: true)
        #expect(renumbered == [ImportRenumbering(path: "$.objects[1].ref", ref: "Magazine/p3", newRef: "Magazine/p8")])
        #expect(renumbered.first?.description == "Magazine/p3 -> Magazine/p8")
        let refs = Set(image.objects.keys.map { "\($0.entityName)/p\($0.primaryKey ?? 0)" })
        // The free-form ref gets the lowest key left free under Publication.
        #expect(refs == ["Book/p3", "Magazine/p8", "Magazine/p7", "Author/p1", "Book/p1"])
        let author = try #require(image.objects.keys.first { $0.entityName == "Author" })
        let magazine = try #require(image.objects.keys.first { $0.entityName == "Magazine" && $0.primaryKey == 8 })
        #expect(image.objects[author]?.toMany["publications"] == [magazine], "links follow the new key")
        #expect(image.nextPrimaryKeys["Publication"] == 9)
    }

    @Test("refs of the form Entity/pN keep their keys beside free-form refs")
    func mixedRefsKeepKeys() throws {
        let document = """
        {"format": "strata-export", "version": 1, "objects": [
          {"entity": "Book", "ref": "first"},
          {"entity": "Book", "ref": "Book/p1"},
          {"entity": "Magazine", "ref": "Magazine/p2"},
          {"entity": "Book", "ref": "second"}
        ]}
        """
        let (image, renumbered) = try ImportDocument.read(Data(document.utf8), model: SampleModels.library(), renumbering: false)
        #expect(renumbered.isEmpty)
        let refs = Set(image.objects.keys.map { "\($0.entityName)/p\($0.primaryKey ?? 0)" })
        #expect(refs == ["Book/p1", "Magazine/p2", "Book/p3", "Book/p4"])
    }
}
