import Foundation

/// How a fetched results controller orders its objects: by the request's sort descriptors, then
/// by object ID, so that objects with equal sort keys keep one order between a fetch and the
/// updates that follow it.
struct ResultOrder {
    /// The request's sort descriptors (at least one).
    let descriptors: [ObjectSortDescriptor]

    /// The values `object` is ordered by, one per descriptor.
    func key(of object: ManagedObject) -> [PredicateValue] {
        descriptors.map { PredicateValue((try? object.value(forKeyPath: $0.key)) ?? nil) }
    }

    /// The order of two objects given by their keys and IDs.
    func compare(_ lhs: [PredicateValue], _ lhsID: ManagedObjectID,
                 _ rhs: [PredicateValue], _ rhsID: ManagedObjectID) -> ComparisonResult {
        for (index, descriptor) in descriptors.enumerated() {
            let result = descriptor.compareValues(lhs[index], rhs[index])
            if result != .orderedSame { return result }
        }
        return Self.compareIDs(lhsID, rhsID)
    }

    /// The order of two section values (the first descriptor's).
    func compareSections(_ lhs: PredicateValue, _ rhs: PredicateValue) -> ComparisonResult {
        descriptors[0].compareValues(lhs, rhs)
    }

    /// Object IDs in a fixed order: entity, store, then permanent IDs by primary key before
    /// temporary ones (in the order they were made).
    static func compareIDs(_ lhs: ManagedObjectID, _ rhs: ManagedObjectID) -> ComparisonResult {
        if lhs == rhs { return .orderedSame }
        if lhs.entityName != rhs.entityName { return lhs.entityName < rhs.entityName ? .orderedAscending : .orderedDescending }
        let lhsStore = lhs.storeIdentifier ?? "", rhsStore = rhs.storeIdentifier ?? ""
        if lhsStore != rhsStore { return lhsStore < rhsStore ? .orderedAscending : .orderedDescending }
        let (lhsRank, lhsNumber, lhsText) = rank(lhs)
        let (rhsRank, rhsNumber, rhsText) = rank(rhs)
        if (lhsRank, lhsNumber, lhsText) < (rhsRank, rhsNumber, rhsText) { return .orderedAscending }
        if (lhsRank, lhsNumber, lhsText) > (rhsRank, rhsNumber, rhsText) { return .orderedDescending }
        return .orderedSame
    }

    private static func rank(_ id: ManagedObjectID) -> (Int, UInt64, String) {
        switch id.key {
        case .permanent(let key): (0, UInt64(bitPattern: key) ^ (1 << 63), "")
        case .temporary(let number): (1, number, "")
        case .foreignTemporary(let foreign): (2, 0, foreign.uuid.uuidString)
        }
    }

    /// The name of the section of objects whose section key path has `value`: its text as Core
    /// Data writes it (a number's digits, a string itself, nil the empty string).
    static func sectionName(_ value: PredicateValue) -> String {
        switch value {
        case .null: ""
        case .bool(let value): value ? "1" : "0"
        case .integer(let value): String(value)
        case .double(let value): value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
        case .decimal(let value): "\(value)"
        case .string(let value): value
        case .date(let value): value.description
        case .data(let value): value.base64EncodedString()
        case .uuid(let value): value.uuidString
        case .url(let value): value.absoluteString
        case .objectID(let value): value.uriRepresentation.absoluteString
        case .array(let values): values.map(sectionName).joined(separator: ", ")
        }
    }
}
