import Foundation

/// One section of a controller's results, as the controller keeps it.
struct ResultSection {
    /// The section's name.
    var name: String
    /// The section key path's value the section's objects share (the first sort key).
    var value: PredicateValue
    /// The objects, in order.
    var ids: [ManagedObjectID]
}

/// A controller's results: sections of object IDs in order, and each object's sort key, so that
/// an object is found, removed or placed by binary search: O(log n) comparisons (plus moving the
/// IDs after it within its section's array).
struct ResultSections {
    let order: ResultOrder
    /// Whether sections follow a key path; without one there is exactly one section, named "".
    let sectioned: Bool
    private(set) var sections: [ResultSection]
    /// The sort key of every object in the results.
    private(set) var keys: [ManagedObjectID: [PredicateValue]]

    init(order: ResultOrder, sectioned: Bool) {
        self.order = order
        self.sectioned = sectioned
        self.sections = sectioned ? [] : [ResultSection(name: "", value: .null, ids: [])]
        self.keys = [:]
    }

    /// Builds the sections from objects already in order.
    init(order: ResultOrder, sectioned: Bool, ordered: [(ManagedObjectID, [PredicateValue])]) {
        self.init(order: order, sectioned: sectioned)
        keys.reserveCapacity(ordered.count)
        for (id, key) in ordered {
            keys[id] = key
            if sectioned {
                let value = key[0]
                if sections.isEmpty || order.compareSections(sections[sections.count - 1].value, value) != .orderedSame {
                    sections.append(ResultSection(name: ResultOrder.sectionName(value), value: value, ids: []))
                }
            }
            sections[sections.count - 1].ids.append(id)
        }
    }

    /// How many objects there are.
    var count: Int { keys.count }

    /// The section holding objects of `value`, or where it would go.
    func sectionIndex(for value: PredicateValue) -> (index: Int, found: Bool) {
        guard sectioned else { return (0, true) }
        var low = 0, high = sections.count
        while low < high {
            let mid = (low + high) / 2
            switch order.compareSections(sections[mid].value, value) {
            case .orderedAscending: low = mid + 1
            case .orderedDescending: high = mid
            case .orderedSame: return (mid, true)
            }
        }
        return (low, false)
    }

    /// The first row of `section` not before (`key`, `id`).
    private func row(in section: Int, key: [PredicateValue], id: ManagedObjectID) -> Int {
        let ids = sections[section].ids
        var low = 0, high = ids.count
        while low < high {
            let mid = (low + high) / 2
            if order.compare(keys[ids[mid]]!, ids[mid], key, id) == .orderedAscending { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// Where the object `id` is, found by its recorded key.
    func indexPath(of id: ManagedObjectID) -> IndexPath? {
        guard let key = keys[id] else { return nil }
        let (section, found) = sectionIndex(for: key[0])
        guard found else { return nil }
        let row = row(in: section, key: key, id: id)
        guard row < sections[section].ids.count, sections[section].ids[row] == id else { return nil }
        return IndexPath(indexes: [section, row])
    }

    /// Takes `id` out; returns where it was and whether its section was emptied and removed.
    @discardableResult
    mutating func remove(_ id: ManagedObjectID) -> (IndexPath, sectionRemoved: Bool)? {
        guard let path = indexPath(of: id) else { return nil }
        sections[path[0]].ids.remove(at: path[1])
        keys[id] = nil
        var removed = false
        if sectioned, sections[path[0]].ids.isEmpty {
            sections.remove(at: path[0])
            removed = true
        }
        return (path, removed)
    }

    /// Places `id` with `key`; returns whether a section was made for it.
    @discardableResult
    mutating func insert(_ id: ManagedObjectID, key: [PredicateValue]) -> Bool {
        let (section, found) = sectionIndex(for: key[0])
        if !found {
            sections.insert(ResultSection(name: ResultOrder.sectionName(key[0]), value: key[0], ids: []), at: section)
        }
        let row = row(in: section, key: key, id: id)
        sections[section].ids.insert(id, at: row)
        keys[id] = key
        return !found
    }

    /// The position of `path` counted over every section.
    func position(of path: IndexPath) -> Int {
        var position = path[1]
        for section in sections[..<path[0]] { position += section.ids.count }
        return position
    }
}
