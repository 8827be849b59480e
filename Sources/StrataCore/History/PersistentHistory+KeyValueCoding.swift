import Foundation

// Transactions and changes answer keys, so that predicates (``PersistentHistoryChangeRequest``'s
// `transactionPredicate` and `changePredicate`) run over them with the usual evaluator.

extension PersistentHistoryTransaction: KeyValueCoding {
    /// The value of a transaction key: `author`, `contextName`, `processIdentifier`,
    /// `bundleIdentifier`, `timestamp`, `transactionNumber`, `storeIdentifier`.
    public func value(forKey key: String) throws -> Any? {
        switch key {
        case "author": author
        case "contextName": contextName
        case "processIdentifier", "processID": processIdentifier
        case "bundleIdentifier", "bundleID": bundleIdentifier
        case "timestamp": timestamp
        case "transactionNumber": transactionNumber
        case "storeIdentifier", "storeID": storeIdentifier
        default: throw ObjectError.unknownKey(entity: "PersistentHistoryTransaction", key: key)
        }
    }
}

extension PersistentHistoryChange: KeyValueCoding {
    /// The value of a change key: `changeType` (0 insert, 1 update, 2 delete), `entityName`,
    /// `changedObjectID`, `changeID`, `transactionNumber`, `updatedProperties`, `tombstone`.
    public func value(forKey key: String) throws -> Any? {
        switch key {
        case "changeType": changeType.rawValue
        case "entityName", "changedEntity": changedObjectID.entityName
        case "changedObjectID": changedObjectID
        case "changeID": changeID
        case "transactionNumber": transactionNumber
        case "updatedProperties": updatedProperties.map { Array($0).sorted() }
        case "tombstone": tombstone.map { $0.mapValues(\.untypedSwiftValue) }
        default: throw ObjectError.unknownKey(entity: "PersistentHistoryChange", key: key)
        }
    }
}
