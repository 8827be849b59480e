/// What an ``ObjectUndoManager`` tells its observers, in the order Foundation posts its undo
/// manager notifications.
public enum UndoEvent: Sendable, Hashable {
    /// A checkpoint: a group is about to open (outside an undo or redo) or to close.
    case checkpoint
    /// A group was opened (explicitly or automatically).
    case didOpenGroup
    /// A group is about to close.
    case willCloseGroup
    /// A group was closed.
    case didCloseGroup
    /// An undo is about to run.
    case willUndo
    /// An undo has run.
    case didUndo
    /// A redo is about to run.
    case willRedo
    /// A redo has run.
    case didRedo
}

/// The token ``ObjectUndoManager/observe(_:)`` returns; pass it to
/// ``ObjectUndoManager/removeObserver(_:)`` to stop observing.
public struct UndoObserverToken: Sendable, Hashable {
    let id: Int
}

extension ObjectUndoManager {
    /// Calls `handler` for every ``UndoEvent`` from now on, until the token is removed.
    ///
    /// ```swift
    /// let token = manager.observe { event in print(event) }
    /// defer { manager.removeObserver(token) }
    /// ```
    @discardableResult
    public func observe(_ handler: @escaping (UndoEvent) -> Void) -> UndoObserverToken {
        nextObserverID += 1
        observers.append((nextObserverID, handler))
        return UndoObserverToken(id: nextObserverID)
    }

    /// Stops the observer `token` stands for; a token already removed is ignored.
    public func removeObserver(_ token: UndoObserverToken) {
        observers.removeAll { $0.id == token.id }
    }

    /// Tells every observer, oldest first.
    func post(_ event: UndoEvent) {
        for (_, handler) in observers { handler(event) }
    }
}
