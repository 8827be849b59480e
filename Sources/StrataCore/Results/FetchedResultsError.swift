/// Why a fetched results controller refused to fetch.
public enum FetchedResultsError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The request has no sort descriptor; a controller needs an order to give index paths.
    case missingSortDescriptors(entity: String)
    /// The first sort key does not order the objects by section: the objects of the section
    /// `sectionName` are not together in the request's order (Core Data only logs this and
    /// reports sections out of order). The first sort key must be the section name key path, or
    /// one that orders objects the same way.
    case sectionsOutOfOrder(sectionNameKeyPath: String, firstSortKey: String, sectionName: String)
    /// The entity's objects are not of the controller's result class.
    case resultClassMismatch(entity: String, expected: String, actual: String)
    /// The cache file could not be written or read.
    case cacheFailure(name: String, path: String, reason: String)

    /// One line saying what went wrong.
    public var description: String {
        switch self {
        case .missingSortDescriptors(let entity):
            "a fetched results controller needs at least one sort descriptor (request for '\(entity)' has none)"
        case .sectionsOutOfOrder(let path, let first, let name):
            "the first sort key '\(first)' does not order objects by the section name key path '\(path)': "
                + "objects of section '\(name)' are apart; sort by '\(path)' first, or by a key in the same order"
        case .resultClassMismatch(let entity, let expected, let actual):
            "objects of entity '\(entity)' are of class \(actual), not \(expected)"
        case .cacheFailure(let name, let path, let reason):
            "fetched results cache '\(name)' at \(path): \(reason)"
        }
    }
}
