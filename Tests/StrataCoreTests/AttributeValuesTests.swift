import Foundation
@testable @_spi(StoreImplementation) import StrataCore
import Testing
import StrataTestSupport

/// Attribute values kept by position in a layout and read by name: the same answers whatever
/// the layout, whatever string spells the name.
@Suite("AttributeValues")
struct AttributeValuesTests {
    @Test("Values read, compare and hash the same whatever their layout")
    func layoutsDoNotShow() throws {
        let book = try #require(try SampleModels.spelling().entitiesByName["Book"])
        var laidOut = AttributeValues(layout: book.attributeLayout)
        laidOut["year"] = .integer(1999)
        laidOut["title"] = .string("Dune")
        let literal: AttributeValues = ["title": .string("Dune"), "year": .integer(1999)]
        let fromDictionary = AttributeValues(["year": .integer(1999), "title": .string("Dune")])

        #expect(laidOut.layout === book.attributeLayout)
        #expect(literal.layout !== book.attributeLayout)
        #expect(laidOut == literal && literal == fromDictionary)
        #expect(Set([laidOut, literal, fromDictionary]).count == 1)
        #expect(laidOut.count == 2 && !laidOut.isEmpty)
        #expect(laidOut.keys == ["title", "year"])   // the entity's order, not the order set
        #expect(laidOut.dictionary == ["title": .string("Dune"), "year": .integer(1999)])
        #expect(laidOut[SampleModels.longAttributeName] == nil)

        var changed = laidOut
        changed["year"] = nil
        #expect(changed != laidOut && changed.count == 1 && laidOut.count == 2)
        #expect(changed.removeValue(forKey: "title") == .string("Dune"))
        #expect(changed.isEmpty && changed == AttributeValues())
    }

    @Test("No values hold no storage, read as empty ones, and get a storage of their own when set")
    func noValuesHoldNoStorage() throws {
        let book = try #require(try SampleModels.spelling().entitiesByName["Book"])
        let none = AttributeValues()
        #expect(none.storage == nil)
        #expect(none.isEmpty && none.count == 0 && none.keys.isEmpty && Array(none).isEmpty)
        #expect(none.layout === AttributeLayout.empty && none.isLaidOut(as: .empty))
        #expect(!none.isLaidOut(as: book.attributeLayout))
        #expect(none == AttributeValues(layout: .empty) && none == AttributeValues([:]))
        #expect(none.hashValue == AttributeValues(layout: .empty).hashValue)
        #expect(none["title"] == nil)
        #expect(none.value(at: 0, of: book.attributeLayout) == nil)
        #expect(none.laidOut(as: book.attributeLayout).isLaidOut(as: book.attributeLayout))

        // Set by name, a copy of no values gets a storage of its own; the original keeps none.
        var named = none
        named["title"] = .string("Dune")
        #expect(named.storage != nil && none.storage == nil)
        #expect(named["title"] == .string("Dune") && named.count == 1 && none.isEmpty)

        // Set by position of a layout they are not kept in, found by name.
        var positioned = AttributeValues()
        let year = try #require(book.attributeLayout.position(of: "year"))
        #expect(positioned.replaceValue(at: year, of: book.attributeLayout, with: .integer(1965)) == nil)
        #expect(positioned["year"] == .integer(1965) && positioned.value(at: year, of: book.attributeLayout) == .integer(1965))
        #expect(positioned.removeValue(forKey: "year") == .integer(1965) && positioned.isEmpty)
    }

    @Test("A position of the entity's layout finds the same value in any layout")
    func byPositionOfALayout() throws {
        let book = try #require(try SampleModels.spelling().entitiesByName["Book"])
        let layout = book.attributeLayout
        let year = try #require(layout.position(of: "year"))
        var laidOut = AttributeValues(layout: layout)
        var literal: AttributeValues = ["title": .string("Dune")]
        for values in [laidOut, literal] { #expect(values.value(at: year, of: layout) == nil) }
        #expect(laidOut.replaceValue(at: year, of: layout, with: .integer(1965)) == nil)
        #expect(literal.replaceValue(at: year, of: layout, with: .integer(1965)) == nil)
        #expect(laidOut.value(at: year, of: layout) == .integer(1965) && laidOut["year"] == .integer(1965))
        #expect(literal.value(at: year, of: layout) == .integer(1965) && literal["year"] == .integer(1965))
        #expect(literal.replaceValue(at: year, of: layout, with: nil) == .integer(1965))
        #expect(literal == ["title": .string("Dune")])
    }

    @Test("A name the layout lacks extends these values alone")
    func extending() throws {
        let book = try #require(try SampleModels.spelling().entitiesByName["Book"])
        var values = AttributeValues(layout: book.attributeLayout)
        values["title"] = .string("Emma")
        #expect(values.updateValue(.boolean(true), forKey: "extra") == nil)
        #expect(values["extra"] == .boolean(true) && values["title"] == .string("Emma"))
        #expect(values.layout !== book.attributeLayout)
        #expect(book.attributeLayout.names == ["title", "year", SampleModels.longAttributeName])
        #expect(book.attributeLayout.position(of: "extra") == nil)
        // Setting nil for a name that is nowhere changes nothing.
        var untouched = AttributeValues(layout: book.attributeLayout)
        untouched["nowhere"] = nil
        #expect(untouched.layout === book.attributeLayout)
    }

    @Test("Values made by position fill each position in order; a throw midway is the init's")
    func madeByPosition() throws {
        let book = try #require(try SampleModels.spelling().entitiesByName["Book"])
        let layout = book.attributeLayout
        var asked: [Int] = []
        let values = AttributeValues(layout: layout) { position in
            asked.append(position)
            return position == 1 ? .integer(1813) : nil
        }
        #expect(asked == Array(0..<layout.names.count))
        #expect(values.layout === layout && values == ["year": .integer(1813)])
        #expect(values == AttributeValues(layout: layout, slots: [nil, .integer(1813)]))

        struct Unreadable: Error {}
        var made = 0
        #expect(throws: Unreadable.self) {
            _ = try AttributeValues(layout: layout) { position in
                guard position < 1 else { throw Unreadable() }
                made += 1
                return .string("made before the throw")
            }
        }
        #expect(made == 1)
    }

    /// One value of every kind, edge values among them: what each slot must give back exactly.
    static let everyKind: [AttributeValue] = [
        .integer(.min), .integer(.max), .integer(0),
        .decimal(Decimal(string: "-12345678901234567890.0123456789")!),
        .double(-0.0), .double(Double(bitPattern: 0x7FF8_0000_0000_1234)), .double(.infinity),
        .float(Float(bitPattern: 0x7FC0_0042)), .float(-1.5),
        .string(""), .string("short"), .string("a text longer than fifteen bytes, so kept on the heap"),
        .string("ümlaut, 漢字 and 🦕"),
        .boolean(true), .boolean(false),
        .date(Date(timeIntervalSinceReferenceDate: -1e9)), .date(Date(timeIntervalSinceReferenceDate: 0)),
        .binary(Data()), .binary(Data([1, 2, 3])), .binary(Data((0..<200).map { UInt8(truncatingIfNeeded: $0 &* 7) })),
        .uuid(UUID(uuid: (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16))),
        .uri(URL(string: "https://example.com/a%20b?c=d")!),
        .objectID(ManagedObjectID(entityName: "Book", storeIdentifier: "STORE", primaryKey: 42)),
    ]

    /// How the slots of a layout of `count` names `a0`, `a1`, … are sized: all 16 bytes (a layout
    /// made from names alone), every other one 8 bytes, or all 8 bytes.
    enum SlotSizes: CaseIterable, CustomTestStringConvertible {
        case wide, alternating, narrow

        func layout(_ count: Int) -> AttributeLayout {
            let names = (0..<count).map { "a\($0)" }
            let narrowNames: Set<String> = switch self {
            case .wide: []
            case .alternating: Set(names.enumerated().filter { $0.offset % 2 == 1 }.map(\.element))
            case .narrow: Set(names)
            }
            return AttributeLayout(names: names, otherNames: [], narrowNames: narrowNames)
        }

        var testDescription: String { "\(self)" }
    }

    @Test("A layout's numbers, Booleans and dates take 8-byte slots, its other values 16")
    func narrowSlotsOfAnEntity() throws {
        let entity = try #require(try SampleModels.company().entitiesByName["Employee"])
        // name (a text), salary (a double).
        #expect([0, 1].map(entity.attributeLayout.slotWidth(at:)) == [16, 8])
        #expect((0..<40).map(SlotSizes.narrow.layout(40).slotWidth(at:)) == Array(repeating: 8, count: 40))
        #expect((0..<4).map(SlotSizes.alternating.layout(4).slotWidth(at:)) == [16, 8, 16, 8])
        #expect((0..<2).map(AttributeLayout(names: ["a", "b"]).slotWidth(at:)) == [16, 16])
    }

    @Test("Every kind of value comes back exactly from its position, written over by every other kind",
          arguments: SlotSizes.allCases, [23, 40])
    func everyKindRoundTrips(sizes: SlotSizes, width: Int) throws {
        let kinds = (0..<width).map { Self.everyKind[$0 % Self.everyKind.count] }
        let layout = sizes.layout(width)
        var values = AttributeValues(layout: layout) { kinds[$0] }
        for (position, kind) in kinds.enumerated() {
            #expect(values[position: position] == kind)
            #expect(values["a\(position)"] == kind)
        }
        // Made apart from the same values (texts and bytes in storages of their own): equal, and
        // hashed alike.
        let again = AttributeValues(layout: layout) { kinds[$0] }
        #expect(again == values && again.hashValue == values.hashValue)

        // Each position written over by each kind in turn, then emptied; a copy taken before
        // keeps what it had.
        let before = values
        for shift in 1..<kinds.count {
            for position in kinds.indices {
                values[position: position] = kinds[(position + shift) % kinds.count]
            }
            for position in kinds.indices {
                #expect(values[position: position] == kinds[(position + shift) % kinds.count])
            }
            #expect(values != before)
        }
        for position in kinds.indices { values[position: position] = nil }
        #expect(values.isEmpty && values.count == 0)
        #expect(before == again)
        for (position, kind) in kinds.enumerated() { #expect(before[position: position] == kind) }

        // A copy in a longer layout keeps every value and has none at the new name.
        var extended = before
        extended["extra"] = .integer(7)
        for (position, kind) in kinds.enumerated() { #expect(extended["a\(position)"] == kind) }
        #expect(extended.count == kinds.count + 1)
    }

    @Test("A changed value is told from the one it replaced, a value written back from the same one",
          arguments: SlotSizes.allCases)
    func changesAreToldApart(sizes: SlotSizes) throws {
        let kinds = Self.everyKind
        let layout = sizes.layout(kinds.count)
        let saved = AttributeValues(layout: layout) { kinds[$0] }
        for position in kinds.indices {
            var current = saved
            current[position: position] = kinds[(position + 1) % kinds.count]
            #expect(current != saved)
            #expect(current.positionsDiffering(from: saved, in: layout) == [position])
            // The same value made anew (another storage for its text or bytes) is no change.
            current[position: position] = AttributeValues(layout: layout) { kinds[$0] }[position: position]
            #expect(current == saved)
            #expect(current.positionsDiffering(from: saved, in: layout).isEmpty)
        }
        // Bits count: another NaN payload and the other zero are changes.
        var nan = saved
        nan[position: 5] = .double(Double(bitPattern: 0x7FF8_0000_0000_4321))
        #expect(nan != saved)
        var zero = saved
        zero[position: 4] = .double(0.0)
        #expect(zero != saved)
    }

    @Test("A copy is written apart from the values it was copied from, by every writer")
    func copiesWriteApart() async throws {
        let book = try #require(try SampleModels.spelling().entitiesByName["Book"])
        let layout = book.attributeLayout
        let year = try #require(layout.position(of: "year"))
        var original = AttributeValues(layout: layout)
        original["title"] = .string("Persuasion")
        let writes: [(inout AttributeValues) -> Void] = [
            { $0["title"] = .string("Emma") },
            { $0[position: year] = .integer(1815) },
            { _ = $0.replaceValue(at: year, of: layout, with: .integer(1815)) },
            { _ = $0.updateValue(.boolean(true), forKey: "extra") },
            { _ = $0.removeValue(forKey: "title") },
        ]
        for write in writes {
            var copy = original
            write(&copy)
            #expect(copy != original)
            #expect(original == ["title": .string("Persuasion")] && original.layout === layout)
        }
        // Values shared with another thread stay as they were while this one writes its copy.
        let shared = original
        let reader = Task.detached { (0..<1_000).allSatisfy { _ in shared["title"] == .string("Persuasion") } }
        for index in 0..<1_000 { original["title"] = .string("Draft \(index)") }
        #expect(await reader.value)
        #expect(shared["title"] == .string("Persuasion") && original["title"] == .string("Draft 999"))
    }

    @Test("A name spelled at run time finds what the model's own string finds",
          arguments: ["title", "year", SampleModels.longAttributeName, "author", "missing"])
    func respelledNames(name: String) throws {
        let book = try #require(try SampleModels.spelling().entitiesByName["Book"])
        let layout = book.attributeLayout
        let other = SampleModels.respelled(name)
        #expect(layout.position(of: other) == layout.position(of: name))
        #expect(layout.position(of: name) == layout.names.firstIndex(of: name))
    }

    @Test("Values hold their layout alive, and a copy extended by a name leaves the original in its own")
    func valuesHoldTheirLayout() {
        // The layout made here is held by the values alone once the closure returns.
        var values: AttributeValues = {
            var made = AttributeValues(layout: AttributeLayout(names: ["a", "b"]))
            made["a"] = .integer(1)
            return made
        }()
        #expect(values.layout.names == ["a", "b"] && values["a"] == .integer(1))
        let copy = values
        values["c"] = .string("x")
        #expect(copy.layout.names == ["a", "b"] && copy["c"] == nil && copy["a"] == .integer(1))
        #expect(values.layout.names == ["a", "b", "c"] && values["a"] == .integer(1) && values["c"] == .string("x"))
        #expect(copy.isLaidOut(as: copy.layout) && !values.isLaidOut(as: copy.layout))
        #expect(AttributeValues().layout.names.isEmpty && AttributeValues().isEmpty)
    }

    @Test("A layout of many names finds each of them, by any spelling")
    func manyNames() {
        let names = (0..<100).map { "attribute\($0)" }
        let layout = AttributeLayout(names: names + ["attribute7"])   // a repeat keeps its first position
        #expect(layout.names.count == 100)
        for (position, name) in names.enumerated() {
            #expect(layout.position(of: name) == position)
            #expect(layout.position(of: SampleModels.respelled(name)) == position)
        }
        #expect(layout.position(of: "attribute100") == nil)
    }
}
