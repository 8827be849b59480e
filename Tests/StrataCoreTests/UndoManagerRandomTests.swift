import StrataCore
import Testing

/// Random sequences of changes, undos and redos, checked against a reference history.
@Suite("Undo manager, randomized")
struct UndoManagerRandomTests {
    /// SplitMix64: a seeded generator, so that a failing seed can be run again.
    struct SeededGenerator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476C_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// The reference: the values after each event, the position in that history and the oldest
    /// position undo can still reach.
    struct History {
        var states = [[0, 0]]
        var position = 0
        var oldest = 0
        let levels: Int

        var canUndo: Bool { position > oldest }
        var canRedo: Bool { position < states.count - 1 }

        mutating func record(_ value: [Int]) {
            states.removeSubrange((position + 1)...)
            states.append(value)
            position += 1
            if levels > 0 { oldest = max(oldest, position - levels) }
        }
    }

    @Test("Random register, undo and redo sequences match a reference history",
          arguments: 0..<40)
    func randomSequences(seed: UInt64) throws {
        var random = SeededGenerator(state: seed)
        let manager = ObjectUndoManager()
        let levels = Int.random(in: 0...4, using: &random)
        manager.levelsOfUndo = levels
        let boxes = [UndoBox(manager: manager), UndoBox(manager: manager)]   // so groups show
        var history = History(levels: levels)
        func change(_ random: inout SeededGenerator) throws {
            let box = boxes[Int.random(in: 0...1, using: &random)]
            try box.set(Int.random(in: 1...1_000, using: &random))
        }
        var eventOpen = false                                // changes join the event still open

        for step in 0..<200 {
            switch Int.random(in: 0..<41, using: &random) {
            case 0..<16:                                     // one event of a few changes
                try change(&random)                          // opens the event
                let nested = Int.random(in: 0...2, using: &random)   // explicit groups inside it
                for _ in 0..<nested { manager.beginUndoGrouping() }
                for _ in 0..<Int.random(in: 0...2, using: &random) {
                    try change(&random)
                }
                for _ in 0..<nested { try manager.endUndoGrouping() }
                if eventOpen {
                    history.states[history.position] = boxes.map(\.value)
                } else {
                    history.record(boxes.map(\.value))
                }
                eventOpen = Bool.random(using: &random)
                if !eventOpen { try manager.endEventGroup() }
            case 40:
                manager.removeAllActions()
                eventOpen = false
                history = History(states: [boxes.map(\.value)], levels: levels)
            case 16..<28:
                try manager.undo()                           // closes an open event first
                eventOpen = false
                if history.canUndo { history.position -= 1 }
            default:
                try manager.redo()
                eventOpen = false
                if history.canRedo { history.position += 1 }
            }
            // One failure per seed: the steps after the first wrong one say nothing more.
            let expected = history.states[history.position]
            try #require(boxes.map(\.value) == expected, "seed \(seed), step \(step)")
            try #require(manager.canRedo == history.canRedo, "seed \(seed), step \(step)")
            if manager.groupingLevel == 0 {
                try #require(manager.canUndo == history.canUndo, "seed \(seed), step \(step)")
            }
        }
    }
}
