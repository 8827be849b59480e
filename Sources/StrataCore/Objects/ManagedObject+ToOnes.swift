extension ManagedObject {
    /// Whether the object has a to-one destination.
    final var hasToOnes: Bool {
        switch links {
        case .none: false
        case .toOne: true
        case .state(let state): !state.toOnes.isEmpty
        }
    }

    /// The destination of the to-one `name`, or nil: the object's ``firstToOne`` when `name` is
    /// its relationship, else the one kept in ``relationshipState``. Copies no map.
    @inline(__always)
    final func toOne(named name: String) -> ManagedObject? {
        switch links {
        case .none: nil
        case .toOne(let destination): entity.namesToOne(name, at: Int(firstToOnePosition)) ? destination : nil
        case .state(let state): state.toOnes.isEmpty ? nil : state.toOnes[name]
        }
    }

    /// Sets the destination of the to-one `name` (nil removes it). The first to-one set, of a
    /// name the entity has among its first 256 to-ones, is kept in the object itself while the
    /// object has no ``relationshipState``; the others go to the state, and with it the first.
    final func setToOne(_ destination: ManagedObject?, named name: String) {
        switch links {
        case .state(let state):
            state.toOnes[name] = destination
        case .toOne where entity.namesToOne(name, at: Int(firstToOnePosition)):
            links = destination.map { .toOne($0) } ?? .none
        case .toOne:
            guard let destination else { return }
            relationships().toOnes[name] = destination
        case .none:
            guard let destination else { return }
            if let position = entity.toOnePosition(of: name), position <= Int(UInt8.max) {
                links = .toOne(destination)
                firstToOnePosition = UInt8(position)
            } else {
                relationships().toOnes[name] = destination
            }
        }
    }

    /// Sets every to-one destination from `destinations`; those it does not name have none.
    final func setToOnes(_ destinations: ToOneDestinations) {
        removeToOnes()
        for (name, destination) in destinations { setToOne(destination, named: name) }
    }

    /// Removes every to-one destination.
    final func removeToOnes() {
        switch links {
        case .none: break
        case .toOne: links = .none
        case .state(let state): if !state.toOnes.isEmpty { state.toOnes = NameMap() }
        }
    }
}
