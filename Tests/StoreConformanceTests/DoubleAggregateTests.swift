import Foundation
import Strata
import StrataTestSupport
import Testing

/// `@sum` and `@avg` of a to-many's Double and Float values in fetch predicates: every store
/// answers as the evaluator does in memory, with nil values left out, NaN and −0.0 kept, and
/// none giving a sum of 0 and no average.
@Suite("Double and Float aggregates over a to-many")
struct DoubleAggregateTests {
    private static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel {
            EntityDescription("Team") {
                Attribute("name", .string)
                Relationship("scores", toMany: "Score", inverse: "team")
            }
            EntityDescription("Score") {
                Attribute("value", .double)
                Attribute("weight", .float)
                Relationship("team", to: "Team", inverse: "scores")
            }
        }
    }

    /// Each team's scores as (value, weight) pairs; the sums are exact in any order of adding.
    private static let teams: [(String, [(Double?, Float?)])] = [
        ("empty", []),
        ("nils", [(nil, nil), (nil, nil)]),
        ("plain", [(0.5, 0.5), (0.25, 1.5), (1.75, nil)]),
        ("nan", [(1.0, 2.0), (.nan, .nan)]),
        ("negative zero", [(-0.0, -0.0)]),
        ("large", [(1e300, 3.5), (1e300, 0.5)]),
    ]

    private func seed(_ store: StoreUnderTest) throws -> ManagedObjectContext {
        let context = try store.makeContext(model: Self.model())
        for (name, scores) in Self.teams {
            let team = try context.insert("Team", ["name": name])
            for (value, weight) in scores {
                try context.insert("Score", ["value": value, "weight": weight, "team": team])
            }
        }
        try context.save()
        return context
    }

    private func names(_ format: String, in context: ManagedObjectContext) throws -> Set<String> {
        let request = FetchRequest<ManagedObject>(entityName: "Team", predicate: try ObjectPredicate(format: format))
        return Set(try context.fetch(request).map { try $0.string("name") })
    }

    @Test("Each store selects the teams the evaluator selects in memory", arguments: StoreUnderTest.all)
    func sameAsEvaluator(store: StoreUnderTest) throws {
        let context = try seed(store).freshContext()
        let all = try context.fetch(FetchRequest<ManagedObject>(entityName: "Team"))
        #expect(all.count == Self.teams.count)
        let formats = [
            "scores.@sum.value == 2.5", "scores.@avg.value == \(2.5 / 3)", "scores.@sum.value == 0", "scores.@avg.value == nil",
            "scores.@avg.value != nil", "scores.@sum.value > 1", "scores.@avg.value < 1", "scores.@sum.value == 2e300",
            "scores.@sum.weight == 2", "scores.@avg.weight == 2", "scores.@avg.weight == nil", "scores.@sum.weight < 0.5",
            "scores.@sum.value != 1", "NOT scores.@avg.value > 0",
        ]
        for format in formats {
            let predicate = try ObjectPredicate(format: format)
            let inMemory = Set(try all.filter { try predicate.evaluate(with: $0) }.map { try $0.string("name") })
            #expect(try names(format, in: context) == inMemory, "\(format)")
        }
    }

    @Test("Sums and averages of doubles and floats select the expected teams", arguments: StoreUnderTest.all)
    func expectedTeams(store: StoreUnderTest) throws {
        let context = try seed(store).freshContext()
        #expect(try names("scores.@sum.value == 2.5", in: context) == ["plain"])
        #expect(try names("scores.@avg.value == nil", in: context) == ["empty", "nils"])
        #expect(try names("scores.@sum.value == 2e300", in: context) == ["large"])
        #expect(try names("scores.@avg.value == 1e300", in: context) == ["large"])
        #expect(try names("scores.@sum.weight == 2", in: context) == ["plain"])
        #expect(try names("scores.@avg.weight == 1", in: context) == ["plain"])
        #expect(try names("scores.@sum.weight == 4", in: context) == ["large"])
        // NaN equals nothing (how it orders is the evaluator's, checked above); −0.0 sums to 0.
        let positive = try names("scores.@sum.value > 0", in: context)
        #expect(positive.subtracting(["nan"]) == ["plain", "large"], "\(positive)")
        #expect(try names("scores.@sum.value == 0", in: context).isSuperset(of: ["empty", "nils", "negative zero"]))
        #expect(try !names("scores.@sum.value == 0", in: context).contains("nan"))
    }
}
