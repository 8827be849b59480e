import Foundation
import StrataCore
import Testing

/// A request handed on with another result class keeps every setting it had.
@Suite("FetchRequest retyping")
struct FetchRequestRetypingTests {
    /// Mirrors each stored setting of a request by name, as text.
    private func settings<Result>(_ request: FetchRequest<Result>) -> [String: String] {
        Dictionary(uniqueKeysWithValues: Mirror(reflecting: request).children.map {
            ($0.label ?? "?", String(describing: $0.value))
        })
    }

    @Test("retyped and untyped keep every setting, each set away from its default")
    func keepsEverySetting() throws {
        var request = FetchRequest(entityName: "Employee",
                                   predicate: try ObjectPredicate(format: "age > 30"),
                                   sortDescriptors: [ObjectSortDescriptor(key: "name")],
                                   fetchLimit: 5, fetchOffset: 2)
        request.fetchBatchSize = 20
        request.includesSubentities = false
        request.includesPendingChanges = false
        request.returnsObjectsAsFaults = false
        request.includesPropertyValues = false
        request.affectedStoreIdentifiers = ["store"]
        request.resultType = .dictionary
        request.propertiesToFetch = ["name"]
        request.propertiesToGroupBy = ["name"]
        request.havingPredicate = try ObjectPredicate(format: "name != nil")
        request.returnsDistinctResults = true
        request.relationshipKeyPathsForPrefetching = ["whereIWork"]
        request.shouldRefreshRefetchedObjects = true

        let original = settings(request)
        let defaults = settings(FetchRequest(entityName: "Other"))
        // A setting added to FetchRequest must be set above, so that retyping is checked for it.
        for (name, value) in original {
            #expect(defaults[name] != value, "\(name) is left at its default in this test")
        }
        #expect(settings(request.retyped(as: ManagedObject.self)) == original)
        #expect(settings(request.untyped) == original)
    }
}
