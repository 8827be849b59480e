import Foundation
import Strata
@_spi(StoreImplementation) import StrataCore
@testable import StrataModelFiles
@_spi(StoreImplementation) import StrataSQLite
import StrataTestSupport
import Testing

/// Strata's compiled models next to Apple's: each Apple-written store's model, written again by
/// Strata, reads back as the same model with the store's recorded version hashes; and a store
/// Strata saves into keeps Apple's `Z_MODELCACHE` bytes when the model is the same.
@Suite struct CompiledModelWritingTests {
    @Test("Every Apple compiled model, written again by Strata, reads back equal with the store's hashes",
          arguments: CompiledModelTests.withModelCache)
    func appleModelsRoundTrip(_ fixture: AppleStoreFixture) throws {
        let file = try fixture.workingCopy()
        let apple = try #require(try ManagedObjectModel.compiledModel(inStoreAt: file))
        let rewritten = try CompiledModel.model(fromStoreCache: try CompiledModel.storeCache(of: apple))
        #expect(rewritten == apple)
        #expect(rewritten.entityVersionHashesByName == (try CompiledModelTests.recordedHashes(of: file)))
    }

    @Test("Saving into an Apple store with its own compiled model keeps Apple's cache bytes",
          arguments: CompiledModelTests.withModelCache)
    func appleCacheKept(_ fixture: AppleStoreFixture) throws {
        let file = try fixture.workingCopy()
        let before = try #require(try SQLiteStore.compiledModelData(at: file))
        let model = try #require(try ManagedObjectModel.compiledModel(inStoreAt: file))
        let store = try SQLiteStore(description: StoreDescription(type: .sqlite, url: file, model: model))
        try store.setMetadata(store.metadata.merging(["note": .string("saved")]) { _, new in new })
        #expect(try SQLiteStore.compiledModelData(at: file) == before)
    }

    /// Each archived object's keys, by class name, over a whole archive.
    static func keysByClass(_ archive: KeyedArchive) throws -> [String: Set<String>] {
        var keys: [String: Set<String>] = [:]
        for case .dictionary(let object) in archive.objects where object["$class"] != nil {
            keys[try archive.classes(of: object)[0], default: []].formUnion(object.keys)
        }
        return keys
    }

    @Test("Strata's archive of each Apple model uses the keys Apple's archive of it uses, class by class",
          arguments: CompiledModelTests.withModelCache)
    func sameKeysAsApple(_ fixture: AppleStoreFixture) throws {
        let file = try fixture.workingCopy()
        let content = try #require(try SQLiteStore.compiledModelData(at: file))
        let apple = try Self.keysByClass(try KeyedArchive(try RawInflate.inflate(content)))
        let model = try CompiledModel.model(fromStoreCache: content)
        let ours = try Self.keysByClass(try KeyedArchive(CompiledModel.archive(of: model)))
        let strataKeys: Set<String> = [CompiledModelWriter.writerKey, CompiledModelWriter.propertyOrderKey,
                                       CompiledModelWriter.predicateFormatKey, CompiledModelWriter.derivationTextKey]
        for (className, keys) in ours {
            guard let appleKeys = apple[className] else { continue }
            // Keys Core Data writes only for some values (NSIsOptional, NSUserInfo…) may be missing
            // from one archive; none of ours is unknown to Apple's, Strata's own keys aside.
            #expect(keys.subtracting(strataKeys).subtracting(appleKeys).isEmpty, "\(className): \(keys.subtracting(strataKeys).subtracting(appleKeys))")
        }
        #expect(Set(ours.keys).isSuperset(of: ["NSManagedObjectModel", "NSEntityDescription", "NSKnownKeysDictionary1"]))
    }

    @Test("The archived NSPredicate of each fetch request says what the model's predicate says",
          arguments: CompiledModelTests.withModelCache)
    func archivedPredicates(_ fixture: AppleStoreFixture) throws {
        let file = try fixture.workingCopy()
        let model = try #require(try ManagedObjectModel.compiledModel(inStoreAt: file))
        let archive = try KeyedArchive(CompiledModel.archive(of: model))
        for case .dictionary(let object) in archive.objects where object["$class"] != nil {
            guard try archive.classes(of: object)[0] == "NSFetchRequest",
                  let text = try archive.string(CompiledModelWriter.predicateFormatKey, in: object),
                  let predicate = object["NSPredicate"], try archive.resolve(predicate) != nil else { continue }
            let structural = try archive.predicateFormat(predicate, depth: 0)
            #expect(try ObjectPredicate(format: structural) == ObjectPredicate(format: text), "\(structural) vs \(text)")
        }
    }
}
