/// A ``ManagedObject`` subclass that names the model key each of its Swift properties stands
/// for, so that key paths of its properties can sort fetches
/// (``ObjectSortDescriptor/init(_:order:comparison:)``) and Foundation `#Predicate`s on it can
/// run as ``ObjectPredicate``s (``ObjectPredicate/init(_:)``).
///
/// A subclass's typed properties are computed (they read the object's storage by key), and a
/// key path of a computed property carries no name on Linux (there is no `@objc` key path
/// string), so the class lists them once:
///
/// ```swift
/// final class Mood: ManagedObject, ModelKeyPaths {
///     var date: Date? { self[typed: "date"] }
///     var country: Country? { self[typed: "country"] }
///
///     static var modelKeyPaths: [AnyKeyPath: String] {
///         [\Mood.date: "date", \Mood.country: "country"]
///     }
/// }
/// ```
///
/// A key path is looked up as it is written: `\Employee.name` and `\Person.name` are different
/// key paths, so a subclass lists the properties it inherits under its own name too
/// (`override class var modelKeyPaths` adding to `super.modelKeyPaths`, with the key paths
/// rebuilt on the subclass). A key path the class does not list is refused with
/// ``FetchRequestError/unnamedKeyPath(type:keyPath:)``.
public protocol ModelKeyPaths: ManagedObject {
    /// The model key (attribute or relationship name) of each Swift property of the class.
    static var modelKeyPaths: [AnyKeyPath: String] { get }
}

extension ModelKeyPaths {
    /// The model key `keyPath` stands for.
    ///
    /// - Throws: ``FetchRequestError/unnamedKeyPath(type:keyPath:)`` when the class does not
    ///   list it.
    public static func modelKey(for keyPath: AnyKeyPath) throws -> String {
        guard let key = modelKeyPaths[keyPath] else {
            throw FetchRequestError.unnamedKeyPath(type: String(describing: Self.self), keyPath: String(describing: keyPath))
        }
        return key
    }
}
