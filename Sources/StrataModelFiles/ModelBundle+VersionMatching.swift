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
