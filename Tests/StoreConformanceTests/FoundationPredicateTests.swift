import Foundation
import Strata
import StrataTestSupport
import Testing

/// A Foundation `#Predicate` and the format string that says the same.
struct PredicateTwin: Sendable, CustomStringConvertible {
    /// The entity both run on.
    let entity: String
    /// The `#Predicate`, translated.
    let translate: @Sendable () throws -> ObjectPredicate
    /// The format string and its arguments.
    let format: String
    let arguments: [Date]

    var description: String { format }

    static func mood(_ format: String, _ arguments: Date..., predicate: @escaping @Sendable () -> Predicate<TypedMood>) -> PredicateTwin {
        PredicateTwin(entity: "Mood", translate: { try ObjectPredicate(predicate()) }, format: format, arguments: arguments)
    }

    static func country(_ format: String, predicate: @escaping @Sendable () -> Predicate<TypedCountry>) -> PredicateTwin {
        PredicateTwin(entity: "Country", translate: { try ObjectPredicate(predicate()) }, format: format, arguments: [])
    }

    static let cutoff = Date(timeIntervalSince1970: 250)

    static let all: [PredicateTwin] = [
        .mood("score > 3") { #Predicate { $0.score > 3 } },
        .mood("score <= 3 OR score == 9") { #Predicate { $0.score <= 3 || $0.score == 9 } },
        .mood("name == \"calm\"") { #Predicate { $0.name == "calm" } },
        .mood("note == nil") { #Predicate { $0.note == nil } },
        .mood("note != nil AND score >= 4") { #Predicate { $0.note != nil && $0.score >= 4 } },
        .mood("favorite == YES") { #Predicate { $0.isFavorite } },
        .mood("NOT favorite == YES OR score < 2") { #Predicate { !$0.isFavorite || $0.score < 2 } },
        .mood("note CONTAINS \"sea\"") { #Predicate { $0.note?.contains("sea") == true } },
        .mood("name BEGINSWITH \"Ca\"") { #Predicate { $0.name?.starts(with: "Ca") == true } },
        .mood("country.name == \"France\"") { #Predicate { $0.country?.name == "France" } },
        .mood("country.name != \"France\"") { #Predicate { $0.country?.name != "France" } },
        .mood("country.name == \"Peru\"") { #Predicate { $0.country!.name == "Peru" } },
        .mood("score IN {1, 7, 9}") { #Predicate { [1, 7, 9].contains($0.score) } },
        .mood("score BETWEEN {3, 5}") { #Predicate { (3...5).contains($0.score) } },
        .mood("date > %@", cutoff) { let cutoff = PredicateTwin.cutoff; return #Predicate { $0.date! > cutoff } },
        .country("SUBQUERY(moods, $v1, $v1.score > 6).@count > 0") { #Predicate { $0.moods.contains { $0.score > 6 } } },
        .country("SUBQUERY(moods, $v1, NOT $v1.favorite == YES).@count == 0") {
            #Predicate { $0.moods.allSatisfy { $0.isFavorite } }
        },
        .country("moods.@count >= 3") { #Predicate { $0.moods.count >= 3 } },
    ]
}

@Suite("Foundation #Predicate")
struct FoundationPredicateTests {
    @Test("each #Predicate is its format string's predicate")
    func sameAsFormat() throws {
        for twin in PredicateTwin.all {
            let parsed = try ObjectPredicate(format: twin.format, argumentArray: twin.arguments)
            #expect(try twin.translate() == parsed, "\(twin)")
        }
    }

    @Test("each #Predicate fetches what its format-string twin fetches", arguments: StoreUnderTest.all)
    func sameObjects(_ store: StoreUnderTest) throws {
        let context = try TypedMoodModel.context(store)
        for twin in PredicateTwin.all {
            let byFormat = FetchRequest(entityName: twin.entity,
                                        predicate: try ObjectPredicate(format: twin.format, argumentArray: twin.arguments),
                                        sortDescriptors: [ObjectSortDescriptor(key: "name")])
            var typed = byFormat
            typed.predicate = try twin.translate()
            let expected = try context.strings(byFormat)
            #expect(!expected.isEmpty, "\(twin) matches something")
            #expect(try context.strings(typed) == expected, "\(twin)")
        }
    }

    @Test("a typed request takes a #Predicate", arguments: StoreUnderTest.all)
    func typedRequest(_ store: StoreUnderTest) throws {
        let context = try TypedMoodModel.context(store)
        let request = try FetchRequest<TypedMood>(
            predicate: #Predicate { $0.country?.name == "France" && $0.score < 5 },
            sortDescriptors: [ObjectSortDescriptor(\TypedMood.name)])
        #expect(try context.fetch(request).map(\.name) == ["Calmer", "calm"])
    }

    @Test("what has no equivalent is refused, named")
    func untranslatable() throws {
        #expect(throws: ObjectPredicateError.untranslatable(expression: "Arithmetic", reason: "it has no equivalent in a Strata predicate")) {
            try ObjectPredicate(#Predicate<TypedMood> { $0.score + 1 > 3 })
        }
        #expect(throws: ObjectPredicateError.untranslatable(expression: "NilCoalesce", reason: "it has no equivalent in a Strata predicate")) {
            try ObjectPredicate(#Predicate<TypedMood> { ($0.note ?? "") == "rain" })
        }
        let error = #expect(throws: FetchRequestError.self) {
            try ObjectPredicate(#Predicate<TypedMood> { $0.hasChanges })
        }
        guard case .unnamedKeyPath(let type, _) = error else {
            Issue.record("expected unnamedKeyPath, got \(String(describing: error))")
            return
        }
        #expect(type == "TypedMood")
    }
}
