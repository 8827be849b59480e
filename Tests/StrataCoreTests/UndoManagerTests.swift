import StrataCore
import Testing

/// A value whose changes register their undo: the small model the undo tests change.
final class UndoBox {
    var value: Int
    let manager: ObjectUndoManager

    init(_ value: Int = 0, manager: ObjectUndoManager) {
        self.value = value
        self.manager = manager
    }

    /// Sets the value and registers setting it back, which registers the redo in turn.
    func set(_ newValue: Int) throws {
        let old = value
        value = newValue
        try manager.registerUndo(withTarget: self) { box in try? box.set(old) }
    }
}

/// `ObjectUndoManager`: stacks, groups, levels, removal, registration switches, names, events and
/// errors.
@Suite("Undo manager")
struct UndoManagerTests {
    @Test("Undo and redo walk a value back and forth, one event at a time")
    func undoAndRedo() throws {
        let manager = ObjectUndoManager()
        let box = UndoBox(manager: manager)
        #expect(!manager.canUndo && !manager.canRedo)
        try box.set(1)
        try manager.endEventGroup()
        try box.set(2)
        try manager.endEventGroup()
        try manager.undo()
        #expect(box.value == 1)
        #expect(manager.canUndo && manager.canRedo)
        try manager.undo()
        #expect(box.value == 0)
        #expect(!manager.canUndo)
        try manager.undo()                                   // nothing left: nothing happens
        #expect(box.value == 0)
        try manager.redo()
        #expect(box.value == 1)
        try manager.redo()
        #expect(box.value == 2)
        #expect(!manager.canRedo && manager.canUndo)
        try manager.undo()
        #expect(box.value == 1)
    }

    @Test("Registrations in one event undo together; undo closes the event's group")
    func groupsByEvent() throws {
        let manager = ObjectUndoManager()
        let box = UndoBox(manager: manager)
        try box.set(1)
        try box.set(2)
        try box.set(3)
        #expect(manager.groupingLevel == 1)
        #expect(manager.canUndo)
        try manager.undo()                                   // closes the open event group first
        #expect(box.value == 0)
        #expect(manager.groupingLevel == 0)
        #expect(!manager.canUndo)
        try manager.redo()
        #expect(box.value == 3)

        try box.set(4)
        try manager.endEventGroup()
        try box.set(5)
        try manager.endEventGroup()
        try manager.undo()
        #expect(box.value == 4)
    }

    @Test("Explicit groups: a nested group becomes part of its parent")
    func explicitAndNestedGroups() throws {
        let manager = ObjectUndoManager()
        manager.groupsByEvent = false
        let box = UndoBox(manager: manager)
        #expect(throws: UndoError.registrationOutsideGroup) { try box.set(9) }
        #expect(box.value == 9)                      // the change is made, just not recorded
        #expect(!manager.canUndo)

        let other = UndoBox(manager: manager)
        manager.beginUndoGrouping()
        try box.set(1)
        manager.beginUndoGrouping()
        #expect(manager.groupingLevel == 2)
        try other.set(2)
        try other.set(3)
        try manager.endUndoGrouping()
        #expect(manager.groupingLevel == 1)
        try manager.endUndoGrouping()
        #expect(manager.groupingLevel == 0)
        try manager.undo()
        #expect(box.value == 9 && other.value == 0)
        #expect(!manager.canUndo)
        try manager.redo()
        #expect(box.value == 1 && other.value == 3)
    }

    @Test("undoNestedGroup undoes the nested group closed last inside the open group")
    func undoNestedGroup() throws {
        let manager = ObjectUndoManager()
        let box = UndoBox(manager: manager)
        manager.beginUndoGrouping()
        try box.set(1)
        #expect(throws: UndoError.noNestedGroup) { try manager.undoNestedGroup() }
        manager.beginUndoGrouping()
        try box.set(2)
        try manager.endUndoGrouping()
        try manager.undoNestedGroup()
        #expect(box.value == 1)
        #expect(manager.groupingLevel == 1)
        try manager.endUndoGrouping()
        try manager.undo()
        #expect(box.value == 0)
    }

    @Test("Actions run while undoing register on the redo stack, while redoing on the undo stack")
    func undoRegistersRedo() throws {
        let manager = ObjectUndoManager()
        let box = UndoBox(manager: manager)
        var seen: [(undoing: Bool, redoing: Bool)] = []
        try manager.registerUndo(withTarget: box) { box in
            seen.append((box.manager.isUndoing, box.manager.isRedoing))
            try? box.manager.registerUndo(withTarget: box) { box in
                seen.append((box.manager.isUndoing, box.manager.isRedoing))
            }
        }
        try manager.endEventGroup()
        #expect(!manager.isUndoing && !manager.isRedoing)
        try manager.undo()
        #expect(!manager.canUndo && manager.canRedo)
        try manager.redo()
        #expect(!manager.canRedo && !manager.canUndo)        // the redo registered nothing more
        #expect(seen.map(\.undoing) == [true, false])
        #expect(seen.map(\.redoing) == [false, true])
        #expect(!manager.isUndoing && !manager.isRedoing)
    }

    @Test("A new action after an undo clears the redo stack; undo and redo keep it")
    func newActionClearsRedo() throws {
        let manager = ObjectUndoManager()
        let box = UndoBox(manager: manager)
        for value in 1...3 {
            try box.set(value)
            try manager.endEventGroup()
        }
        try manager.undo()
        try manager.undo()
        #expect(manager.canRedo)
        try manager.redo()                                   // redoing keeps the rest to redo
        #expect(manager.canRedo)
        #expect(box.value == 2)
        try box.set(7)
        #expect(!manager.canRedo)
        try manager.redo()
        #expect(box.value == 7)
        try manager.undo()
        #expect(box.value == 2)
    }

    @Test("levelsOfUndo keeps the newest groups and drops the oldest")
    func levelsOfUndo() throws {
        let manager = ObjectUndoManager()
        manager.levelsOfUndo = 2
        let box = UndoBox(manager: manager)
        for value in 1...4 {
            try box.set(value)
            try manager.endEventGroup()
        }
        try manager.undo()
        try manager.undo()
        #expect(box.value == 2)
        #expect(!manager.canUndo)
        try manager.redo()
        try manager.redo()
        #expect(box.value == 4)

        manager.levelsOfUndo = 1                             // lowering it trims at once
        try manager.undo()
        #expect(box.value == 3)
        #expect(!manager.canUndo)
    }

    @Test("removeAllActions(withTarget:) removes that target's actions only")
    func removeActionsWithTarget() throws {
        let manager = ObjectUndoManager()
        let first = UndoBox(manager: manager)
        let second = UndoBox(manager: manager)
        try first.set(1)
        try second.set(1)
        try manager.endEventGroup()
        try first.set(2)
        try manager.endEventGroup()
        try second.set(2)
        manager.beginUndoGrouping()
        try first.set(3)
        try manager.endUndoGrouping()
        try manager.endEventGroup()

        manager.removeAllActions(withTarget: first)
        try manager.undo()                                   // second's 2 (first's 3 is gone)
        #expect(first.value == 3 && second.value == 1)
        try manager.undo()                                   // the group of first's 2 was dropped
        #expect(first.value == 3 && second.value == 0)
        #expect(!manager.canUndo)

        try first.set(4)
        manager.removeAllActions()
        #expect(!manager.canUndo && !manager.canRedo)
        #expect(manager.groupingLevel == 0)
    }

    @Test("removeAllActions() inside an undo discards the stacks and what the undo registered")
    func removeAllActionsWhileUndoing() throws {
        let manager = ObjectUndoManager()
        let box = UndoBox(manager: manager)
        try box.set(1)
        try manager.endEventGroup()
        try manager.registerUndo(withTarget: box) { $0.manager.removeAllActions() }
        try box.set(2)                                       // undone first, then the removal runs
        try manager.endEventGroup()
        try manager.undo()
        #expect(box.value == 1)
        #expect(!manager.canUndo && !manager.canRedo)
        #expect(manager.groupingLevel == 0)
        try box.set(3)
        try manager.undo()
        #expect(box.value == 1)
    }

    @Test("Disabled registration records nothing; disabling nests; removeAllActions re-enables")
    func disableRegistration() throws {
        let manager = ObjectUndoManager()
        let box = UndoBox(manager: manager)
        manager.disableUndoRegistration()
        manager.disableUndoRegistration()
        #expect(!manager.isUndoRegistrationEnabled)
        try box.set(1)
        try manager.enableUndoRegistration()
        try box.set(2)
        #expect(!manager.canUndo)
        try manager.enableUndoRegistration()
        #expect(manager.isUndoRegistrationEnabled)
        try box.set(3)
        try manager.undo()
        #expect(box.value == 2)
        #expect(throws: UndoError.registrationNotDisabled) { try manager.enableUndoRegistration() }

        manager.disableUndoRegistration()
        manager.removeAllActions()
        #expect(manager.isUndoRegistrationEnabled)
    }

    @Test("Action names follow their group from the undo stack to the redo stack and back")
    func actionNames() throws {
        let manager = ObjectUndoManager()
        let box = UndoBox(manager: manager)
        #expect(manager.undoMenuItemTitle == "Undo" && manager.redoMenuItemTitle == "Redo")
        try box.set(1)
        manager.setActionName("Rename")
        #expect(manager.undoActionName == "Rename")
        try manager.endEventGroup()
        try box.set(2)
        try manager.endEventGroup()
        manager.setActionName("Move")                        // no group open: the newest closed one
        #expect(manager.undoMenuItemTitle == "Undo Move")
        try manager.undo()
        #expect(manager.undoActionName == "Rename")
        #expect(manager.redoActionName == "Move")
        try manager.undo()
        #expect(manager.undoActionName == "")
        #expect(manager.redoMenuItemTitle == "Redo Rename")
        try manager.redo()
        #expect(manager.undoMenuItemTitle == "Undo Rename")
        #expect(manager.redoActionName == "Move")
    }

    @Test("Observers hear groups open and close, and will/did undo and redo, in order")
    func events() throws {
        let manager = ObjectUndoManager()
        let box = UndoBox(manager: manager)
        var events: [UndoEvent] = []
        let token = manager.observe { events.append($0) }
        try box.set(1)
        #expect(events == [.didOpenGroup])
        try manager.endEventGroup()
        #expect(events == [.didOpenGroup, .checkpoint, .willCloseGroup, .didCloseGroup])
        events.removeAll()
        try manager.undo()
        #expect(events == [.willUndo, .didUndo])
        events.removeAll()
        try manager.redo()
        #expect(events == [.willRedo, .didRedo])
        events.removeAll()
        manager.beginUndoGrouping()
        #expect(events == [.checkpoint, .didOpenGroup])
        try manager.endUndoGrouping()
        manager.removeObserver(token)
        try manager.undo()
        #expect(events == [.checkpoint, .didOpenGroup,
                           .checkpoint, .willCloseGroup, .didCloseGroup])
    }

    @Test("Unbalanced ends and enables, undo with groups open and undo inside undo are errors")
    func errors() throws {
        let manager = ObjectUndoManager()
        let box = UndoBox(manager: manager)
        #expect(throws: UndoError.noOpenGroup) { try manager.endUndoGrouping() }
        #expect(throws: UndoError.registrationNotDisabled) { try manager.enableUndoRegistration() }

        try box.set(1)
        manager.beginUndoGrouping()
        #expect(throws: UndoError.groupStillOpen(level: 2)) { try manager.undo() }
        #expect(throws: UndoError.groupStillOpen(level: 2)) { try manager.endEventGroup() }
        try manager.endUndoGrouping()
        try manager.endEventGroup()

        var inner: [UndoError] = []
        func record(_ body: () throws -> Void) {
            do { try body() } catch let error as UndoError { inner.append(error) } catch {}
        }
        try manager.registerUndo(withTarget: box) { box in
            record { try box.manager.undo() }
            record { try box.manager.redo() }
            record { try box.manager.endUndoGrouping() }
        }
        try manager.undo()
        #expect(inner == [.undoInProgress, .undoInProgress, .noOpenGroup])
        #expect(box.value == 1)
        #expect("\(UndoError.groupStillOpen(level: 2))".contains("2 undo group"))
    }

    @Test("Targets are held weakly: an action whose target is gone is skipped")
    func weakTargets() throws {
        let manager = ObjectUndoManager()
        var ran = false
        weak var gone: UndoBox?
        do {
            let box = UndoBox(manager: manager)
            gone = box
            try manager.registerUndo(withTarget: box) { _ in ran = true }
        }
        #expect(gone == nil)
        try manager.undo()
        #expect(!ran)
    }
}
