/// Finds the objects of a context for the to-one destinations of a fetch's snapshots, one
/// snapshot after another, once for a run of snapshots that share their map of destinations.
///
/// A store reading rows in key order hands the rows with the same destinations one map (the
/// books of one author, ``ObjectSnapshot/toOne``): when the snapshot to come next shares the map
/// of the one resolved now, the objects found are kept for it, and it gets them without a look-up
/// in the context's registry. Objects are kept only for a snapshot known to share them: rows
/// whose destinations all differ (the books of a fetch sorted by title) cost nothing more. The
/// objects kept are held, so they stay registered, and give what a look-up would, until the next
/// snapshot has them. A resolver lives for one fetch, during which no code of an app's own runs
/// (see ``FetchedObjectMaker``).
struct ToOneResolver {
    /// The map of destinations resolved last, and the objects it gave, while the next snapshot
    /// shares the map.
    private var kept: (ids: NameMap<ManagedObjectID>, destinations: ToOneDestinations)?

    /// The objects of `context` for the destinations `ids`; kept for the next snapshot when
    /// `nextSharesThem`.
    mutating func destinations(of ids: NameMap<ManagedObjectID>, in context: ManagedObjectContext,
                               nextSharesThem: Bool) throws -> ToOneDestinations {
        if let kept, kept.ids.sharesEntries(with: ids) {
            let destinations = kept.destinations
            if !nextSharesThem { self.kept = nil }
            return destinations
        }
        let destinations = try ManagedObject.toOneDestinations(of: ids, in: context)
        kept = nextSharesThem ? (ids, destinations) : nil
        return destinations
    }
}
