@testable @_spi(StoreImplementation) import StrataCore
import StrataTestSupport
import Testing

/// The table that finds a name by its two words: every name put in is found as itself, names
/// without a position as such, and any string whose words were not put in is unknown, so that
/// its text is looked at instead.
@Suite("NameWordTable")
struct NameWordTableTests {
    @Test("Each name put in is found with its position, whatever the table's size", arguments: [0, 1, 2, 5, 8, 9, 100, 1_000])
    func findsEveryName(count: Int) {
        // Short names live in the string's words, long ones in storage the words point at.
        let names = (0..<count).map { $0.isMultiple(of: 2) ? "a\($0)" : "a rather long attribute name number \($0)" }
        let others = (0..<count).map { "relationship\($0)" }
        let table = NameWordTable(names.enumerated().map { ($1, $0) } + others.map { ($0, nil) })
        for (position, name) in names.enumerated() {
            #expect(table.lookUp(NameBits(name)) == .found(position), "\(name)")
        }
        for name in others { #expect(table.lookUp(NameBits(name)) == .notAName, "\(name)") }
        #expect(table.lookUp(NameBits("missing")) == .unknown)
        #expect(table.lookUp(NameBits("")) == .unknown)
        // The same text in another string: a long name's words differ, so its text must be read.
        for name in names where name.utf8.count > 15 {
            #expect(table.lookUp(NameBits(SampleModels.respelled(name))) == .unknown, "\(name)")
        }
    }

    @Test("A name given twice keeps its first entry")
    func repeatedName() {
        let table = NameWordTable([("title", 0), ("year", 1), ("title", 2), ("year", nil)])
        #expect(table.lookUp(NameBits("title")) == .found(0))
        #expect(table.lookUp(NameBits("year")) == .found(1))
    }

    @Test("An attribute layout answers through the table as through its dictionary", arguments: [3, 64, 65, 300])
    func layoutAgreesWithDictionary(count: Int) {
        let names = (0..<count).map { "attribute\($0)" }
        let layout = AttributeLayout(names: names, otherNames: ["owner", "attribute1", "items"])
        for (position, name) in names.enumerated() {
            #expect(layout.position(of: name) == position)
            #expect(layout.position(of: SampleModels.respelled(name)) == position)
        }
        #expect(layout.position(of: "owner") == nil && layout.position(of: "items") == nil)
        #expect(layout.position(of: SampleModels.respelled("owner")) == nil)
        #expect(layout.position(of: "attribute\(count)") == nil)
    }
}
