import Foundation

/// One section of a controller's results, as the controller keeps it.
struct ResultSection {
    /// The section's name.
    var name: String
    /// The first sort key's value the section's objects share, when the section key path is the
    /// first sort key (otherwise the name, unused).
    var value: PredicateValue
    /// The slots (``ResultSlots``) of the objects, in order, in a counted B-tree: a row is read,
    /// placed or taken out in O(log n).
    var rows: CountedTree<UInt32>
}

/// A controller's results: sections of slots in order, each slot holding an object's ID and sort
/// key (``ResultSlots``), so that an object is found, removed or placed by binary search: O(log n)
/// comparisons, and each section's rows are a ``CountedTree`` of 4-byte slots, so that placing or
/// removing a row, and reading the row at an index, are O(log n) too.
///
/// Sections are the runs of objects with the same section name in the request's order. When the
/// section key path is the first sort key, objects whose first key values compare the same share
/// a section; otherwise the first sort key must order the objects by section (Core Data's rule:
/// the two key paths give the same relative order), which building the results checks.
struct ResultSections {
    /// Whether sections follow a key path; without one there is exactly one section, named "".
    let sectioned: Bool
    /// Whether the section key path is the first sort key.
    let groupsByFirstKey: Bool
    private(set) var sections: [ResultSection]
    private(set) var slots: ResultSlots
    /// How many objects there are.
    private(set) var count = 0

    /// A section name that appears in two places of the order: the request's first sort key does
    /// not order the objects by section.
    struct SectionsOutOfOrder: Error {
        let sectionName: String
    }

    var order: ResultOrder { slots.order }

    // MARK: Building

    /// Builds results from their objects, given in any order: ID, sort key and section name
    /// (read only when the section key path is not the first sort key).
    ///
    /// - Throws: ``SectionsOutOfOrder`` when a section's objects are not together in the order.
    init(order: ResultOrder, sectioned: Bool, groupsByFirstKey: Bool, capacity: Int = 0,
         objects fill: (_ add: (ManagedObjectID, [PredicateValue], String?) -> Void) throws -> Void) throws {
        self.sectioned = sectioned
        self.groupsByFirstKey = !sectioned || groupsByFirstKey
        self.sections = []
        var slots = ResultSlots(order: order)
        slots.reserveCapacity(capacity)
        // Section names by slot, while building, when they do not follow from the first key.
        var names = ResultKeyColumn()
        let keepsNames = sectioned && !groupsByFirstKey
        try fill { id, key, name in
            slots.append(id, key: key)
            if keepsNames { names.append(.string(name ?? "")) }
        }
        slots.index()
        var rows = Array(0..<UInt32(slots.capacity))
        // The store orders equal keys its own way: put them in the controller's order.
        let inOrder = zip(rows, rows.dropFirst()).allSatisfy { slots.compare($0, $1) != .orderedDescending }
        if !inOrder { rows.sort { slots.compare($0, $1) == .orderedAscending } }
        self.slots = slots
        self.count = rows.count
        guard sectioned else {
            sections = [ResultSection(name: "", value: .null, rows: CountedTree(rows))]
            return
        }
        var seen = Set<String>()
        var start = 0
        while start < rows.count {
            let first = rows[start]
            let value = slots.firstValue(at: first)
            let name: String
            if keepsNames, case .string(let text) = names.value(at: Int(first)) { name = text } else { name = ResultOrder.sectionName(value) }
            var end = start + 1
            if keepsNames {
                while end < rows.count, names.value(at: Int(rows[end])) == .string(name) { end += 1 }
                guard seen.insert(name).inserted else { throw SectionsOutOfOrder(sectionName: name) }
            } else {
                while end < rows.count, order.compareSections(value, slots.firstValue(at: rows[end])) == .orderedSame { end += 1 }
            }
            sections.append(ResultSection(name: name, value: keepsNames ? .string(name) : value, rows: CountedTree(rows[start..<end])))
            start = end
        }
    }

    // MARK: Reading

    /// The ID at `row` of `section`.
    func id(section: Int, row: Int) -> ManagedObjectID {
        slots.id(at: sections[section].rows[row])
    }

    /// The IDs of a section's objects, in order.
    func ids(in section: Int) -> [ManagedObjectID] {
        sections[section].rows.map(slots.id(at:))
    }

    /// Every ID, in order.
    var allIDs: [ManagedObjectID] {
        var ids: [ManagedObjectID] = []
        ids.reserveCapacity(count)
        for section in sections { ids.append(contentsOf: section.rows.lazy.map(slots.id(at:))) }
        return ids
    }

    /// The sort key recorded for `id`, or nil when it is not in the results.
    func key(of id: ManagedObjectID) -> [PredicateValue]? {
        slots.slot(of: id).map(slots.key(at:))
    }

    /// Where the object `id` is, found by its recorded key.
    func indexPath(of id: ManagedObjectID) -> IndexPath? {
        guard let slot = slots.slot(of: id) else { return nil }
        let (section, row) = insertionPoint(of: slot)
        guard section < sections.count, row < sections[section].rows.count, sections[section].rows[row] == slot else { return nil }
        return IndexPath(indexes: [section, row])
    }

    /// The first place not before `slot`: the first section whose last object is not before it,
    /// and the row in it (the section count and 0 when it comes after everything).
    private func insertionPoint(of slot: UInt32) -> (section: Int, row: Int) {
        var low = 0, high = sections.count
        while low < high {
            let mid = (low + high) / 2
            if let last = sections[mid].rows.last, slots.compare(last, slot) != .orderedAscending { high = mid } else { low = mid + 1 }
        }
        guard low < sections.count else { return (low, 0) }
        return (low, sections[low].rows.partitioningIndex { slots.compare($0, slot) != .orderedAscending })
    }

    /// The position of `path` counted over every section.
    func position(of path: IndexPath) -> Int {
        var position = path[1]
        for section in sections[..<path[0]] { position += section.rows.count }
        return position
    }

    // MARK: Changing

    /// Takes `id` out; returns where it was and whether its section was emptied and removed.
    @discardableResult
    mutating func remove(_ id: ManagedObjectID) -> (IndexPath, sectionRemoved: Bool)? {
        guard let path = indexPath(of: id), let slot = slots.slot(of: id) else { return nil }
        sections[path[0]].rows.remove(at: path[1])
        slots.remove(id, from: slot)
        count -= 1
        var removed = false
        if sectioned, sections[path[0]].rows.isEmpty {
            sections.remove(at: path[0])
            removed = true
        }
        return (path, removed)
    }

    /// Places `id` with `key` in the section named `sectionName` (read only when the section key
    /// path is not the first sort key); returns whether a section was made for it.
    ///
    /// An object whose sort key places it inside another section than its own (the first sort
    /// key no longer orders the objects by section) joins that section: sections stay runs of
    /// the order, and the next ``FetchedResultsController/performFetch()`` refuses the request.
    @discardableResult
    mutating func insert(_ id: ManagedObjectID, key: [PredicateValue], sectionName: String?) -> Bool {
        let slot = slots.add(id, key: key)
        count += 1
        var (section, row) = insertionPoint(of: slot)
        if !sectioned {
            if section == sections.count { section = 0; row = sections[0].rows.count }
            sections[0].rows.insert(slot, at: row)
            return false
        }
        let name = groupsByFirstKey ? ResultOrder.sectionName(key[0]) : sectionName ?? ""
        func belongs(_ index: Int) -> Bool {
            groupsByFirstKey ? order.compareSections(sections[index].value, key[0]) == .orderedSame : sections[index].name == name
        }
        if section < sections.count, belongs(section) || row > 0 {
            sections[section].rows.insert(slot, at: row)
            return false
        }
        if section > 0, belongs(section - 1) {
            sections[section - 1].rows.append(slot)
            return false
        }
        sections.insert(ResultSection(name: name, value: groupsByFirstKey ? key[0] : .string(name), rows: CountedTree([slot])), at: section)
        return true
    }
}
