
/// The entity and the store an object ID names, shared by the IDs of that entity in that store:
/// an ID is this reference and its key, 17 bytes, rather than two strings and a key.
///
/// Scopes are interned: the IDs a store makes for one entity share one scope, so that IDs are
/// told apart, and found in a context's registry, by comparing one reference. Two scopes of the
/// same names are still equal (``ManagedObjectID/==(_:_:)`` compares the names when the
/// references differ), so a scope made outside the table is only slower, never wrong.
@usableFromInline
package final class ObjectIDScope: Sendable {
    /// The entity of the IDs.
    @usableFromInline package let entityName: String
    /// The store of the IDs; nil for temporary IDs.
    @usableFromInline package let storeIdentifier: String?

    private init(entityName: String, storeIdentifier: String?) {
        self.entityName = entityName
        self.storeIdentifier = storeIdentifier
    }

    /// Whether the scope is of `entityName` in `storeIdentifier`, as strings compare (canonically
    /// equivalent spellings are equal): what tells IDs equal.
    @inline(__always)
    package func names(_ entityName: String, _ storeIdentifier: String?) -> Bool {
        self.entityName == entityName && self.storeIdentifier == storeIdentifier
    }

    /// Whether the scope is of `entityName` in `storeIdentifier` spelled byte for byte as given:
    /// an ID keeps the spelling of the names it was made with.
    @inlinable @inline(__always)
    package func isExactly(_ entityName: String, _ storeIdentifier: String?) -> Bool {
        Self.exactly(self.entityName, entityName) && Self.exactly(self.storeIdentifier, storeIdentifier)
    }

    /// Whether two strings are the same bytes: at once when they are the very same string.
    @inlinable @inline(__always)
    package static func exactly(_ lhs: String, _ rhs: String) -> Bool {
        NameBits.same(lhs, rhs) || lhs.utf8.elementsEqual(rhs.utf8)
    }

    @inlinable @inline(__always)
    package static func exactly(_ lhs: String?, _ rhs: String?) -> Bool {
        switch (lhs, rhs) {
        case (nil, nil): true
        case (let lhs?, let rhs?): exactly(lhs, rhs)
        default: false
        }
    }

    /// The interned scopes, and the one handed out last (IDs come in runs of one entity).
    private struct Table {
        var scopes: [Names: ObjectIDScope] = [:]
        var last: ObjectIDScope?
    }

    /// Names compared byte for byte: canonically equivalent spellings are interned apart.
    private struct Names: Hashable {
        let entityName: String
        let storeIdentifier: String?

        static func == (lhs: Names, rhs: Names) -> Bool {
            exactly(lhs.entityName, rhs.entityName) && exactly(lhs.storeIdentifier, rhs.storeIdentifier)
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(entityName)
            hasher.combine(storeIdentifier)
        }
    }

    private static let table = LockedValue(Table())
    /// The most scopes kept: names from outside (an app's strings, parsed URIs, the UUIDs of the
    /// many stores a long-running process may open) cannot grow the table without bound. A full
    /// table is emptied and fills again with the scopes in use; IDs made before keep theirs.
    static let internedLimit = 4_096

    /// The scope of `entityName` in the store `storeIdentifier` (nil: temporary IDs).
    @usableFromInline
    package static func named(_ entityName: String, in storeIdentifier: String?) -> ObjectIDScope {
        table.withLock { table in
            if let last = table.last, last.isExactly(entityName, storeIdentifier) { return last }
            let names = Names(entityName: entityName, storeIdentifier: storeIdentifier)
            if let known = table.scopes[names] {
                table.last = known
                return known
            }
            let scope = ObjectIDScope(entityName: entityName, storeIdentifier: storeIdentifier)
            if table.scopes.count >= internedLimit { table.scopes.removeAll(keepingCapacity: true) }
            table.scopes[names] = scope
            table.last = scope
            return scope
        }
    }
}

/// The ID scopes of one store a maker of many IDs used last: IDs come in runs of one or two
/// entities (a row and its to-ones' destinations, the inserted objects of a save), told apart
/// here by comparing names, at once when they are the very strings, without the table's lock.
@usableFromInline
package struct RecentScopes {
    /// The store of the IDs.
    @usableFromInline package let storeIdentifier: String?
    @usableFromInline var recent: ObjectIDScope?
    @usableFromInline var earlier: ObjectIDScope?

    /// No scope used yet, for IDs of `storeIdentifier`.
    @usableFromInline
    package init(storeIdentifier: String?) {
        self.storeIdentifier = storeIdentifier
    }

    /// The scope of `entityName` in the store: one of the two used last, else the interned one.
    /// Inlined into its callers, which make an ID a row. Only entity names are compared: both
    /// scopes kept were interned for ``storeIdentifier``, whose bytes they hold (a store's
    /// identifier is a long string, which a copy of it would make compare byte by byte for
    /// every ID).
    @inlinable @inline(__always)
    package mutating func scope(of entityName: String) -> ObjectIDScope {
        if let recent, ObjectIDScope.exactly(recent.entityName, entityName) { return recent }
        if let earlier, ObjectIDScope.exactly(earlier.entityName, entityName) {
            swap(&recent, &self.earlier)
            return earlier
        }
        let scope = ObjectIDScope.named(entityName, in: storeIdentifier)
        earlier = recent
        recent = scope
        return scope
    }
}
