@testable @_spi(StoreImplementation) import StrataCore
import Testing

/// How rows go into the cache: copied from a list the caller keeps (`insert(_:)`), or moved out
/// of one (`insert(taking:)`, what a fetch's kept rows use). Every test runs both ways: the
/// cache must end up the same.
enum RowInsertion: CaseIterable, Sendable {
    case copying, taking

    func insert(_ rows: [ObjectSnapshot], into cache: RowCache) {
        switch self {
        case .copying:
            cache.insert(rows)
        case .taking:
            var list = rows
            cache.insert(taking: &list)
            #expect(list.isEmpty || rows.count > cache.capacity, "the rows taken are moved out of the list")
        }
    }
}

/// The coordinator's row cache on its own: which row a full cache gives up, and which rows a
/// fetch of the same rows replaces.
@Suite("Row cache replacement")
struct RowCacheClockTests {
    private func row(_ key: Int64, version: Int64 = 1, name: String = "") -> ObjectSnapshot {
        ObjectSnapshot(objectID: ManagedObjectID(entityName: "Person", storeIdentifier: "STORE", primaryKey: key),
                       version: version, attributes: ["name": .string(name)])
    }

    private func id(_ key: Int64) -> ManagedObjectID { row(key).objectID }

    private func cached(_ cache: RowCache, _ keys: ClosedRange<Int64>) -> [Int64] {
        keys.filter { cache.snapshot(for: id($0)) != nil }
    }

    @Test("a full cache gives up a row nobody read since the hand passed, not one just read", arguments: RowInsertion.allCases)
    func readRowsStay(insertion: RowInsertion) {
        let cache = RowCache(capacity: 3)
        insertion.insert([row(1), row(2), row(3)], into: cache)
        #expect(cache.snapshot(for: id(1)) != nil)   // marks row 1
        insertion.insert([row(4)], into: cache)
        // The hand clears row 1's mark and gives up row 2, the first unmarked one.
        #expect(cache.count == 3)
        #expect(cache.snapshot(for: id(2)) == nil)
        #expect(cached(cache, 1...4) == [1, 3, 4])
        insertion.insert([row(5)], into: cache)
        // The reads above marked every row: the hand clears the marks all the way round and gives
        // up row 3, where it stood.
        #expect(cached(cache, 1...5) == [1, 4, 5])
    }

    @Test("rows kept one at a time grow the list by doubling, not by one row each time", arguments: RowInsertion.allCases)
    func growsByDoubling(insertion: RowInsertion) {
        let cache = RowCache(capacity: 10_000)
        var capacities: [Int] = []
        for key in Int64(1)...2_000 {
            insertion.insert([row(key)], into: cache)
            if capacities.last != cache.listCapacity { capacities.append(cache.listCapacity) }
        }
        #expect(cache.count == 2_000)
        // Each growth at least doubles the room: about a dozen growths for 2,000 rows.
        #expect(capacities.count <= 14)
        #expect(zip(capacities, capacities.dropFirst()).allSatisfy { $1 >= 2 * $0 })
    }

    @Test("a fetched row at the cached version stays as cached; a newer version replaces it", arguments: RowInsertion.allCases)
    func versions(insertion: RowInsertion) throws {
        let cache = RowCache(capacity: 4)
        insertion.insert([row(1, version: 1, name: "first")], into: cache)
        insertion.insert([row(1, version: 1, name: "same version")], into: cache)
        #expect(cache.snapshot(for: id(1))?.attributes["name"] == .string("first"))
        insertion.insert([row(1, version: 2, name: "saved again")], into: cache)
        #expect(cache.snapshot(for: id(1))?.attributes["name"] == .string("saved again"))
        #expect(cache.count == 1)
    }

    @Test("removed rows free their places for the next rows; more rows than the capacity are not kept", arguments: RowInsertion.allCases)
    func removalAndSize(insertion: RowInsertion) {
        let cache = RowCache(capacity: 3)
        insertion.insert([row(1), row(2), row(3)], into: cache)
        cache.remove([id(2)])
        #expect(cache.count == 2)
        insertion.insert([row(4)], into: cache)
        #expect(cached(cache, 1...4) == [1, 3, 4], "the emptied place took row 4; no row was given up")
        insertion.insert([row(5), row(6), row(7), row(8)], into: cache)
        #expect(cached(cache, 1...8) == [1, 3, 4], "four rows are more than the cache holds")
        cache.removeAll()
        #expect(cache.count == 0)
        insertion.insert([row(9)], into: cache)
        #expect(cached(cache, 9...9) == [9])
    }

    @Test("a cache kept full by a stream of rows never holds more than its capacity", arguments: RowInsertion.allCases)
    func stream(insertion: RowInsertion) {
        let cache = RowCache(capacity: 5)
        for key in Int64(1)...100 {
            insertion.insert([row(key)], into: cache)
            if key.isMultiple(of: 3) { _ = cache.snapshot(for: id(key)) }
            #expect(cache.count == min(Int(key), 5))
        }
        #expect(cache.snapshot(for: id(100)) != nil)
    }
}
