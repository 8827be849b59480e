import BenchmarkSupport
import Foundation
import Strata

/// How the SQLite benchmarks use Strata as an app would: a coordinator with one SQLite store,
/// attributes read with the typed `value(forKey:as:)`.
public enum StrataSQLite {
    /// A coordinator for `model` with the SQLite store at `file` added.
    public static func open(_ file: URL, model: ManagedObjectModel) throws -> PersistentStoreCoordinator {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: .sqlite, at: file)
        return coordinator
    }

    /// The attribute `key` of `object` as `T`; an error when it has no value of that type.
    @inlinable public static func read<T: AttributeConvertible>(_ object: ManagedObject, _ key: String,
                                                               as type: T.Type = T.self) throws -> T {
        guard let value = try object.value(forKey: key, as: T.self) else {
            throw BenchmarkError("\(object.entity.name).\(key) of \(object.objectID) is not a \(T.self)")
        }
        return value
    }
}
