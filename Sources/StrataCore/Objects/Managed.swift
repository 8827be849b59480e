/// The pattern of objc.io's *Core Data* book for typed classes: an entity name, a default sort
/// and a sorted fetch request, on every class that adopts it.
///
/// ```swift
/// final class Mood: ManagedObject, Managed {
///     static var defaultSortDescriptors: [ObjectSortDescriptor] {
///         [ObjectSortDescriptor(key: "date", ascending: false)]
///     }
/// }
/// let latest = try context.fetch(Mood.sortedFetchRequest(with: try ObjectPredicate(format: "rating > 3")))
/// ```
///
/// `strata codegen` makes every generated class adopt it.
public protocol Managed: ManagedObject {
    /// The order of ``sortedFetchRequest``: none unless the class says one.
    static var defaultSortDescriptors: [ObjectSortDescriptor] { get }
}

extension Managed {
    /// No default order.
    public static var defaultSortDescriptors: [ObjectSortDescriptor] { [] }

    /// A request for every object of the class's entity, in ``defaultSortDescriptors`` order.
    public static var sortedFetchRequest: FetchRequest<Self> {
        FetchRequest<Self>(sortDescriptors: defaultSortDescriptors)
    }

    /// A request for the objects of the class's entity that `predicate` selects, in
    /// ``defaultSortDescriptors`` order.
    public static func sortedFetchRequest(with predicate: ObjectPredicate?) -> FetchRequest<Self> {
        FetchRequest<Self>(predicate: predicate, sortDescriptors: defaultSortDescriptors)
    }
}
