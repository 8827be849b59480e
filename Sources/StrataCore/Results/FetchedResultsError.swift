/// Why a fetched results controller refused to fetch.
public enum FetchedResultsError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The request has no sort descriptor; a controller needs an order to give index paths.
    case missingSortDescriptors(entity: String)
    /// The first sort key is not the section name key path, so the objects would not come
    /// grouped by section (Core Data only logs this and reports sections out of order).
    case sectionKeyNotFirstSortKey(sectionNameKeyPath: String, firstSortKey: String)
    /// The entity's objects are not of the controller's result class.
    case resultClassMismatch(entity: String, expected: String, actual: String)
    /// The cache file could not be written or read.
    case cacheFailure(name: String, path: String, reason: String)

    /// One line saying what went wrong.
    public var description: String {
        switch self {
        case .missingSortDescriptors(let entity):
            "a fetched results controller needs at least one sort descriptor (request for '\(entity)' has none)"
        case .sectionKeyNotFirstSortKey(let path, let first):
            "the first sort key '\(first)' does not order objects by the section name key path '\(path)': sort by '\(path)' first"
        case .resultClassMismatch(let entity, let expected, let actual):
            "objects of entity '\(entity)' are of class \(actual), not \(expected)"
        case .cacheFailure(let name, let path, let reason):
            "fetched results cache '\(name)' at \(path): \(reason)"
        }
    }
}
