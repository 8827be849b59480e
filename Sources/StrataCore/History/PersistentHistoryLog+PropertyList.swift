import Foundation

// The file stores keep their history as one property-list value in the metadata their format
// writes, under ``PersistentHistoryLog/metadataKey``; the layout is in `docs/formats/README.md`.
// A file without that key has no history. The key is taken out of the metadata a store shows.

@_spi(StoreImplementation)
extension PersistentHistoryLog {
    /// The metadata key a file store keeps its history under.
    public static let metadataKey = "StrataPersistentHistory"

    /// The log as a property-list value.
    public var propertyList: PropertyListValue {
        .dictionary([
            "lastTransaction": .integer(lastTransactionNumber),
            "lastChange": .integer(lastChangeID),
            "transactions": .array(transactions.map(Self.propertyList(of:))),
        ])
    }

    /// Reads a log written by ``propertyList`` for the store `storeIdentifier`.
    ///
    /// - Throws: ``StoreError/corruptStore(file:offset:reason:)`` naming `file` and what is wrong.
    public init(propertyList value: PropertyListValue, storeIdentifier: String, file: String) throws {
        func corrupt(_ reason: String) -> StoreError {
            .corruptStore(file: file, offset: nil, reason: "persistent history: \(reason)")
        }
        guard case .dictionary(let root)? = Optional(value),
              case .integer(let lastTransaction)? = root["lastTransaction"], case .integer(let lastChange)? = root["lastChange"],
              case .array(let items)? = root["transactions"] else { throw corrupt("not a history dictionary") }
        self.init()
        lastTransactionNumber = lastTransaction
        lastChangeID = lastChange
        for item in items {
            guard case .dictionary(let entry) = item, case .integer(let number)? = entry["number"],
                  case .date(let timestamp)? = entry["timestamp"], case .array(let changeItems)? = entry["changes"] else {
                throw corrupt("a transaction lacks its number, timestamp or changes")
            }
            var changes: [PersistentHistoryChange] = []
            for changeItem in changeItems {
                guard case .dictionary(let fields) = changeItem, case .integer(let id)? = fields["id"],
                      case .integer(let kind)? = fields["type"], let type = PersistentHistoryChange.ChangeType(rawValue: kind),
                      case .string(let entity)? = fields["entity"], case .integer(let key)? = fields["pk"] else {
                    throw corrupt("a change of transaction \(number) lacks its ID, type, entity or key")
                }
                var change = PersistentHistoryChange(
                    changeID: id, changedObjectID: ManagedObjectID(entityName: entity, storeIdentifier: storeIdentifier, primaryKey: key),
                    changeType: type, transactionNumber: number)
                if case .array(let names)? = fields["properties"] {
                    change.updatedProperties = Set(try names.map { name in
                        guard case .string(let text) = name else { throw corrupt("a property name is not a string") }
                        return text
                    })
                }
                change.tombstone = try fields["tombstone"].map { try Self.values($0, corrupt) }
                change.oldValues = try fields["old"].map { try Self.values($0, corrupt) }
                change.newValues = try fields["new"].map { try Self.values($0, corrupt) }
                changes.append(change)
            }
            transactions.append(PersistentHistoryTransaction(
                transactionNumber: number, storeIdentifier: storeIdentifier, timestamp: timestamp,
                author: entry["author"]?.stringValue, contextName: entry["contextName"]?.stringValue,
                processIdentifier: entry["process"]?.stringValue, bundleIdentifier: entry["bundle"]?.stringValue,
                changes: changes))
        }
    }

    private static func propertyList(of transaction: PersistentHistoryTransaction) -> PropertyListValue {
        var entry: [String: PropertyListValue] = [
            "number": .integer(transaction.transactionNumber), "timestamp": .date(transaction.timestamp),
            "changes": .array((transaction.changes ?? []).map(propertyList(of:))),
        ]
        entry["author"] = transaction.author.map(PropertyListValue.string)
        entry["contextName"] = transaction.contextName.map(PropertyListValue.string)
        entry["process"] = transaction.processIdentifier.map(PropertyListValue.string)
        entry["bundle"] = transaction.bundleIdentifier.map(PropertyListValue.string)
        return .dictionary(entry)
    }

    private static func propertyList(of change: PersistentHistoryChange) -> PropertyListValue {
        var fields: [String: PropertyListValue] = [
            "id": .integer(change.changeID), "type": .integer(change.changeType.rawValue),
            "entity": .string(change.changedObjectID.entityName), "pk": .integer(change.changedObjectID.primaryKey ?? 0),
        ]
        fields["properties"] = change.updatedProperties.map { .array($0.sorted().map(PropertyListValue.string)) }
        fields["tombstone"] = change.tombstone.map(propertyList(of:))
        fields["old"] = change.oldValues.map(propertyList(of:))
        fields["new"] = change.newValues.map(propertyList(of:))
        return .dictionary(fields)
    }

    /// Attribute values by name as a property-list dictionary of `[tag, value]` pairs (exact:
    /// numbers by their bits, IDs by their URIs).
    public static func propertyList(of values: [String: AttributeValue]) -> PropertyListValue {
        .dictionary(values.mapValues { value in
            switch value {
            case .integer(let v): .array([.string("i"), .integer(v)])
            case .decimal(let v): .array([.string("m"), .string(v.description)])
            case .double(let v): .array([.string("d"), .integer(Int64(bitPattern: v.bitPattern))])
            case .float(let v): .array([.string("f"), .integer(Int64(v.bitPattern))])
            case .string(let v): .array([.string("s"), .string(v)])
            case .boolean(let v): .array([.string("b"), .bool(v)])
            case .date(let v): .array([.string("t"), .integer(Int64(bitPattern: v.timeIntervalSinceReferenceDate.bitPattern))])
            case .binary(let v): .array([.string("x"), .data(v)])
            case .uuid(let v): .array([.string("u"), .string(v.uuidString)])
            case .uri(let v): .array([.string("r"), .string(v.absoluteString)])
            case .objectID(let v): .array([.string("o"), .string(v.uriRepresentation.absoluteString)])
            }
        })
    }

    /// Reads values written by ``propertyList(of:)-(Dictionary<String,AttributeValue>)``.
    ///
    /// - Throws: ``StoreError/corruptStore(file:offset:reason:)`` naming `file`.
    public static func values(fromPropertyList value: PropertyListValue, file: String) throws -> [String: AttributeValue] {
        try values(value) { .corruptStore(file: file, offset: nil, reason: "persistent history: \($0)") }
    }

    private static func values(_ value: PropertyListValue, _ corrupt: (String) -> StoreError) throws -> [String: AttributeValue] {
        guard case .dictionary(let entries) = value else { throw corrupt("values are not a dictionary") }
        return try entries.mapValues { item in
            guard case .array(let pair) = item, pair.count == 2, case .string(let tag) = pair[0] else {
                throw corrupt("a value is not a [tag, value] pair")
            }
            let decoded: AttributeValue? = switch (tag, pair[1]) {
            case ("i", .integer(let v)): .integer(v)
            case ("m", .string(let v)): Decimal(string: v, locale: Locale(identifier: "en_US_POSIX")).map(AttributeValue.decimal)
            case ("d", .integer(let v)): .double(Double(bitPattern: UInt64(bitPattern: v)))
            case ("f", .integer(let v)): UInt32(exactly: v).map { .float(Float(bitPattern: $0)) }
            case ("s", .string(let v)): .string(v)
            case ("b", .bool(let v)): .boolean(v)
            case ("t", .integer(let v)): .date(Date(timeIntervalSinceReferenceDate: Double(bitPattern: UInt64(bitPattern: v))))
            case ("x", .data(let v)): .binary(v)
            case ("u", .string(let v)): UUID(uuidString: v).map(AttributeValue.uuid)
            case ("r", .string(let v)): URL(string: v).map(AttributeValue.uri)
            case ("o", .string(let v)): URL(string: v).flatMap(ManagedObjectID.init(parsing:)).map(AttributeValue.objectID)
            default: nil
            }
            guard let decoded else { throw corrupt("a value tagged '\(tag)' cannot be read") }
            return decoded
        }
    }
}
