import Foundation
import Strata
@_spi(StoreImplementation) import StrataCore
@_spi(StoreImplementation) import StrataTestSupport
import Testing

// A guard against a hang, longer than a whole sanitizer run (docs/testing.md says why).
/// Every atomic format refuses damaged files with a typed error naming the file and a place in
/// it, never crashes or hangs, and never changes a file it cannot read.
@Suite("Atomic store formats: hostile files", .timeLimit(.minutes(30)))
struct AtomicFormatHostileFileTests {
    let model: ManagedObjectModel

    init() throws {
        model = try PetsModel.make()
    }

    /// The small pets store (``PetsModel/image(identifier:)``) stamped for the format, and its bytes.
    private func smallStore(_ format: AtomicFormat) throws -> (image: StoreImage, bytes: [UInt8]) {
        var image = PetsModel.image()
        image.stampMetadata(type: format.storeType, model: model)
        return (image, try format.driver.encode(image, model: model))
    }

    private static func path(_ format: AtomicFormat) -> String { "/hostile/\(format.fileName("pets"))" }

    private func decode(_ bytes: [UInt8], _ format: AtomicFormat) -> ReadOutcome {
        ReadOutcome { try format.driver.decode(bytes, file: Self.path(format), model: model) }
    }

    /// What is wrong with an outcome that should be a refusal naming the file and a place in
    /// its `size` bytes; nil when it is as it should be.
    private func problem(_ outcome: ReadOutcome, _ format: AtomicFormat, size: Int) -> String? {
        outcome.refusalProblem(file: Self.path(format), fileSize: size,
                               allowsModelMismatch: format.driver.refusesUnknownEntityAsModelMismatch)
    }

    @Test("the small store is small and decodes to its image", arguments: AtomicFormat.allCases)
    func baseline(format: AtomicFormat) throws {
        let (image, bytes) = try smallStore(format)
        #expect(bytes.count < format.driver.smallStoreLimit)
        guard case .decoded(let decoded) = decode(bytes, format) else {
            Issue.record("the small store does not decode")
            return
        }
        #expect(decoded.objects.count == 4)
        #expect(Identical.differences(image, decoded).isEmpty, "\(Identical.differences(image, decoded))")
    }

    @Test("truncated at every length: an error, or (where the format allows it) the same image", arguments: AtomicFormat.allCases)
    func truncation(format: AtomicFormat) throws {
        let (image, full) = try smallStore(format)
        var problems: [String] = []
        for length in 0..<full.count {
            switch decode(Array(full.prefix(length)), format) {
            case .decoded(let decoded):
                if !Identical.differences(image, decoded).isEmpty || !format.driver.mayStillDecode(withoutTrailing: full[length...]) {
                    problems.append("length \(length) decoded to another image")
                }
            case let outcome:
                if let problem = problem(outcome, format, size: length) { problems.append("length \(length): \(problem)") }
            }
        }
        #expect(problems.isEmpty, "\(problems.count) truncations: \(problems.prefix(10).joined(separator: "; "))")
    }

    @Test("bit flips, all 8 bits of a byte: a typed error (or, in a text format, an image), never a crash",
          arguments: AtomicFormat.allCases)
    func bitFlips(format: AtomicFormat) throws {
        let driver = format.driver
        let small = try smallStore(format).bytes
        var bytes = small
        var problems: [String] = []
        var errors = 0
        for index in stride(from: 0, to: bytes.count, by: driver.bitFlipStride) {
            for bit in 0..<8 {
                bytes[index] ^= 1 << bit
                switch decode(bytes, format) {
                case .decoded:
                    if driver.refusesEveryBitFlip { problems.append("byte \(index) bit \(bit): decoded") }
                case let outcome:
                    errors += 1
                    if let problem = problem(outcome, format, size: bytes.count) {
                        problems.append("byte \(index) bit \(bit): \(problem)")
                    }
                }
                bytes[index] ^= 1 << bit
            }
        }
        #expect(bytes == small)
        #expect(problems.isEmpty, "\(problems.count) flips: \(problems.prefix(10).joined(separator: "; "))")
        #expect(errors > 0)
    }

    @Test("hostile files opened through the coordinator throw and are left untouched", arguments: AtomicFormat.allCases)
    func throughTheCoordinator(format: AtomicFormat) throws {
        let folder = try TemporaryFolder.make()
        defer { try? FileManager.default.removeItem(at: folder) }
        for (index, hostile) in format.driver.hostileFiles(small: try smallStore(format).bytes).enumerated() {
            let url = folder.appendingPathComponent(format.fileName("hostile-\(index)"))
            try Data(hostile.bytes).write(to: url)
            let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
            do {
                try coordinator.addPersistentStore(type: format.storeType, at: url)
                Issue.record("\(hostile.name): the store opened")
            } catch let StoreError.corruptStore(file, _, _) {
                #expect(file == url.path, "\(hostile.name)")
            } catch let StoreError.invalidStoredValue(problem) {
                #expect(problem.file == url.path, "\(hostile.name)")
            } catch let StoreError.incompatibleModel(file, _) where format.driver.refusesUnknownEntityAsModelMismatch {
                #expect(file == url.path, "\(hostile.name)")
            } catch {
                Issue.record("\(hostile.name): expected StoreError.corruptStore, got \(error)")
            }
            #expect(coordinator.persistentStores.isEmpty, "\(hostile.name)")
            #expect(try Data(contentsOf: url) == Data(hostile.bytes), "\(hostile.name): the file was changed")
        }
    }

    @Test("the metadata of hostile files: a typed error naming the file, or the store's real metadata",
          arguments: AtomicFormat.allCases)
    func metadataOfHostileFiles(format: AtomicFormat) throws {
        let folder = try TemporaryFolder.make()
        defer { try? FileManager.default.removeItem(at: folder) }
        for hostile in format.driver.hostileFiles(small: try smallStore(format).bytes) {
            let url = folder.appendingPathComponent(format.fileName("hostile"))
            try Data(hostile.bytes).write(to: url)
            let readers: [(String, () throws -> [String: PropertyListValue])] = [
                ("readMetadata", { try format.driver.readMetadata(from: url) }),
                ("the coordinator", { try PersistentStoreCoordinator.metadataForPersistentStore(ofType: format.storeType, at: url) }),
            ]
            for (reader, read) in readers {
                do {
                    let metadata = try read()
                    // The damage may lie after the metadata; then the metadata is the real one.
                    #expect(!hostile.damagesMetadata, "\(hostile.name), \(reader): the metadata read")
                    #expect(metadata[StoreMetadataKey.storeUUID] == .string("PETS-STORE"), "\(hostile.name), \(reader)")
                } catch let StoreError.corruptStore(file, _, _) {
                    #expect(file == url.path, "\(hostile.name), \(reader)")
                } catch {
                    Issue.record("\(hostile.name), \(reader): \(error)")
                }
            }
        }
    }
}
