/// An undo manager shaped like Foundation's `UndoManager` (which Foundation on Linux lacks),
/// usable on its own for any undoable action.
///
/// Actions are closures registered on a target; the actions registered in one event (or between
/// ``beginUndoGrouping()`` and ``endUndoGrouping()``) form a group that ``undo()`` reverses as a
/// whole. Actions registered while undoing go to the redo stack, while redoing to the undo stack.
///
/// ```swift
/// final class Document { var title = "" }
/// let manager = ObjectUndoManager()
/// let document = Document()
///
/// func setTitle(_ title: String) throws {
///     let old = document.title
///     document.title = title
///     try manager.registerUndo(withTarget: document) { _ in try? setTitle(old) }
///     manager.setActionName("Rename")
/// }
/// try setTitle("Draft")
/// try manager.endEventGroup()     // the end of the event: there is no run loop to do it
/// try manager.undo()              // document.title == ""
/// ```
///
/// The manager belongs to one queue, like a context: it is not `Sendable`. Its name differs from
/// Foundation's so that both can be imported where Foundation has one.
public final class ObjectUndoManager {
    /// Closed top-level groups that ``undo()`` reverses, newest last.
    var undoStack: [UndoGroup] = []
    /// Closed top-level groups that ``redo()`` reapplies, newest last.
    var redoStack: [UndoGroup] = []
    /// The open groups, outermost first.
    var openGroups: [UndoGroup] = []
    /// Whether the outermost open group was opened by a registration (``groupsByEvent``).
    var automaticGroupOpen = false
    /// The groups that were open when the running undo or redo began, put back when it ends.
    var suspendedGroups: [UndoGroup] = []
    /// Whether the outermost of ``suspendedGroups`` was opened by a registration.
    var suspendedAutomatic = false
    /// How many times registration was disabled and not enabled again.
    var disableCount = 0
    /// The undo or redo running, if any.
    var performing: Performing?
    /// The observers, oldest first.
    var observers: [(id: Int, handler: (UndoEvent) -> Void)] = []
    /// The last observer id handed out.
    var nextObserverID = 0
    /// Counts the openings and closings of groups and the removals of actions: equal counts
    /// mean the same group is still the one registrations go to.
    var groupSerial = 0

    /// What ``performing`` says is running.
    enum Performing { case undo, redo }

    /// Whether a registration with no group open opens a group that lasts until the end of the
    /// event (``endEventGroup()``). On by default, as in Foundation.
    public var groupsByEvent = true

    /// The most top-level groups kept on each stack; 0 (the default) keeps all. When exceeded, the
    /// oldest groups are dropped.
    public var levelsOfUndo = 0 {
        didSet {
            levelsOfUndo = max(0, levelsOfUndo)
            trim(&undoStack)
            trim(&redoStack)
        }
    }

    /// A manager with empty stacks, grouping by event and keeping every level.
    public init() {}

    /// Whether ``undo()`` has something to undo: a closed group, or the automatic group of the
    /// current event holding actions.
    public var canUndo: Bool {
        if performing == nil, let outer = openGroups.first, !outer.isEmpty { return true }
        return !undoStack.isEmpty
    }

    /// Whether ``redo()`` has something to redo.
    public var canRedo: Bool { !redoStack.isEmpty }

    /// Whether an undo is running (its actions' registrations go to the redo stack).
    public var isUndoing: Bool { performing == .undo }

    /// Whether a redo is running (its actions' registrations go to the undo stack).
    public var isRedoing: Bool { performing == .redo }

    /// Whether actions registered now are recorded: true unless
    /// ``disableUndoRegistration()`` was called more often than ``enableUndoRegistration()``.
    public var isUndoRegistrationEnabled: Bool { disableCount == 0 }

    /// Registers `handler` to run on `target` when the current group is undone.
    ///
    /// The target is held weakly (Foundation documents an unowned reference, to avoid retain
    /// cycles); if it is gone by then, the action is skipped. Nothing is recorded while
    /// registration is disabled. Outside an undo or redo, a registration clears the redo stack.
    /// With no group open, ``groupsByEvent`` opens one that ``endEventGroup()`` closes.
    ///
    /// - Throws: ``UndoError/registrationOutsideGroup`` when no group is open and
    ///   ``groupsByEvent`` is off.
    public func registerUndo<Target: AnyObject>(
        withTarget target: Target, handler: @escaping (Target) -> Void
    ) throws {
        try registerUndo(withTarget: target, payload: nil, handler: handler)
    }

    /// Registers `handler` as ``registerUndo(withTarget:handler:)`` does, with `payload`, what
    /// the action restores, kept beside it for inspection.
    func registerUndo<Target: AnyObject>(
        withTarget target: Target, payload: Any?, handler: @escaping (Target) -> Void
    ) throws {
        guard isUndoRegistrationEnabled else { return }
        if openGroups.isEmpty {
            guard groupsByEvent else { throw UndoError.registrationOutsideGroup }
            openGroup()
            automaticGroupOpen = true
        }
        if performing == nil { redoStack.removeAll() }
        let action = UndoAction(target: target, run: { object in
            if let typed = object as? Target { handler(typed) }
        }, payload: payload)
        openGroups[openGroups.count - 1].items.append(.action(action))
    }

    /// Stops recording registrations until a matching ``enableUndoRegistration()``; calls nest.
    public func disableUndoRegistration() {
        disableCount += 1
    }

    /// Undoes one ``disableUndoRegistration()``.
    ///
    /// - Throws: ``UndoError/registrationNotDisabled`` when registration is not disabled.
    public func enableUndoRegistration() throws {
        guard disableCount > 0 else { throw UndoError.registrationNotDisabled }
        disableCount -= 1
    }

    /// Empties both stacks, discards any open group and enables registration again. Called during
    /// an undo or redo, it also discards what the actions run so far registered.
    public func removeAllActions() {
        groupSerial &+= 1
        undoStack.removeAll()
        redoStack.removeAll()
        openGroups = performing == nil ? [] : [UndoGroup()]
        automaticGroupOpen = false
        suspendedGroups.removeAll()
        suspendedAutomatic = false
        disableCount = 0
    }

    /// Removes every action registered on `target` from both stacks and the open groups; groups
    /// left empty are dropped. Actions on other targets stay.
    public func removeAllActions(withTarget target: AnyObject) {
        groupSerial &+= 1
        undoStack = undoStack.map { $0.removingActions(withTarget: target) }.filter { !$0.isEmpty }
        redoStack = redoStack.map { $0.removingActions(withTarget: target) }.filter { !$0.isEmpty }
        openGroups = openGroups.map { $0.removingActions(withTarget: target) }
        suspendedGroups = suspendedGroups.map { $0.removingActions(withTarget: target) }
    }

    /// Drops the oldest groups of `stack` beyond ``levelsOfUndo``.
    func trim(_ stack: inout [UndoGroup]) {
        if levelsOfUndo > 0, stack.count > levelsOfUndo {
            stack.removeFirst(stack.count - levelsOfUndo)
        }
    }
}

@available(*, unavailable)
extension ObjectUndoManager: Sendable {}
