import Foundation
import StrataModelFiles

/// What an entity mapping's custom source expression fetches: the source objects of one entity
/// that match a predicate (the fetch behind Xcode's "Source Fetch: Custom").
///
/// Core Data writes the source expression as a `FETCH` of a fetch request made by the
/// migration manager, on its source context:
///
/// ```swift
/// let fetch = SourceFetch(entityName: "Mood", predicate: "rating > 2")
/// fetch.expression.format
/// // FETCH(FUNCTION($manager, "fetchRequestForSourceEntityNamed:predicateString:", "Mood", "rating > 2"),
/// //       $manager.sourceContext, NO)
/// fetch.expression.sourceFetch == fetch   // true
/// ```
public struct SourceFetch: Sendable, Hashable {
    /// The source entity fetched.
    public var entityName: String
    /// The predicate, in Core Data's format; `nil` for every object of the entity.
    public var predicate: String?

    /// The migration manager's method that makes the fetch request.
    public static let selector = "fetchRequestForSourceEntityNamed:predicateString:"

    /// Creates a source fetch.
    public init(entityName: String, predicate: String? = nil) {
        self.entityName = entityName
        self.predicate = predicate
    }

    /// The source expression that says it, in the form Core Data and Xcode write.
    public var expression: MappingExpression {
        .fetch(request: .function(receiver: .variable("manager"), selector: Self.selector,
                                  arguments: [.constant(.string(entityName)), .constant(.string(predicate ?? "TRUEPREDICATE"))]),
               context: .keyPath(.variable("manager"), "sourceContext"), countOnly: false)
    }
}

extension ArchivedExpression {
    /// The fetch a source expression stands for, when it is one Strata runs:
    /// `FETCH(FUNCTION($manager, "fetchRequestForSourceEntityNamed:predicateString:", "E", "P"), $manager.sourceContext, NO)`
    /// (the predicate may be left out, or be `TRUEPREDICATE` or `nil` for none), or a `FETCH` of
    /// a fetch request constant made from an entity and a predicate, on the same context.
    /// `nil` for anything else: a count-only fetch, another context, another request.
    public var sourceFetch: SourceFetch? {
        guard case let .fetch(request, context, false) = self, context.isSourceContext else { return nil }
        var fetch: SourceFetch
        switch request {
        case let .function(.variable("manager"), SourceFetch.selector, arguments):
            guard (1...2).contains(arguments.count), case .constant(.string(let entity)) = arguments[0] else { return nil }
            fetch = SourceFetch(entityName: entity)
            if arguments.count == 2 {
                switch arguments[1] {
                case .constant(.string(let predicate)): fetch.predicate = predicate
                case .constant(.null): break
                default: return nil
                }
            }
        case let .constant(.fetchRequest(entity, predicate)):
            fetch = SourceFetch(entityName: entity, predicate: predicate)
        default:
            return nil
        }
        guard !fetch.entityName.isEmpty else { return nil }
        if let predicate = fetch.predicate?.trimmingCharacters(in: .whitespaces),
           predicate.isEmpty || predicate.uppercased() == "TRUEPREDICATE" {
            fetch.predicate = nil
        }
        return fetch
    }

    /// `$manager.sourceContext`, as a key path or as the `valueForKeyPath:` call it archives as.
    private var isSourceContext: Bool {
        switch self {
        case .keyPath(.variable("manager"), "sourceContext"): true
        case let .function(.variable("manager"), selector, arguments):
            (selector == "valueForKeyPath:" || selector == "valueForKey:") && arguments.count == 1
                && (arguments[0] == .keyPath(.evaluatedObject, "sourceContext") || arguments[0] == .constant(.string("sourceContext")))
        default: false
        }
    }
}
