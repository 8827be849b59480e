/// One registered undo action: the closure to run and the target it runs on.
///
/// The target is held weakly, so an undo stack never keeps its targets alive; an action whose
/// target is gone is skipped.
struct UndoAction {
    /// The object the action runs on.
    weak var target: AnyObject?
    /// The closure, already cast back to the target's type.
    let run: (AnyObject) -> Void
    /// What the action restores, when its registrar says (a context's ``ContextUndoStep``):
    /// kept for inspection only.
    var payload: Any? = nil
}

/// A group of undo actions, undone together: the actions and nested groups registered between
/// the opening and the closing of the group, in registration order, and the group's action name.
struct UndoGroup {
    /// An entry of a group: one action or a nested group.
    enum Item {
        case action(UndoAction)
        case group(UndoGroup)
    }

    /// The entries, oldest first.
    var items: [Item] = []
    /// The action name shown for the group ("Typing", "Delete"), empty when none was set.
    var actionName = ""

    /// Whether the group holds no action, directly or in a nested group.
    var isEmpty: Bool {
        items.allSatisfy { item in
            if case .group(let group) = item { return group.isEmpty }
            return false
        }
    }

    /// Runs the actions newest first, nested groups as a whole in the same order.
    func perform() {
        for item in items.reversed() {
            switch item {
            case .action(let action):
                if let target = action.target { action.run(target) }
            case .group(let group):
                group.perform()
            }
        }
    }

    /// The payloads of the group's actions, nested groups' included, oldest first.
    var payloads: [Any] {
        items.flatMap { item -> [Any] in
            switch item {
            case .action(let action): action.payload.map { [$0] } ?? []
            case .group(let group): group.payloads
            }
        }
    }

    /// The group without the actions on `target` (and without actions whose target is gone);
    /// nested groups left empty are dropped.
    func removingActions(withTarget target: AnyObject?) -> UndoGroup {
        var kept = UndoGroup(actionName: actionName)
        for item in items {
            switch item {
            case .action(let action):
                guard let actionTarget = action.target, actionTarget !== target else { continue }
                kept.items.append(item)
            case .group(let group):
                let nested = group.removingActions(withTarget: target)
                if !nested.isEmpty { kept.items.append(.group(nested)) }
            }
        }
        return kept
    }
}
