import Foundation
@testable import StrataCore
import StrataTestSupport
import Testing

/// The registry's table of objects by primary key answers what a dictionary answers, through
/// every mix of inserts, replacements and removals (removal moves entries back within a run).
/// The registry's kind of table: unretained objects by primary key.
typealias ObjectTable = PrimaryKeyTable<Unmanaged<ManagedObject>>

@Suite("Primary-key tables")
struct PrimaryKeyTableTests {
    /// Objects to register (kept alive by the caller: the table holds them unretained).
    static func objects(_ count: Int) throws -> [ManagedObject] {
        let student = try #require(try SampleModels.student().entitiesByName["Student"])
        return (0..<count).map { _ in ManagedObject(entity: student, objectID: .temporary(entityName: "Student")) }
    }

    /// Whether `table` holds exactly `expected`.
    static func matches(_ table: ObjectTable, _ expected: [Int64: ManagedObject], probing keys: some Sequence<Int64>) -> Bool {
        guard table.count == expected.count,
              Set(table.entries.map { $0.toOpaque() }) == Set(expected.values.map { Unmanaged.passUnretained($0).toOpaque() })
        else { return false }
        return keys.allSatisfy { key in table[key]?.toOpaque() == expected[key].map { Unmanaged.passUnretained($0).toOpaque() } }
    }

    @Test("Random inserts, look-ups that insert, replacements and removals agree with a dictionary, and say what they replaced or removed", arguments: [
        "sequential", "spread", "high bits", "direct",
    ])
    func agreesWithDictionary(keys kind: String) throws {
        let objects = try Self.objects(64)
        var random = SplitMix64(seed: 0x5EED)
        // Keys that a multiplicative hash could cluster: sequential, large strides, only high bits.
        let keyOf: (Int) -> Int64 = switch kind {
        case "sequential", "direct": { Int64($0) + 1 }
        case "spread": { Int64($0) * 1_000_003 - 500_000_000 }
        default: { Int64($0) << 40 }
        }
        let keySpace = (0..<600).map(keyOf)
        // The same slots every run; or a direct table, told how many keys to expect.
        var table = kind == "direct" ? ObjectTable() : ObjectTable(seed: 0x5EED)
        if kind == "direct" { table.reserveCapacity(keySpace.count) }
        var expected: [Int64: ManagedObject] = [:]
        for step in 0..<20_000 {
            let key = keySpace[Int(random.next() % UInt64(keySpace.count))]
            let object = objects[Int(random.next() % UInt64(objects.count))]
            switch random.next() % 7 {
            case 0, 1:
                table[key] = Unmanaged.passUnretained(object)
                expected[key] = object
            case 2:
                table[key] = nil
                expected[key] = nil
            case 5:
                // Replaced, answering what it replaced: how the registry unmarks a replaced object.
                let replaced = table.updateValue(Unmanaged.passUnretained(object), forKey: key)
                #expect(replaced?.toOpaque() == expected[key].map { Unmanaged.passUnretained($0).toOpaque() }, "after step \(step)")
                expected[key] = object
            case 6:
                let removed = table.removeValue(forKey: key)
                #expect(removed?.toOpaque() == expected[key].map { Unmanaged.passUnretained($0).toOpaque() }, "after step \(step)")
                expected[key] = nil
            case 3:
                // Looked up, and kept only when the key holds nothing: what registering a fault does.
                var made = false
                let found = table.value(for: key) {
                    made = true
                    return Unmanaged.passUnretained(object)
                }
                #expect(made == (expected[key] == nil), "after step \(step)")
                let holder = expected[key] ?? object
                expected[key] = holder
                #expect(found.toOpaque() == Unmanaged.passUnretained(holder).toOpaque(), "after step \(step)")
            default:
                // Removes only when the key holds this very object.
                table.remove(key, if: { $0.toOpaque() == Unmanaged.passUnretained(object).toOpaque() })
                if expected[key] === object { expected[key] = nil }
            }
            if step % 997 == 0 {
                let agrees = Self.matches(table, expected, probing: keySpace)   // not expanded in a failure
                #expect(agrees, "after step \(step)")
                let ordered = table.isInRobinHoodOrder
                #expect(ordered, "after step \(step)")
            }
        }
        let agrees = Self.matches(table, expected, probing: keySpace)
        #expect(agrees)
        #expect(table.isDirect == (kind == "direct"))
        #expect(table[Int64.min] == nil && table[Int64.max] == nil)
    }

    @Test("Reserving capacity keeps what the table holds; an empty table answers nil")
    func reserveAndEmpty() throws {
        let objects = try Self.objects(3)
        var table = ObjectTable()
        #expect(table[1] == nil)
        table.remove(1, if: { $0.toOpaque() == Unmanaged.passUnretained(objects[0]).toOpaque() })
        #expect(table.count == 0)
        for key in Int64(1)...5 { table[key] = Unmanaged.passUnretained(objects[Int(key) % 3]) }
        table.reserveCapacity(10_000)
        #expect(table.count == 5)
        #expect((Int64(1)...5).allSatisfy { table[$0]?.toOpaque() == Unmanaged.passUnretained(objects[Int($0) % 3]).toOpaque() })
        table[3] = Unmanaged.passUnretained(objects[0])
        #expect(table.count == 5)
        #expect(table[3]?.toOpaque() == Unmanaged.passUnretained(objects[0]).toOpaque())
    }

    @Test("A run that wraps past the last slot stays reachable through removals from its middle")
    func wrappingRun() throws {
        let objects = try Self.objects(8)
        var table = ObjectTable(seed: 42)
        table.reserveCapacity(6)   // eight slots
        // Keys whose home is the last slot, and one whose home is the first.
        let last = Array((1...100_000).lazy.map(Int64.init).filter { table.home(of: $0) == 7 }.prefix(5))
        let first = try #require((1...100_000).lazy.map(Int64.init).first { table.home(of: $0) == 0 })
        #expect(last.count == 5)
        var expected: [Int64: ManagedObject] = [:]
        for (index, key) in (last + [first]).enumerated() {
            table[key] = Unmanaged.passUnretained(objects[index])
            expected[key] = objects[index]
        }
        let probes = last + [first]
        #expect(Self.matches(table, expected, probing: probes))
        // Out of the middle of the run, which wraps from slot 7 through 0 to 4.
        for key in [last[1], last[3], first, last[0]] {
            table[key] = nil
            expected[key] = nil
            let agrees = Self.matches(table, expected, probing: probes)
            #expect(agrees, "after removing \(key)")
        }
        for key in probes { table[key] = nil }
        #expect(table.count == 0 && table.entries.map { $0 }.isEmpty)
        for (index, key) in probes.reversed().enumerated() { table[key] = Unmanaged.passUnretained(objects[index]) }
        #expect(table.count == probes.count)
        #expect(probes.reversed().enumerated().allSatisfy { index, key in table[key]?.toOpaque() == Unmanaged.passUnretained(objects[index]).toOpaque() })
    }

    @Test("Replacing a key's object never grows the table")
    func replacingDoesNotGrow() throws {
        let objects = try Self.objects(2)
        var table = ObjectTable(seed: 7)
        for key in Int64(1)...6 { table[key] = Unmanaged.passUnretained(objects[0]) }   // 6 of 8: three quarters
        let homes = (Int64(1)...6).map(table.home(of:))
        table[3] = Unmanaged.passUnretained(objects[1])
        #expect((Int64(1)...6).map(table.home(of:)) == homes)   // the same eight slots
        #expect(table.count == 6)
    }

    @Test("Ascending keys go to consecutive slots, and the table keeps placing keys by their low bits")
    func ascendingKeysInOrder() throws {
        let objects = try Self.objects(1)
        var table = ObjectTable(seed: 1)   // slots from the start
        table.reserveCapacity(10_000)
        for key in Int64(1)...10_000 { table[key] = Unmanaged.passUnretained(objects[0]) }
        #expect(!table.spreadsKeys)
        #expect((Int64(1)...10_000).map(table.home(of:)) == Array(1...10_000))
        #expect((Int64(1)...10_000).allSatisfy { table[$0] != nil })
        #expect(table[0] == nil && table[10_001] == nil)
    }

    @Test("Keys from 1 stay direct, in any order and through removals, when announced or dense")
    func denseKeysStayDirect() throws {
        let objects = try Self.objects(3)
        // Announced, then in a shuffled order (a fetch of a whole entity sorted by a value).
        var announced = ObjectTable()
        announced.reserveCapacity(5_000)
        var random = SplitMix64(seed: 3)
        var keys = Array(Int64(1)...5_000)
        keys.shuffle(using: &random)
        for key in keys { announced[key] = Unmanaged.passUnretained(objects[Int(key) % 3]) }
        #expect(announced.isDirect && announced.count == 5_000)
        #expect(keys.allSatisfy { announced[$0]?.toOpaque() == Unmanaged.passUnretained(objects[Int($0) % 3]).toOpaque() })
        // Removals leave holes, which a lookup and a look-up that inserts fill again.
        for key in keys.prefix(2_500) { announced[key] = nil }
        #expect(announced.count == 2_500 && Array(announced.entries).count == 2_500)
        #expect(keys.prefix(2_500).allSatisfy { announced[$0] == nil })
        let found = announced.value(for: keys[0]) { Unmanaged.passUnretained(objects[0]) }
        #expect(found.toOpaque() == Unmanaged.passUnretained(objects[0]).toOpaque() && announced.count == 2_501)
        #expect(announced.isDirect)

        // Not announced, in ascending order: each key at most twice the entries held.
        var ascending = ObjectTable()
        for key in Int64(1)...5_000 { ascending[key] = Unmanaged.passUnretained(objects[0]) }
        #expect(ascending.isDirect && ascending.count == 5_000)
        #expect(ascending[0] == nil && ascending[5_001] == nil && ascending[-3] == nil && ascending[Int64.max] == nil)
    }

    @Test("A key that would leave a direct table sparse turns it into slots, keeping every entry",
          arguments: [Int64(20_001), Int64(1) << 40, -5])
    func sparseKeyTurnsIntoSlots(far: Int64) throws {
        let objects = try Self.objects(2)
        var table = ObjectTable()
        table.reserveCapacity(10_000)
        var expected: [Int64: ManagedObject] = [:]
        for key in Int64(1)...100 {
            table[key] = Unmanaged.passUnretained(objects[0])
            expected[key] = objects[0]
        }
        // Within twice the announced entries, a key far from the others still goes direct.
        table[19_000] = Unmanaged.passUnretained(objects[1])
        expected[19_000] = objects[1]
        #expect(table.isDirect)
        let replaced = table.updateValue(Unmanaged.passUnretained(objects[1]), forKey: far)
        expected[far] = objects[1]
        #expect(replaced == nil && !table.isDirect && table.isInRobinHoodOrder)
        #expect(Self.matches(table, expected, probing: Array(expected.keys) + [0, 101, far &+ 1]))
        // Slots for good: a dense key after that goes to slots too.
        table[101] = Unmanaged.passUnretained(objects[0])
        expected[101] = objects[0]
        #expect(!table.isDirect && Self.matches(table, expected, probing: expected.keys))
    }

    @Test("Keys that crowd together by their low bits switch the table to spreading them, and all stay reachable",
          arguments: [Int64(1) << 20, Int64(1) << 40, -(Int64(1) << 33)])
    func crowdedKeysSpread(stride: Int64) throws {
        let objects = try Self.objects(400)
        var table = ObjectTable(seed: 99)
        var expected: [Int64: ManagedObject] = [:]
        // Every key has the same low bits: placed by them, each would probe past all the others.
        let keys = (Int64(1)...400).map { 5 &+ $0 &* stride }
        for (index, key) in keys.enumerated() {
            table[key] = Unmanaged.passUnretained(objects[index])
            expected[key] = objects[index]
        }
        #expect(table.spreadsKeys)
        #expect(Self.matches(table, expected, probing: keys + [5, 5 &+ 401 &* stride]))
        // Removals and inserts after the switch.
        for key in keys.prefix(200) {
            table[key] = nil
            expected[key] = nil
        }
        #expect(Self.matches(table, expected, probing: keys))
        // Spread keys no longer share a home: the longest run stays short.
        let homes = Dictionary(grouping: keys.suffix(200), by: table.home(of:)).values.map(\.count).max() ?? 0
        #expect(homes < 8)
    }
}
