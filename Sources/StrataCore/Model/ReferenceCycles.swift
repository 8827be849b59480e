/// Which entities' objects can be part of a cycle of strong references between managed objects.
///
/// An object holds the destinations of its loaded relationships strongly. A cycle of such
/// references either passes through a loaded to-many (an author holding its books, each holding
/// its author) or runs through to-ones alone (a person whose spouse's spouse is the person). So
/// only the objects of two kinds of entity can close one: entities with a to-many relationship,
/// and entities on a cycle of the model's to-one relationships (a to-one to an entity also
/// reaches that entity's sub-entities). A context that goes away cuts those objects loose and
/// leaves the others alone.
enum ReferenceCycles {
    /// The names of the entities whose objects may close a cycle of strong references.
    static func entities(in entitiesByName: [String: EntityDescription]) -> Set<String> {
        var result = Set<String>()
        var toOneTargets: [String: [String]] = [:]
        for (name, entity) in entitiesByName {
            if entity.relationships.contains(where: \.isToMany) { result.insert(name) }
            toOneTargets[name] = entity.relationships.filter { !$0.isToMany }
                .flatMap { ManagedObjectModel.entityAndDescendants(of: $0.destinationEntityName, in: entitiesByName) }
        }
        for name in entitiesByName.keys where !result.contains(name) {
            if reaches(name, from: toOneTargets[name] ?? [], through: toOneTargets) { result.insert(name) }
        }
        return result
    }

    /// Whether following to-ones from `starts` arrives at `target`.
    private static func reaches(_ target: String, from starts: [String], through edges: [String: [String]]) -> Bool {
        var seen = Set<String>()
        var pending = starts
        while let next = pending.popLast() {
            if next == target { return true }
            guard seen.insert(next).inserted else { continue }
            pending.append(contentsOf: edges[next] ?? [])
        }
        return false
    }
}
