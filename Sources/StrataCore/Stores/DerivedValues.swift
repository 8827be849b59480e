import Foundation

extension Derivation.StringFunction {
    /// The function applied to `text`, the same in every store (SQLite calls it from SQL).
    public func apply(_ text: String) -> String {
        switch self {
        case .lowercase: text.lowercased()
        case .uppercase: text.uppercased()
        case .canonical: ValueComparison.fold(text, [.caseInsensitive, .diacriticInsensitive]).lowercased()
        }
    }
}

extension ManagedObjectModel {
    /// Whether some derived attribute reads other objects (through a to-one or a to-many), so
    /// that a save can change the derived values of objects it does not hold.
    public var hasDerivationsThroughRelationships: Bool {
        derivedAttributesByEntity.values.contains { $0.contains { !$0.derivation.relationshipPath.isEmpty } }
    }
}

/// Computes derived attributes in a store that keeps its objects as snapshots (the atomic
/// stores, the in-memory store, a store written on the core protocol): the same values the
/// SQLite store computes in SQL.
@_spi(StoreImplementation)
public enum DerivedValues {
    /// Brings every derived attribute in `objects` up to date after `request` was applied to
    /// them: derivations from key paths and aggregates are recomputed on every object that has
    /// one, `now()` is set to `now` on the objects the request inserted or updated. Versions do
    /// not change (as Core Data's triggers leave `Z_OPT`).
    public static func update(_ objects: inout [ManagedObjectID: ObjectSnapshot], after request: StoreSaveRequest,
                              model: ManagedObjectModel, now: Date = Date()) {
        guard !model.derivedAttributesByEntity.isEmpty else { return }
        var saved = Set<ManagedObjectID>()
        for snapshot in request.inserted { saved.insert(snapshot.objectID) }
        for snapshot in request.updated { saved.insert(snapshot.objectID) }
        var owners = InverseIndex()
        var changes: [(ManagedObjectID, String, AttributeValue?)] = []
        for (id, snapshot) in objects {
            guard let derived = model.derivedAttributesByEntity[id.entityName] else { continue }
            for item in derived {
                let value: AttributeValue?
                if case .now = item.derivation {
                    guard saved.contains(id) else { continue }
                    value = .date(now)
                } else {
                    value = compute(item, of: snapshot, in: objects, model: model, owners: &owners)
                }
                if snapshot.attributes[item.attribute.name] != value { changes.append((id, item.attribute.name, value)) }
            }
        }
        for (id, name, value) in changes {
            if let value { _ = objects[id]?.attributes.updateValue(value, forKey: name) } else { _ = objects[id]?.attributes.removeValue(forKey: name) }
        }
    }

    /// The owners of each object through an inverse to-one, built once per relationship, for a
    /// to-many a snapshot does not list.
    struct InverseIndex {
        var built: [String: [ManagedObjectID: [ManagedObjectID]]] = [:]
    }

    /// The value of one derivation (not `now()`) for `snapshot`.
    static func compute(_ item: DerivedAttribute, of snapshot: ObjectSnapshot, in objects: [ManagedObjectID: ObjectSnapshot],
                        model: ManagedObjectModel, owners: inout InverseIndex) -> AttributeValue? {
        switch item.derivation {
        case .now:
            return nil
        case .copy(let path):
            return value(at: path, from: snapshot, in: objects)
        case let .string(function, path):
            guard case .string(let text)? = value(at: path, from: snapshot, in: objects) else { return nil }
            return .string(function.apply(text))
        case let .aggregate(function, relationship, attribute):
            let destinations = self.destinations(of: snapshot, through: relationship, in: objects, model: model, owners: &owners)
            if function == .count { return .integer(Int64(destinations.count)) }
            let values = destinations.compactMap { objects[$0]?.attributes[attribute ?? ""] }
            return aggregate(function, of: values, as: item.attribute.type)
        }
    }

    /// The value at the end of a key path of to-ones.
    private static func value(at path: [String], from snapshot: ObjectSnapshot, in objects: [ManagedObjectID: ObjectSnapshot]) -> AttributeValue? {
        var current = snapshot
        for name in path.dropLast() {
            guard let next = current.toOne[name], let object = objects[next] else { return nil }
            current = object
        }
        return current.attributes[path.last ?? ""]
    }

    /// The destinations of a to-many: the snapshot's list, or the objects whose inverse to-one
    /// names it when the snapshot does not list them.
    private static func destinations(of snapshot: ObjectSnapshot, through relationship: String, in objects: [ManagedObjectID: ObjectSnapshot],
                                     model: ManagedObjectModel, owners: inout InverseIndex) -> [ManagedObjectID] {
        if let listed = snapshot.toMany[relationship] { return listed.filter { objects[$0] != nil } }
        guard let entity = model.entity(named: snapshot.objectID.entityName),
              let description = entity.relationship(named: relationship), let inverse = entity.inverseRelationships[relationship],
              !inverse.isToMany else { return [] }
        let key = description.destinationEntityName + "." + inverse.name
        if owners.built[key] == nil {
            var index: [ManagedObjectID: [ManagedObjectID]] = [:]
            for (id, object) in objects {
                if let owner = object.toOne[inverse.name], model.entity(id.entityName, isKindOf: description.destinationEntityName) {
                    index[owner, default: []].append(id)
                }
            }
            owners.built[key] = index
        }
        return owners.built[key]?[snapshot.objectID] ?? []
    }

    /// `@sum`, `@min`, `@max` or `@avg` of number or date values, as the derived attribute's type.
    static func aggregate(_ function: Derivation.Aggregate, of values: [AttributeValue], as type: AttributeType) -> AttributeValue? {
        func number(_ value: AttributeValue) -> Double? {
            switch value {
            case .integer(let v): Double(v)
            case .double(let v): v
            case .float(let v): Double(v)
            case .date(let v): v.timeIntervalSinceReferenceDate
            default: nil
            }
        }
        switch function {
        case .count:
            return .integer(Int64(values.count))
        case .sum:
            if [.integer16, .integer32, .integer64].contains(type) {
                var total: Int64 = 0
                for value in values {
                    switch value {
                    case .integer(let v): total &+= v
                    default: total &+= Int64(exactly: (number(value) ?? 0).rounded(.towardZero)) ?? 0
                    }
                }
                return .integer(total)
            }
            let total = values.reduce(0.0) { $0 + (number($1) ?? 0) }
            return type == .float ? .float(Float(total)) : .double(total)
        case .avg:
            let numbers = values.compactMap(number)
            guard !numbers.isEmpty else { return nil }
            let mean = numbers.reduce(0, +) / Double(numbers.count)
            return type == .float ? .float(Float(mean)) : .double(mean)
        case .min, .max:
            var best: (AttributeValue, Double)?
            for value in values {
                guard let n = number(value) else { continue }
                if let current = best, function == .min ? n >= current.1 : n <= current.1 { continue }
                best = (value, n)
            }
            return best?.0
        }
    }
}
