import Foundation
import Strata
import StrataTestSupport
import Testing

/// Damaged, truncated, random and hand-made compiled models: a ``CompiledModelError`` that names
/// what is wrong, never a crash.
@Suite struct CompiledModelErrorTests {
    /// The `Z_MODELCACHE` content of every fixture store that has one.
    static func cacheContents() throws -> [(name: String, content: Data)] {
        try CompiledModelTests.withModelCache.map { fixture in
            (fixture.testDescription, try #require(try SQLiteStore.compiledModelData(at: fixture.workingCopy())))
        }
    }

    @Test("Every truncation of every model cache is an error")
    func truncated() throws {
        for (name, content) in try Self.cacheContents() {
            for length in stride(from: 0, to: content.count, by: 5) {
                #expect(throws: CompiledModelError.self, "\(name) cut to \(length) bytes") {
                    try CompiledModel.model(fromStoreCache: content.prefix(length))
                }
            }
        }
    }

    @Test("Bytes after the compressed model, random bytes and an empty blob are errors")
    func foreignBytes() throws {
        let (_, content) = try #require(try Self.cacheContents().first)
        #expect(throws: CompiledModelError.self) { try CompiledModel.model(fromStoreCache: content + Data([0, 1, 2])) }
        #expect(throws: CompiledModelError.self) { try CompiledModel.model(fromStoreCache: Data()) }
        var random = SplitMix64(seed: 0x00C0_FFEE)
        for count in [1, 2, 16, 300, 4096] {
            let bytes = Data((0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) })
            #expect(throws: CompiledModelError.self) { try CompiledModel.model(fromStoreCache: bytes) }
            #expect(throws: CompiledModelError.self) { try CompiledModel.model(fromArchive: bytes) }
        }
    }

    @Test("Randomly damaged model caches and archives throw or read; nothing crashes")
    func damaged() throws {
        var random = SplitMix64(seed: 0x5EED_0C0D)
        var attempts = 0
        var read = 0
        for (_, content) in try Self.cacheContents() {
            let archive = try RawInflate.inflate(content)
            for round in 0..<400 {
                var bytes = Array(round.isMultiple(of: 2) ? content : archive)
                for _ in 0..<(1 + random.next() % 3) {
                    let index = Int(random.next() % UInt64(bytes.count))
                    if random.next().isMultiple(of: 2) {
                        bytes[index] ^= 1 << (random.next() % 8)
                    } else {
                        bytes[index] = UInt8(truncatingIfNeeded: random.next())
                    }
                }
                attempts += 1
                do {
                    _ = round.isMultiple(of: 2)
                        ? try CompiledModel.model(fromStoreCache: Data(bytes))
                        : try CompiledModel.model(fromArchive: Data(bytes))
                    read += 1
                } catch {
                    #expect(!error.description.isEmpty)
                }
            }
        }
        #expect(read < attempts)
    }

    @Test("The bound on inflating a cache: 100 times its size, at least 4 MiB, at most 64 MiB; real caches stay far below")
    func inflationBound() throws {
        #expect(RawInflate.limit(forCompressed: 1000) == 4 << 20)
        #expect(RawInflate.limit(forCompressed: 100_000) == 10_000_000)
        #expect(RawInflate.limit(forCompressed: 10 << 20) == 64 << 20)
        #expect(RawInflate.limit(forCompressed: .max) == 64 << 20)
        for (name, content) in try Self.cacheContents() {
            let inflated = try RawInflate.inflate(content)
            #expect(inflated.count < content.count * 20, "\(name): \(content.count) bytes inflate to \(inflated.count)")
        }
    }

    @Test("A cache that inflates past the limit is an error")
    func inflatesTooFar() throws {
        let (_, content) = try #require(try Self.cacheContents().first)
        #expect(throws: CompiledModelError.self) { try RawInflate.inflate(content, limit: 100) }
    }
}
