import Foundation
import Strata
import StrataTestSupport
import Testing

/// Sort descriptors: direction, nil placement, key paths, case-insensitive and locale-aware
/// comparisons (scenario 8's German, Swedish and Danish orders), sorted by the store and by the
/// context alike.
@Suite("Sorting")
struct SortingTests {
    /// `Country` ⇄ `City`.
    private static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel {
            EntityDescription("Country") {
                Attribute("name", .string)
                Relationship("cities", toMany: "City", inverse: "country", deleteRule: .nullify)
            }
            EntityDescription("City") {
                Attribute("name", .string)
                Attribute("code", .string)
                Attribute("population", .integer32)
                Relationship("country", to: "Country", inverse: "cities", deleteRule: .nullify)
            }
        }
    }

    /// Scenario 8's cities: both spellings of Saint-Étienne (precomposed U+00C9, and `E` + U+0301).
    private static let cities = [
        "Saint-\u{00C9}tienne", "Saint-E\u{0301}tienne", "Aarhus", "\u{00C5}rhus", "K\u{00F6}ln", "Kyllburg",
        "Sundsvall", "S\u{00F6}dert\u{00E4}lje", "\u{041C}\u{043E}\u{0441}\u{043A}\u{0432}\u{0430}", "Madrid",
        "Z\u{00FC}rich", "Zagreb", "Odense", "\u{00C4}ngelholm",
    ]

    /// Names as one spelling (NFC), so that the two equal Saint-Étiennes compare in one list
    /// whichever comes first.
    private func composed(_ names: [String]) -> [String] { names.map(\.precomposedStringWithCanonicalMapping) }

    private func request(_ comparison: ObjectSortDescriptor.Comparison, ascending: Bool = true) -> FetchRequest<ManagedObject> {
        FetchRequest(entityName: "City", sortDescriptors: [ObjectSortDescriptor(key: "name", ascending: ascending, comparison: comparison)])
    }

    /// The names `request` fetches, unsaved (sorted by the context) and saved (sorted by the
    /// store), each in NFC; both must agree.
    private func names(_ store: StoreUnderTest, _ names: [String?], _ request: FetchRequest<ManagedObject>) throws -> [String] {
        let context = try store.makeContext(model: Self.model())
        for (index, name) in names.enumerated() {
            try context.insert("City", ["name": name, "code": "c\(index)"])
        }
        let unsaved = try context.strings(request)
        try context.save()
        let saved = try context.freshContext().strings(request)
        #expect(composed(unsaved) == composed(saved), "context and store orders differ")
        return composed(saved)
    }

    private let german = ["Aarhus", "Ängelholm", "Århus", "Köln", "Kyllburg", "Madrid", "Odense", "Saint-Étienne",
                          "Saint-Étienne", "Södertälje", "Sundsvall", "Zagreb", "Zürich", "Москва"]

    @Test("Scenario 8: German collation sorts umlauts with their base letter: Köln before Kyllburg",
          arguments: StoreUnderTest.all)
    func german(store: StoreUnderTest) throws {
        let sorted = try names(store, Self.cities, request(.localized(Locale(identifier: "de_DE"))))
        #expect(sorted == german)
        #expect(try #require(sorted.firstIndex(of: "Köln")) < #require(sorted.firstIndex(of: "Kyllburg")))
        let descending = try names(store, Self.cities, request(.localized(Locale(identifier: "de")), ascending: false))
        #expect(descending == german.reversed())
    }

    @Test("Scenario 8: Swedish collation puts å, ä, ö after z: Sundsvall before Södertälje",
          arguments: StoreUnderTest.all)
    func swedish(store: StoreUnderTest) throws {
        let sorted = try names(store, Self.cities, request(.localized(Locale(identifier: "sv_SE"))))
        // ü sorts as y; å < ä < ö after z; Cyrillic after Latin.
        #expect(sorted == ["Aarhus", "Kyllburg", "Köln", "Madrid", "Odense", "Saint-Étienne", "Saint-Étienne",
                           "Sundsvall", "Södertälje", "Zagreb", "Zürich", "Århus", "Ängelholm", "Москва"])
        #expect(try #require(sorted.firstIndex(of: "Sundsvall")) < #require(sorted.firstIndex(of: "Södertälje")))
    }

    @Test("Scenario 8: Danish collation: æ (ä), ø (ö), å after z, and aa sorts as å", arguments: StoreUnderTest.all)
    func danish(store: StoreUnderTest) throws {
        let sorted = try names(store, Self.cities, request(.localized(Locale(identifier: "da_DK"))))
        // "Aarhus" is spelt with aa, which Danish sorts as å (just after "Århus").
        #expect(sorted == ["Kyllburg", "Köln", "Madrid", "Odense", "Saint-Étienne", "Saint-Étienne", "Sundsvall",
                           "Södertälje", "Zagreb", "Zürich", "Ängelholm", "Århus", "Aarhus", "Москва"])
    }

    @Test("compare: ASCII strings order by their bytes, shorter first, next to non-ASCII ones", arguments: StoreUnderTest.all)
    func asciiOrder(store: StoreUnderTest) throws {
        let values = ["ab", "a", "", "B", "b", "a b", "a~", "ab\u{0301}", "abc", "Z", "0", "a\u{00E9}", "ae", "~"]
        let sorted = try names(store, values, request(.standard))
        #expect(sorted == ["", "0", "B", "Z", "a", "a b", "ab", "abc", "ab\u{0301}", "ae", "a~", "a\u{00E9}", "b", "~"]
            .map(\.precomposedStringWithCanonicalMapping))
    }

    @Test("Scenario 8: compare: orders by Unicode; both spellings of Saint-Étienne are equal and both match [cd]",
          arguments: StoreUnderTest.all)
    func unicodeOrderAndBothSpellings(store: StoreUnderTest) throws {
        let sorted = try names(store, Self.cities, request(.standard))
        // Ä (U+00C4) < Å (U+00C5) < Cyrillic; ö (U+00F6) and ü (U+00FC) after every ASCII letter.
        #expect(sorted == ["Aarhus", "Kyllburg", "Köln", "Madrid", "Odense", "Saint-Étienne", "Saint-Étienne",
                           "Sundsvall", "Södertälje", "Zagreb", "Zürich", "Ängelholm", "Århus", "Москва"])

        let context = try store.makeContext(model: Self.model())
        for (index, name) in Self.cities.enumerated() { try context.insert("City", ["name": name, "code": "c\(index)"]) }
        try context.save()
        var saint = FetchRequest(entityName: "City", predicate: try ObjectPredicate(format: "name ==[cd] %@", "saint-etienne"))
        saint.sortDescriptors = [ObjectSortDescriptor(key: "code")]
        // The codes keep the two spellings apart: c0 precomposed, c1 decomposed.
        let fresh = context.freshContext()
        let fetched = try fresh.fetch(saint)
        #expect(try fetched.map { try $0.string("code") } == ["c0", "c1"])
        #expect(try fetched.map { try $0.string("name").unicodeScalars.count } == [13, 14])
    }

    @Test("compare: orders ASCII names by their bytes and mixed names as Swift strings, in both directions",
          arguments: StoreUnderTest.all)
    func asciiAndMixedStandardOrder(store: StoreUnderTest) throws {
        // Prefixes, lengths, case, spaces, control and punctuation bytes, the empty string, and
        // names whose order needs normal form C (e + U+0301 is é, after every ASCII letter).
        var words: [String] = ["", "a", "ab", "abc", "abd", "Ab", "AB", "a b", "a\u{7F}", "~", " ", "\t", "z",
                               "ez", "f", "\u{00E9}", "e\u{0301}b", "ea", "\u{00E9}z", "Zz", "zz\u{0300}"]
        // Enough pseudo-random ASCII names that SQLite's sorter compares many pairs.
        var seed: UInt64 = 0x5EED
        for _ in 0..<300 {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let length = Int(seed >> 60)
            words.append(String((0..<length).map { index in
                Character(Unicode.Scalar(UInt8(32 + (seed >> (UInt64(index) * 4 % 56)) % 95)))
            }))
        }
        let expected = composed(words.sorted { ValueComparisonProbe.ascending($0, $1) })
        #expect(try names(store, words, request(.standard)) == expected)
        #expect(try names(store, words, request(.standard, ascending: false)) == expected.reversed())
    }

    @Test("compare: canonically equivalent spellings tie and keep the store's order, beside longer strings, both directions",
          arguments: StoreUnderTest.all)
    func equivalentSpellingsTie(store: StoreUnderTest) throws {
        // Each spelling of é (precomposed U+00E9, e + U+0301) alone and before longer tails,
        // in an order that is neither sorted nor grouped by spelling.
        let names = ["e\u{0301}x", "\u{00E9}", "e", "\u{00E9}x", "e\u{0301}", "\u{00E9}\u{00E9}", "f", "e\u{0301}",
                     "ez", "\u{00E9}", "e\u{0301}e\u{0301}", "\u{00E9}x", "e\u{0301}x", "\u{00E9}a", "e\u{0301}a"]
        let context = try store.makeContext(model: Self.model())
        var codes: [String: String] = [:]
        for (index, name) in names.enumerated() {
            let code = String(format: "c%02d", index)
            try context.insert("City", ["name": name, "code": code])
            codes[code] = name
        }
        try context.save()
        // The in-memory evaluator's order: stable over the store's order (primary keys), so
        // equal spellings keep it in both directions.
        let reader = context.freshContext()
        let all = try reader.fetch(FetchRequest(entityName: "City"))
        let stored = try all.sorted { ManagedObjectID.storeOrder($0.objectID, $1.objectID) }.map { try $0.string("code") }
        #expect(Set(stored) == Set(codes.keys))
        func expected(ascending: Bool) -> [String] {
            let descriptor = ObjectSortDescriptor(key: "name", ascending: ascending)
            return stored.enumerated().sorted { lhs, rhs in
                switch descriptor.compare(codes[lhs.element], codes[rhs.element]) {
                case .orderedAscending: true
                case .orderedDescending: false
                case .orderedSame: lhs.offset < rhs.offset
                }
            }.map(\.element)
        }
        // e, ez, f, then each text in its spellings, by normal form C's bytes: é, éa, éx, éé.
        let texts = ["e", "ez", "f", "\u{00E9}", "\u{00E9}a", "\u{00E9}x", "\u{00E9}\u{00E9}"]
        let byText = texts.flatMap { text in stored.filter { codes[$0]?.precomposedStringWithCanonicalMapping == text } }
        #expect(byText.count == names.count)
        #expect(expected(ascending: true) == byText, "the evaluator orders every pair")
        #expect(expected(ascending: false) == texts.reversed().flatMap { text in
            stored.filter { codes[$0]?.precomposedStringWithCanonicalMapping == text }
        })
        for ascending in [true, false] {
            let fresh = context.freshContext()
            let fetched = try fresh.strings(request(.standard, ascending: ascending), key: "code")
            #expect(fetched == expected(ascending: ascending), "ascending: \(ascending)")
            var page = request(.standard, ascending: ascending)
            page.fetchOffset = 2
            page.fetchLimit = 6
            #expect(try fresh.strings(page, key: "code") == Array(expected(ascending: ascending)[2..<8]))
        }
    }

    @Test("nil sorts first ascending and last descending; case-insensitive and Finder-like comparisons",
          arguments: StoreUnderTest.all)
    func caseAndNil(store: StoreUnderTest) throws {
        let words: [String?] = ["cherry", nil, "Banana", "apple"]
        #expect(try names(store, words, request(.standard)) == ["<nil>", "Banana", "apple", "cherry"])
        #expect(try names(store, words, request(.standard, ascending: false)) == ["cherry", "apple", "Banana", "<nil>"])
        #expect(try names(store, words, request(.caseInsensitive)) == ["<nil>", "apple", "Banana", "cherry"])
        #expect(try names(store, words, request(.caseInsensitive, ascending: false)) == ["cherry", "Banana", "apple", "<nil>"])
        let english = Locale(identifier: "en_US")
        #expect(try names(store, words, request(.localizedCaseInsensitive(english))) == ["<nil>", "apple", "Banana", "cherry"])

        let files: [String?] = ["file10", "File1", "file2"]
        // Unicode order compares digit by digit and puts "F" before "f"; the Finder compares numbers.
        #expect(try names(store, files, request(.standard)) == ["File1", "file10", "file2"])
        #expect(try names(store, files, request(.localizedStandard(english))) == ["File1", "file2", "file10"])
        #expect(try names(store, files, request(.localizedStandard(english), ascending: false)) == ["file10", "file2", "File1"])
    }

    @Test("Several descriptors, numbers with nil, and key paths through a to-one", arguments: StoreUnderTest.all)
    func severalKeysAndKeyPaths(store: StoreUnderTest) throws {
        let context = try store.makeContext(model: Self.model())
        let sweden = try context.insert("Country", ["name": "Sweden"])
        let germany = try context.insert("Country", ["name": "Germany"])
        let rows: [(String, Int?, ManagedObject?)] = [
            ("Sundsvall", 58_000, sweden), ("Köln", 1_080_000, germany), ("Kyllburg", 900, germany),
            ("Atlantis", nil, nil), ("Södertälje", 72_000, sweden), ("Bonn", 330_000, germany),
        ]
        for (name, population, country) in rows {
            let city = try context.insert("City", ["name": name, "population": population])
            try city.setValue(country, forKey: "country")
        }
        let byPopulation = FetchRequest(entityName: "City", sortDescriptors: [ObjectSortDescriptor(key: "population", ascending: false)])
        let byCountry = FetchRequest(entityName: "City", sortDescriptors: [
            ObjectSortDescriptor(key: "country.name"),
            ObjectSortDescriptor(key: "name", comparison: .localized(Locale(identifier: "sv"))),
        ])
        var page = byCountry
        page.fetchOffset = 1
        page.fetchLimit = 3
        for checked in [context, context.freshContext()] {
            if checked !== context { try context.save() }
            #expect(try checked.strings(byPopulation) == ["Köln", "Bonn", "Södertälje", "Sundsvall", "Kyllburg", "Atlantis"])
            // No country first; then Germany's and Sweden's cities in Swedish order (Kyllburg before Köln).
            #expect(try checked.strings(byCountry) == ["Atlantis", "Bonn", "Kyllburg", "Köln", "Sundsvall", "Södertälje"])
            #expect(try checked.strings(page) == ["Bonn", "Kyllburg", "Köln"])
        }
    }

    @Test("Core Data's selector names map to comparisons; others are refused")
    func selectors() throws {
        let german = Locale(identifier: "de")
        #expect(try ObjectSortDescriptor(key: "name", selector: "compare:").comparison == .standard)
        #expect(try ObjectSortDescriptor(key: "name", selector: "caseInsensitiveCompare:").comparison == .caseInsensitive)
        #expect(try ObjectSortDescriptor(key: "name", selector: "localizedCompare:", locale: german).comparison == .localized(german))
        #expect(try ObjectSortDescriptor(key: "name", ascending: false, selector: "localizedCaseInsensitiveCompare:", locale: german)
            == ObjectSortDescriptor(key: "name", ascending: false, comparison: .localizedCaseInsensitive(german)))
        #expect(try ObjectSortDescriptor(key: "name", selector: "localizedStandardCompare:", locale: german).comparison
            == .localizedStandard(german))
        #expect(throws: FetchRequestError.unsupportedSortSelector("compareLength:")) {
            try ObjectSortDescriptor(key: "name", selector: "compareLength:")
        }
        let descriptor = ObjectSortDescriptor(key: "name", comparison: .localizedStandard(german))
        #expect(descriptor.description == "name ASC localizedStandardCompare:")
        #expect(descriptor.reversed.description == "name DESC localizedStandardCompare:")
        #expect(ObjectSortDescriptor(key: "age", ascending: false).description == "age DESC")
    }

    @Test("Values of any type: numbers across widths, dates, nil; strings compare under each comparison")
    func plainValues() {
        let ascending = ObjectSortDescriptor(key: "x")
        #expect(ascending.compare(nil, 1) == .orderedAscending)
        #expect(ascending.compare(Int16(2), Int64(10)) == .orderedAscending)
        #expect(ascending.compare(2.5, 2) == .orderedDescending)
        #expect(ascending.compare(Date(timeIntervalSinceReferenceDate: 1), Date(timeIntervalSinceReferenceDate: 0)) == .orderedDescending)
        #expect(ascending.reversed.compare(nil, 1) == .orderedDescending)
        #expect(ascending.compare("Saint-\u{00C9}tienne", "Saint-E\u{0301}tienne") == .orderedSame)
        let swedish = ObjectSortDescriptor(key: "x", comparison: .localized(Locale(identifier: "sv")))
        #expect(swedish.compare("Öl", "Zebra") == .orderedDescending)
        let german = ObjectSortDescriptor(key: "x", comparison: .localized(Locale(identifier: "de")))
        #expect(german.compare("Öl", "Zebra") == .orderedAscending)
    }
}

/// The in-memory evaluator's `compare:` order of two strings, through a sort descriptor.
private enum ValueComparisonProbe {
    static func ascending(_ a: String, _ b: String) -> Bool {
        ObjectSortDescriptor(key: "name").compare(a, b) == .orderedAscending
    }
}
