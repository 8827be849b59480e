import Foundation

/// The on-disk cache of a fetched results controller's results: one file per cache name in
/// ``FetchedResultsController/cacheDirectory``, holding the results' object IDs (URIs), their sort
/// keys, the sections' names and sizes, and a fingerprint of what they were computed from.
///
/// The fingerprint covers the request (entity, predicate, sort descriptors, range, stores,
/// sub-entities), the section name key path, the model's version hashes, and each store's
/// identifier and file (size and modification time, the SQLite log's too): a change to any of
/// them makes the cache stale, and a stale cache is computed again and overwritten. A controller
/// that reports a change deletes its cache file, since the results it holds then differ.
enum FetchedResultsCache {
    private static let configuredDirectory = LockedValue<URL?>(nil)

    /// The folder of the cache files.
    static var directory: URL {
        get {
            if let url = configuredDirectory.withLock({ $0 }) { return url }
            let base = FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask).first
                ?? FileManager.default.temporaryDirectory
            return base.appendingPathComponent("FetchedResults", isDirectory: true)
        }
        set { configuredDirectory.withLock { $0 = newValue } }
    }

    /// The file of the cache called `name`.
    static func file(_ name: String) -> URL {
        let safe = name.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "_" }
        return directory.appendingPathComponent(String(safe) + ".strataresults")
    }

    /// What a cache file holds.
    private struct Contents: Codable {
        var fingerprint: String
        var objectIDs: [String]
        var keys: [[CachedValue]]
        /// The sections' names and how many objects each holds, in order.
        var sectionNames: [String]
        var sectionCounts: [Int]
    }

    /// A sort key value as the cache writes it.
    private enum CachedValue: Codable {
        case null, bool(Bool), integer(Int64), double(Double), decimal(String), string(String)
        case date(Double), data(Data), uuid(UUID), url(URL), objectID(String)

        init?(_ value: PredicateValue) {
            switch value {
            case .null: self = .null
            case .bool(let v): self = .bool(v)
            case .integer(let v): self = .integer(v)
            case .double(let v): self = .double(v)
            case .decimal(let v): self = .decimal("\(v)")
            case .string(let v): self = .string(v)
            case .date(let v): self = .date(v.timeIntervalSinceReferenceDate)
            case .data(let v): self = .data(v)
            case .uuid(let v): self = .uuid(v)
            case .url(let v): self = .url(v)
            case .objectID(let v): self = .objectID(v.uriRepresentation.absoluteString)
            case .array: return nil
            }
        }

        func value(_ coordinator: PersistentStoreCoordinator) -> PredicateValue? {
            switch self {
            case .null: .null
            case .bool(let v): .bool(v)
            case .integer(let v): .integer(v)
            case .double(let v): .double(v)
            case .decimal(let v): Decimal(string: v, locale: Locale(identifier: "en_US_POSIX")).map(PredicateValue.decimal)
            case .string(let v): .string(v)
            case .date(let v): .date(Date(timeIntervalSinceReferenceDate: v))
            case .data(let v): .data(v)
            case .uuid(let v): .uuid(v)
            case .url(let v): .url(v)
            case .objectID(let v): URL(string: v).flatMap(coordinator.managedObjectID(forURIRepresentation:)).map(PredicateValue.objectID)
            }
        }
    }

    /// What the results of `controller` are computed from, as one string.
    static func fingerprint<T>(_ controller: FetchedResultsController<T>) -> String {
        let request = controller.fetchRequest
        let coordinator = controller.managedObjectContext.persistentStoreCoordinator
        var parts = [
            request.entityName, request.predicate?.description ?? "-",
            request.sortDescriptors.map(\.description).joined(separator: ","),
            "\(request.fetchLimit)/\(request.fetchOffset)/\(request.includesSubentities)",
            request.affectedStoreIdentifiers?.joined(separator: ",") ?? "-",
            controller.sectionNameKeyPath ?? "-",
            coordinator.managedObjectModel.versionHashesDigest.base64EncodedString(),
        ]
        for store in coordinator.persistentStores {
            parts.append(store.identifier)
            guard let url = store.url else { parts.append("memory:\(ObjectIdentifier(store).hashValue)"); continue }
            for file in [url.path, url.path + "-wal"] {
                let attributes = try? FileManager.default.attributesOfItem(atPath: file)
                let size = (attributes?[.size] as? NSNumber)?.int64Value ?? -1
                let modified = (attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
                parts.append("\(size)@\(modified)")
            }
        }
        return parts.joined(separator: "|")
    }

    /// The cached results of `controller`, or nil when there is no cache or it is stale.
    static func load<T>(name: String, for controller: FetchedResultsController<T>, order: ResultOrder,
                        groupsByFirstKey: Bool) -> ResultSections? {
        guard let data = try? Data(contentsOf: file(name)),
              let contents = try? JSONDecoder().decode(Contents.self, from: data),
              contents.fingerprint == fingerprint(controller), contents.objectIDs.count == contents.keys.count,
              contents.sectionNames.count == contents.sectionCounts.count,
              contents.sectionCounts.reduce(0, +) == contents.objectIDs.count else { return nil }
        let coordinator = controller.managedObjectContext.persistentStoreCoordinator
        // The section of each object, from the sections' sizes.
        var sectionOfObject: [Int] = []
        sectionOfObject.reserveCapacity(contents.objectIDs.count)
        for (section, count) in contents.sectionCounts.enumerated() where count >= 0 {
            sectionOfObject.append(contentsOf: repeatElement(section, count: count))
        }
        guard sectionOfObject.count == contents.objectIDs.count else { return nil }
        var valid = true
        let results = try? controller.sections(order: order, capacity: contents.objectIDs.count) { add in
            for (index, (uri, cachedKey)) in zip(contents.objectIDs, contents.keys).enumerated() {
                guard let url = URL(string: uri), let id = coordinator.managedObjectID(forURIRepresentation: url) else { valid = false; return }
                var key: [PredicateValue] = []
                for value in cachedKey {
                    guard let value = value.value(coordinator) else { valid = false; return }
                    key.append(value)
                }
                guard key.count == order.descriptors.count else { valid = false; return }
                add(id, key, contents.sectionNames[sectionOfObject[index]])
            }
        }
        guard valid, let results, results.sections.map(\.name) == (controller.sectionNameKeyPath == nil ? [""] : contents.sectionNames)
        else { return nil }
        return results
    }

    /// Writes the results of `controller` as the cache called `name`.
    ///
    /// - Throws: ``FetchedResultsError/cacheFailure(name:path:reason:)``.
    static func store<T>(name: String, for controller: FetchedResultsController<T>) throws {
        guard let results = controller.results else { return }
        var contents = Contents(fingerprint: fingerprint(controller), objectIDs: [], keys: [],
                                sectionNames: [], sectionCounts: [])
        contents.objectIDs.reserveCapacity(results.count)
        contents.keys.reserveCapacity(results.count)
        for section in results.sections {
            contents.sectionNames.append(section.name)
            contents.sectionCounts.append(section.rows.count)
            for slot in section.rows {
                let id = results.slots.id(at: slot)
                guard !id.isTemporaryID else { return }   // unsaved objects are not cached
                let key = results.slots.key(at: slot).compactMap(CachedValue.init)
                guard key.count == results.order.descriptors.count else { return }
                contents.objectIDs.append(id.uriRepresentation.absoluteString)
                contents.keys.append(key)
            }
        }
        let url = file(name)
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try JSONEncoder().encode(contents).write(to: url, options: .atomic)
        } catch {
            throw FetchedResultsError.cacheFailure(name: name, path: url.path, reason: "\(error)")
        }
    }

    /// Removes the cache called `name`, or every cache file when `name` is nil.
    static func delete(name: String?) {
        if let name {
            try? FileManager.default.removeItem(at: file(name))
            return
        }
        let files = (try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)) ?? []
        for file in files where file.pathExtension == "strataresults" { try? FileManager.default.removeItem(at: file) }
    }
}
