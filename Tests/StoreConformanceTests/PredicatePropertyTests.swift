import Foundation
import PropertyBased
import Strata
import StrataTestSupport
import Testing

/// Random predicates over ``PredicateFixture``: evaluating a predicate on each object in memory
/// gives the same objects as every store's fetch, for saved objects (the store evaluates its
/// snapshots) and for unsaved ones (the context evaluates its pending objects).
@Suite("Predicate properties")
struct PredicatePropertyTests {
    /// A random predicate on one entity of the fixture, as a format string.
    struct RandomPredicate: Sendable, CustomStringConvertible {
        let entity: String
        let format: String
        var description: String { "\(entity): \(format)" }
    }

    static let predicates = Generator<RandomPredicate, Shrink.None<RandomPredicate>> { rng in
        var maker = PredicateMaker(rng: rng)
        let (entity, format) = maker.randomPredicate()
        if let advanced = maker.rng as? any SeededRandomNumberGenerator { rng = advanced }
        return RandomPredicate(entity: entity, format: format)
    }

    @Test("In-memory evaluation and store fetches agree on random predicates", arguments: StoreUnderTest.all)
    func agreement(store: StoreUnderTest) async throws {
        let model = try PredicateFixture.model()
        // Saved: the store evaluates.
        let savedSource = try store.makeContext(model: model)
        try PredicateFixture.insert(into: savedSource)
        try savedSource.save()
        let saved = savedSource.freshContext()
        // Unsaved: the context evaluates its pending inserts.
        let unsaved = try store.makeContext(model: model)
        try PredicateFixture.insert(into: unsaved)
        let contexts = [("saved", saved), ("unsaved", unsaved)]
        await propertyCheck(count: 150, input: Self.predicates) { random in
            for (mode, context) in contexts {
                do {
                    try check(random, in: context)
                } catch {
                    Issue.record("\(store) \(mode): \(random): \(error)")
                }
            }
        }
    }

    @Test("The generator makes predicates that parse and round-trip")
    func generatorRoundTrip() async {
        await propertyCheck(count: 300, input: Self.predicates) { random in
            do {
                let predicate = try ObjectPredicate(format: random.format)
                #expect(try ObjectPredicate(format: predicate.description) == predicate, "\(random)")
            } catch {
                Issue.record("\(random): \(error)")
            }
        }
    }

    /// Fetches with the predicate and compares with evaluating it on every object of the entity.
    private func check(_ random: RandomPredicate, in context: ManagedObjectContext) throws {
        let predicate = try ObjectPredicate(format: random.format)
        let everything = try context.fetch(FetchRequest(entityName: random.entity))
        var expected = Set<String>()
        for object in everything where try predicate.evaluate(with: object) {
            expected.insert(try name(of: object))
        }
        let fetched = try context.fetch(FetchRequest(entityName: random.entity, predicate: predicate))
        let names = try fetched.map(name(of:))
        #expect(Set(names) == expected, "\(random)")
        #expect(names.count == Set(names).count, "no object twice: \(random)")
        #expect(try context.count(for: FetchRequest(entityName: random.entity, predicate: predicate)) == expected.count,
                "count: \(random)")
    }

    /// The name as scalars, so that two spellings of one name stay apart.
    private func name(of object: ManagedObject) throws -> String {
        let name = try object.value(forKey: "name") as? String ?? "<nil>"
        return name.unicodeScalars.map { String($0.value, radix: 16) }.joined(separator: " ")
    }
}
