import Foundation
import StrataCore
import StrataTestSupport
import Testing

/// `NameMap`, the map a snapshot keeps its to-ones in: a dictionary's answers, whatever spelling
/// of a name is used and whatever order entries were added in.
@Suite("Name maps")
struct NameMapTests {
    static func id(_ key: Int64) -> ManagedObjectID {
        ManagedObjectID(entityName: "Person", storeIdentifier: "S", primaryKey: key)
    }

    @Test("Values are found, replaced and removed by any spelling of a name")
    func anySpelling() {
        let long = SampleModels.longAttributeName   // stored out of line: a respelling has other storage
        var map: NameMap<ManagedObjectID> = ["owner": Self.id(1), long: Self.id(2)]
        #expect(map[SampleModels.respelled("owner")] == Self.id(1))
        #expect(map[SampleModels.respelled(long)] == Self.id(2))
        #expect(map["owners"] == nil)

        map[SampleModels.respelled(long)] = Self.id(3)
        #expect(map.count == 2)
        #expect(map[long] == Self.id(3))
        #expect(map.removeValue(forKey: SampleModels.respelled("owner")) == Self.id(1))
        #expect(map.removeValue(forKey: "owner") == nil)
        map[long] = nil
        #expect(map.isEmpty)
    }

    @Test("Entries keep the order they were added in; equality and hashing ignore it")
    func orderAndEquality() {
        var first = NameMap<ManagedObjectID>()
        first["b"] = Self.id(2)
        first["a"] = Self.id(1)
        let second: NameMap<ManagedObjectID> = ["a": Self.id(1), "b": Self.id(2)]
        #expect(first.keys == ["b", "a"])
        #expect(first.values == [Self.id(2), Self.id(1)])
        #expect(first.map(\.key) == ["b", "a"])
        #expect(first == second)
        #expect(first.hashValue == second.hashValue)
        #expect(first.dictionary == ["a": Self.id(1), "b": Self.id(2)])
        #expect(NameMap(first.dictionary) == first)
        #expect(first != ["a": Self.id(1), "b": Self.id(3)])
        #expect(first != ["a": Self.id(1)])
        #expect(first.description == "[\"b\": \(Self.id(2)), \"a\": \(Self.id(1))]")
        #expect(NameMap<Int>().description == "[:]")
    }

    @Test("A literal with a repeated name keeps its last value")
    func repeatedLiteralName() {
        let map: NameMap<Int> = ["x": 1, "y": 2, "x": 3]
        #expect(map.count == 2)
        #expect(map["x"] == 3)
    }

    @Test("holds(_:for:) answers as comparing the looked-up value does")
    func holds() {
        var map: NameMap<ManagedObjectID> = ["manager": Self.id(1), "department": Self.id(2)]
        #expect(map.holds(Self.id(1), for: "manager"))
        #expect(map.holds(Self.id(1), for: String("manag") + "er"), "any spelling of the name")
        #expect(!map.holds(Self.id(2), for: "manager"))
        #expect(!map.holds(Self.id(1), for: "mentor"), "a name without a value holds nothing")
        map["manager"] = nil
        #expect(!map.holds(Self.id(1), for: "manager"))
        #expect(map.holds(Self.id(2), for: "department"))
    }
}
