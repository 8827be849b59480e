import Foundation

/// A point in a coordinator's persistent history: for each store, the number of the last
/// transaction seen. Core Data's `NSPersistentHistoryToken`.
///
/// Tokens are `Codable`, so an app keeps the last one it processed between launches and asks
/// only for what came after it:
///
/// ```swift
/// let data = try JSONEncoder().encode(token)
/// let token = try JSONDecoder().decode(PersistentHistoryToken.self, from: data)
/// let result = try context.execute(PersistentHistoryChangeRequest.fetchHistory(after: token))
/// ```
public struct PersistentHistoryToken: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The number of the last transaction of each store, by store identifier (UUID).
    public var transactionNumbers: [String: Int64]

    /// Creates a token from transaction numbers by store identifier.
    public init(transactionNumbers: [String: Int64]) {
        self.transactionNumbers = transactionNumbers
    }

    /// The transaction number recorded for `storeIdentifier`, or 0 (before every transaction).
    public func transactionNumber(forStore storeIdentifier: String) -> Int64 {
        transactionNumbers[storeIdentifier] ?? 0
    }

    /// A token that is at or after both tokens in every store.
    public func merging(_ other: PersistentHistoryToken) -> PersistentHistoryToken {
        PersistentHistoryToken(transactionNumbers: transactionNumbers.merging(other.transactionNumbers, uniquingKeysWith: max))
    }

    public var description: String {
        "PersistentHistoryToken(" + transactionNumbers.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + ")"
    }
}
