import Foundation
@testable import StrataCore
import StrataTestSupport
import Testing

/// An object's to-one destinations, the first held in place and the rest in a map, answer what a
/// `NameMap` answers, in the same order, through every mix of sets, replacements and removals.
@Suite("To-one destinations")
struct ToOneDestinationsTests {
    static func objects(_ count: Int) throws -> [ManagedObject] {
        let student = try #require(try SampleModels.student().entitiesByName["Student"])
        return (0..<count).map { _ in ManagedObject(entity: student, objectID: .temporary(entityName: "Student")) }
    }

    /// Whether `destinations` holds what `expected` holds, in the same order, under every name.
    static func matches(_ destinations: ToOneDestinations, _ expected: NameMap<ManagedObject>, names: [String]) -> Bool {
        let order = destinations.map { "\($0.key) \(ObjectIdentifier($0.value).hashValue)" }
        let expectedOrder = expected.map { "\($0.key) \(ObjectIdentifier($0.value).hashValue)" }
        return order == expectedOrder && destinations.isEmpty == expected.isEmpty
            && destinations.values.map(ObjectIdentifier.init) == expected.values.map(ObjectIdentifier.init)
            && names.allSatisfy { destinations[$0] === expected[$0] && destinations[SampleModels.respelled($0)] === expected[$0] }
    }

    @Test("Random sets, replacements and removals agree with a name map, order included")
    func agreesWithNameMap() throws {
        let objects = try Self.objects(8)
        let names = ["author", "editor", SampleModels.longAttributeName, "publisher"]
        var random = SplitMix64(seed: 0x70_0E)
        var destinations = ToOneDestinations()
        var expected = NameMap<ManagedObject>()
        for step in 0..<5_000 {
            let name = names[Int(random.next() % UInt64(names.count))]
            // Any spelling of the name: the model's string or a copy with storage of its own.
            let spelling = random.next() % 2 == 0 ? name : SampleModels.respelled(name)
            if random.next() % 3 == 0 {
                destinations[spelling] = nil
                expected[spelling] = nil
            } else {
                let object = objects[Int(random.next() % UInt64(objects.count))]
                destinations[spelling] = object
                expected[spelling] = object
            }
            let agrees = Self.matches(destinations, expected, names: names)   // not expanded in a failure
            #expect(agrees, "after step \(step)")
            if !agrees { break }
        }
    }

    @Test("Removing the first entry moves the next one into its place")
    func removingTheFirst() throws {
        let objects = try Self.objects(3)
        var destinations = ToOneDestinations()
        destinations["a"] = objects[0]
        destinations["b"] = objects[1]
        destinations["c"] = objects[2]
        destinations["a"] = nil
        #expect(destinations.map(\.key) == ["b", "c"])
        destinations["a"] = objects[0]
        #expect(destinations.map(\.key) == ["b", "c", "a"])
        destinations["b"] = nil
        destinations["c"] = nil
        destinations["a"] = nil
        #expect(destinations.isEmpty)
        #expect(destinations["a"] == nil)
    }
}
