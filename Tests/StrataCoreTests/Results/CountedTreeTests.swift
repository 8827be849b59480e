@testable import StrataCore
import Testing

/// The counted B-tree against an array: random inserts, removals, reads and searches, with small
/// nodes so that thousands of operations build trees several levels deep, split and merge.
@Suite("Counted tree")
struct CountedTreeTests {
    /// A small seeded generator (SplitMix64), so a failure replays.
    struct SeededGenerator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    @Test("random inserts, removals and reads match an array", arguments: [(4, 4, 1), (5, 6, 2), (16, 8, 3), (512, 64, 4)] as [(Int, Int, UInt64)])
    func matchesArray(leaf: Int, inner: Int, seed: UInt64) {
        var generator = SeededGenerator(state: seed)
        var tree = CountedTree<Int>(leafCapacity: leaf, innerCapacity: inner)
        var model: [Int] = []
        for step in 0..<6_000 {
            // Grow for the first half, shrink for the second, so merges run as well as splits.
            let grows = step < 3_000 ? Int.random(in: 0..<10, using: &generator) < 7 : Int.random(in: 0..<10, using: &generator) < 3
            if grows || model.isEmpty {
                let index = Int.random(in: 0...model.count, using: &generator)
                tree.insert(step, at: index)
                model.insert(step, at: index)
            } else {
                let index = Int.random(in: 0..<model.count, using: &generator)
                #expect(tree.remove(at: index) == model.remove(at: index))
            }
            if !model.isEmpty {
                let probe = Int.random(in: 0..<model.count, using: &generator)
                #expect(tree[probe] == model[probe])
            }
            if step % 500 == 0 {
                #expect(tree.checkInvariants() == nil)
                #expect(Array(tree) == model)
            }
        }
        #expect(tree.checkInvariants() == nil)
        #expect(tree.count == model.count)
        #expect(Array(tree) == model)
        #expect(tree.first == model.first && tree.last == model.last)
        if model.count > 10 {
            #expect(tree.elements(in: 3..<9) == Array(model[3..<9]))
            var seen: [Int] = []
            tree.forEach(from: 5) { seen.append($0); return seen.count < 4 }
            #expect(seen == Array(model[5..<9]))
        }
        while !model.isEmpty {
            let index = Int.random(in: 0..<model.count, using: &generator)
            #expect(tree.remove(at: index) == model.remove(at: index))
        }
        #expect(tree.isEmpty && tree.checkInvariants() == nil && Array(tree).isEmpty)
    }

    @Test("a sorted tree finds where a value goes, as a binary search of the array does")
    func partitioningIndex() {
        var generator = SeededGenerator(state: 7)
        var tree = CountedTree<Int>(leafCapacity: 4, innerCapacity: 4)
        var model: [Int] = []
        for _ in 0..<3_000 {
            let value = Int.random(in: 0..<1_000, using: &generator)
            let index = tree.partitioningIndex { $0 >= value }
            #expect(index == (model.firstIndex { $0 >= value } ?? model.count))
            tree.insert(value, at: index)
            model.insert(value, at: index)
        }
        #expect(Array(tree) == model.sorted())
        #expect(tree.partitioningIndex { _ in true } == 0)
        #expect(tree.partitioningIndex { _ in false } == model.count)
    }

    @Test("built from an array, it holds the array and stays valid")
    func bulkBuild() {
        for count in [0, 1, 3, 4, 5, 17, 1_000] {
            var tree = CountedTree(Array(0..<count), leafCapacity: 4, innerCapacity: 4)
            #expect(tree.checkInvariants() == nil)
            #expect(Array(tree) == Array(0..<count))
            tree.insert(-1, at: 0)
            #expect(tree.first == -1 && tree.count == count + 1 && tree.checkInvariants() == nil)
        }
    }

    @Test("a copy keeps its elements while the original changes")
    func valueSemantics() {
        var tree = CountedTree(Array(0..<200), leafCapacity: 4, innerCapacity: 4)
        let copy = tree
        for index in stride(from: 190, through: 0, by: -10) { tree.remove(at: index) }
        tree.insert(1_000, at: 50)
        #expect(Array(copy) == Array(0..<200))
        #expect(copy.checkInvariants() == nil && tree.checkInvariants() == nil)
        #expect(tree.count == 181 && tree[50] == 1_000)
    }
}
