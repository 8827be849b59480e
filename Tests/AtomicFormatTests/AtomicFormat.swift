import Foundation
import Strata
@_spi(StoreImplementation) import StrataCore
@_spi(StoreImplementation) import StrataTestSupport
import Testing

/// The atomic file formats: stores that read and write their whole image at once. Every test of
/// this target runs on each; a new atomic format joins by a case and a driver.
enum AtomicFormat: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case xml
    case binary

    /// Every atomic format, in the order tests report them.
    static let allCases: [AtomicFormat] = [.xml, .binary]

    /// The format's part of the tests.
    var driver: any AtomicFormatDriver {
        switch self {
        case .xml: XMLFormatDriver()
        case .binary: BinaryFormatDriver()
        }
    }

    /// The store type of files in this format.
    var storeType: StoreType { driver.storeType }

    /// A file name in this format.
    func fileName(_ base: String) -> String { "\(base).\(rawValue)" }

    var testDescription: String { rawValue }
}

/// What the shared tests need from one atomic format: the bytes of an image, decoding bytes held
/// in memory, and the ways its files are damaged.
protocol AtomicFormatDriver: Sendable {
    /// The store type of files in this format.
    var storeType: StoreType { get }
    /// The format's reader and writer.
    var format: any AtomicStoreFormat { get }
    /// Reads only the metadata of a file.
    func readMetadata(from url: URL) throws -> [String: PropertyListValue]
    /// The bytes of a file holding `image` as the writer lays them out (without the compiled
    /// model that `write` adds to the metadata).
    func encode(_ image: StoreImage, model: ManagedObjectModel) throws -> [UInt8]
    /// Decodes the bytes of a whole file; errors name `file`.
    func decode(_ bytes: [UInt8], file: String, model: ManagedObjectModel) throws -> StoreImage
    /// What an outside checker of the format (xmllint) finds wrong with a written file; nil
    /// when nothing, or when there is no checker.
    func fileProblem(at url: URL) throws -> String?

    /// The most bytes the small pets store may take: the truncation and bit-flip tests go over
    /// every byte of it.
    var smallStoreLimit: Int { get }
    /// Whether a file cut short before `rest` may still read as the whole image (XML: when only
    /// trailing whitespace is cut).
    func mayStillDecode(withoutTrailing rest: ArraySlice<UInt8>) -> Bool
    /// The bit-flip test flips all 8 bits of every `bitFlipStride`th byte.
    var bitFlipStride: Int { get }
    /// Whether every single-bit flip must be refused (a checksummed format), or a flip may
    /// decode to some image (a text format).
    var refusesEveryBitFlip: Bool { get }
    /// Whether an entity the model lacks is refused as a model mismatch (XML) rather than as a
    /// corrupt file (binary).
    var refusesUnknownEntityAsModelMismatch: Bool { get }

    /// `bytes` with the objects damaged and the metadata left intact.
    func damagingObjects(_ bytes: [UInt8]) throws -> [UInt8]
    /// Damaged and hostile files, some made from the bytes of the small pets store.
    func hostileFiles(small: [UInt8]) -> [HostileFile]
}

/// A file a reader must refuse.
struct HostileFile {
    /// What is wrong with it.
    var name: String
    /// Its bytes.
    var bytes: [UInt8]
    /// Whether the damage reaches the metadata, so that reading the metadata alone must fail
    /// too (otherwise it may fail, or give the store's real metadata).
    var damagesMetadata: Bool
}
