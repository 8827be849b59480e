import Foundation
import StrataCore

extension ModelBundle {
    /// The name of the version that wrote a store whose recorded entity version hashes
    /// (`NSStoreModelVersionHashes`) are `hashes`: the current version when it matches, else
    /// the first match in natural order; nil when no version does (the store needs a migration,
    /// or was written by a model this bundle does not hold).
    ///
    /// ```swift
    /// bundle.versionName(matchingVersionHashes: StoreMetadataKey.versionHashes(in: metadata))
    /// // "BookmarksModel 3"
    /// ```
    public func versionName(matchingVersionHashes hashes: [String: Data]) -> String? {
        if currentModel.isCompatible(withVersionHashes: hashes) { return currentVersionName }
        return versionNames.first { versions[$0]?.isCompatible(withVersionHashes: hashes) ?? false }
    }

    /// The version that wrote a store with `metadata`, as ``versionName(matchingVersionHashes:)``
    /// finds it, with its name; nil when none matches.
    public func version(matchingStoreMetadata metadata: [String: PropertyListValue]) -> (name: String, model: ManagedObjectModel)? {
        guard let name = versionName(matchingVersionHashes: StoreMetadataKey.versionHashes(in: metadata)), let model = versions[name] else { return nil }
        return (name, model)
    }
}

extension ModelBundle {
    /// Every version as a `ModelVersion`, in natural order: the chain a migration goes through
    /// (`Model`, `Model 2`, …), up to and including the current version.
    public var versionChain: [ModelVersion] {
        let names = versionNames
        let end = names.firstIndex(of: currentVersionName).map { $0 + 1 } ?? names.count
        return names[..<end].compactMap { name in versions[name].map { ModelVersion(name: name, model: $0) } }
    }

    /// The names of the versions whose hashes match a store with `metadata`, in natural order.
    public func versionNames(matchingStoreMetadata metadata: [String: PropertyListValue]) -> [String] {
        let hashes = StoreMetadataKey.versionHashes(in: metadata)
        return versionNames.filter { versions[$0]?.isCompatible(withVersionHashes: hashes) ?? false }
    }
}
