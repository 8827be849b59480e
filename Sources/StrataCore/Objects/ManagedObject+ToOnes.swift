extension ManagedObject {
    /// Whether the object has a to-one destination.
    final var hasToOnes: Bool {
        firstToOne != nil || relationshipState?.otherToOnes.isEmpty == false
    }

    /// The destination of the to-one `name`, or nil: the object's ``firstToOne`` when `name` is
    /// its relationship, else the one kept in ``relationshipState``. Copies no map.
    @inline(__always)
    final func toOne(named name: String) -> ManagedObject? {
        if let firstToOne, entity.namesToOne(name, at: Int(firstToOnePosition)) { return firstToOne }
        guard let relationshipState, !relationshipState.otherToOnes.isEmpty else { return nil }
        return relationshipState.otherToOnes[name]
    }

    /// Sets the destination of the to-one `name` (nil removes it). The first to-one set, of a
    /// name the entity has among its first 255 to-ones, is kept in the object itself; the others
    /// go to ``relationshipState``.
    final func setToOne(_ destination: ManagedObject?, named name: String) {
        if firstToOne != nil, entity.namesToOne(name, at: Int(firstToOnePosition)) {
            firstToOne = destination
            return
        }
        if let relationshipState, relationshipState.otherToOnes[name] != nil {
            relationshipState.otherToOnes[name] = destination
            return
        }
        guard let destination else { return }
        if firstToOne == nil, let position = entity.toOnePosition(of: name), position <= Int(UInt8.max) {
            firstToOne = destination
            firstToOnePosition = UInt8(position)
        } else {
            relationships().otherToOnes[name] = destination
        }
    }

    /// Sets every to-one destination from `destinations`; those it does not name have none.
    final func setToOnes(_ destinations: ToOneDestinations) {
        firstToOne = nil
        if let relationshipState, !relationshipState.otherToOnes.isEmpty { relationshipState.otherToOnes = NameMap() }
        for (name, destination) in destinations { setToOne(destination, named: name) }
    }

    /// Removes every to-one destination.
    final func removeToOnes() {
        firstToOne = nil
        if let relationshipState, !relationshipState.otherToOnes.isEmpty { relationshipState.otherToOnes = NameMap() }
    }
}
