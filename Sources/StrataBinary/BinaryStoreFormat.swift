import Foundation
@_spi(StoreImplementation) import StrataCore

/// Strata's compressed binary store file (`docs/formats/binary.md`): a checked header, the
/// metadata uncompressed (so it can be read alone), and the objects deflate-compressed.
@_spi(StoreImplementation) public struct BinaryStoreFormat: AtomicStoreFormat {
    /// The format version this build writes and reads.
    public static let formatVersion: UInt16 = 1
    /// The size of the fixed header.
    static let headerSize = 44
    /// Flag bit: the payload is deflate-compressed.
    static let compressedFlag: UInt16 = 1
    /// Flags a reader must understand (bits 0–7); bits 8–15 are optional features a reader may
    /// ignore.
    static let requiredFlagsMask: UInt16 = 0x00FF

    /// Creates the format.
    public init() {}

    // MARK: Writing

    @_spi(StoreImplementation) public func write(_ image: StoreImage, to url: URL, model: ManagedObjectModel) throws {
        try AtomicFileWriter.write(Data(try encode(image, model: model)), to: url)
    }

    /// The whole file for `image`; with `model`, its metadata keeps the model's compiled form
    /// (see ``StoreImage/metadata(withCompiledModelOf:)``).
    func encode(_ image: StoreImage, model: ManagedObjectModel? = nil) throws -> [UInt8] {
        var metadata = ByteWriter()
        metadata.string(image.identifier)
        metadata.plist(.dictionary(try model.map(image.metadata(withCompiledModelOf:)) ?? image.metadata))

        var payload = ByteWriter()
        var strings: [String] = []
        var index: [String: Int] = [:]
        func intern(_ string: String) -> Int {
            if let existing = index[string] { return existing }
            index[string] = strings.count
            strings.append(string)
            return strings.count - 1
        }
        var body = ByteWriter()
        let roots = image.nextPrimaryKeys.keys.sorted()
        body.count(roots.count)
        for root in roots {
            body.count(intern(root))
            body.varint(UInt64(max(1, image.nextPrimaryKeys[root] ?? 1)))
        }
        let objects = image.orderedObjects
        body.count(objects.count)
        for (written, object) in objects.enumerated() {
            StoreProgress.report(.writing, done: written, total: objects.count)
            body.count(intern(object.objectID.entityName))
            body.varint(UInt64(object.objectID.primaryKey ?? 0))
            body.varint(UInt64(bitPattern: object.version))
            let attributes = object.attributes.keys.sorted()
            body.count(attributes.count)
            for name in attributes {
                body.count(intern(name))
                if let value = object.attributes[name] { body.value(value) }
            }
            let toOnes = object.toOne.keys.sorted()
            body.count(toOnes.count)
            for name in toOnes {
                guard let destination = object.toOne[name] else { continue }
                body.count(intern(name))
                body.count(intern(destination.entityName))
                body.varint(UInt64(destination.primaryKey ?? 0))
            }
            let toManys = object.toMany.keys.sorted()
            body.count(toManys.count)
            for name in toManys {
                let destinations = object.toMany[name] ?? []
                body.count(intern(name))
                body.count(destinations.count)
                for destination in destinations {
                    body.count(intern(destination.entityName))
                    body.varint(UInt64(destination.primaryKey ?? 0))
                }
            }
        }
        payload.count(strings.count)
        for string in strings { payload.string(string) }
        payload.append(body.bytes)

        // A payload that compresses past the ratio a reader accepts is stored as it is.
        let deflated = try Deflate.compress(payload.bytes)
        let storesCompressed = payload.bytes.count <= Deflate.maximumInflatedSize(of: deflated.count)
        let compressed = storesCompressed ? deflated : payload.bytes
        var header = ByteWriter()
        header.append(StoreType.binaryMagic)
        header.fixed(Self.formatVersion)
        header.fixed(storesCompressed ? Self.compressedFlag : 0)
        header.fixed(UInt32(metadata.bytes.count))
        header.fixed(Deflate.crc32(metadata.bytes))
        header.fixed(UInt64(compressed.count))
        header.fixed(UInt64(payload.bytes.count))
        header.fixed(Deflate.crc32(compressed))
        header.fixed(Deflate.crc32(header.bytes))
        return header.bytes + metadata.bytes + compressed
    }

    // MARK: Reading

    @_spi(StoreImplementation) public func read(from url: URL, model: ManagedObjectModel) throws -> StoreImage {
        try decode([UInt8](AtomicFileWriter.read(url)), file: url.path, model: model)
    }

    /// The UUID and metadata of the file at `url`, without inflating or reading the objects.
    /// The store's UUID is the metadata's `NSStoreUUID`, whether or not the metadata repeats it.
    public static func readMetadata(from url: URL) throws -> [String: PropertyListValue] {
        let bytes = [UInt8](try AtomicFileWriter.read(url))
        let header = try Header(bytes, file: url.path)
        let image = try header.metadata(bytes, file: url.path)
        var metadata = image.metadata
        metadata[StoreMetadataKey.storeUUID] = .string(image.identifier)
        return metadata
    }

    func decode(_ bytes: [UInt8], file: String, model: ManagedObjectModel) throws -> StoreImage {
        let header = try Header(bytes, file: file)
        var image = try header.metadata(bytes, file: file)

        let payloadStart = Self.headerSize + header.metadataLength
        let stored = bytes[payloadStart..<payloadStart + header.payloadLength]
        guard Deflate.crc32(stored) == header.payloadCRC else {
            throw StoreError.corruptStore(file: file, offset: payloadStart, reason: "payload checksum mismatch")
        }
        let compressed = header.flags & Self.compressedFlag != 0
        let payload = compressed
            ? try Deflate.decompress(stored, expectedCount: header.uncompressedLength, file: file, offset: payloadStart)
            : Array(stored)
        // Offsets name bytes of the file; inside an inflated payload they count from its start.
        var reader = ByteReader(payload, file: file, base: compressed ? 0 : payloadStart)
        try PayloadDecoder(model: model, storeIdentifier: image.identifier).decode(&reader, into: &image)
        return image
    }

    /// The fixed header, checked.
    struct Header {
        var flags: UInt16 = 0
        var metadataLength = 0
        var metadataCRC: UInt32 = 0
        var payloadLength = 0
        var uncompressedLength = 0
        var payloadCRC: UInt32 = 0

        init(_ bytes: [UInt8], file: String) throws {
            var reader = ByteReader(bytes, file: file)
            guard bytes.count >= BinaryStoreFormat.headerSize else {
                if !bytes.starts(with: StoreType.binaryMagic.prefix(bytes.count)) {
                    throw reader.corrupt("not a Strata binary store (wrong magic)", at: 0)
                }
                throw reader.corrupt("file is \(bytes.count) bytes, shorter than the \(BinaryStoreFormat.headerSize)-byte header")
            }
            guard bytes.starts(with: StoreType.binaryMagic) else {
                throw reader.corrupt("not a Strata binary store (wrong magic)", at: 0)
            }
            guard Deflate.crc32(bytes[0..<40]) == UInt32(bytes[40]) | UInt32(bytes[41]) << 8 | UInt32(bytes[42]) << 16 | UInt32(bytes[43]) << 24 else {
                throw reader.corrupt("header checksum mismatch", at: 40)
            }
            for _ in 0..<8 { _ = try reader.u8() }
            let version = try reader.fixed(UInt16.self)
            guard version == BinaryStoreFormat.formatVersion else {
                throw reader.corrupt("unknown format version \(version) (this build reads version \(BinaryStoreFormat.formatVersion))", at: 8)
            }
            flags = try reader.fixed(UInt16.self)
            let unknown = flags & BinaryStoreFormat.requiredFlagsMask & ~BinaryStoreFormat.compressedFlag
            guard unknown == 0 else { throw reader.corrupt("unknown required feature flags 0x\(String(unknown, radix: 16))", at: 10) }
            metadataLength = Int(try reader.fixed(UInt32.self))
            metadataCRC = try reader.fixed(UInt32.self)
            let payload64 = try reader.fixed(UInt64.self)
            let uncompressed64 = try reader.fixed(UInt64.self)
            payloadCRC = try reader.fixed(UInt32.self)
            let available = UInt64(bytes.count - BinaryStoreFormat.headerSize)
            guard UInt64(metadataLength) <= available, payload64 == available - UInt64(metadataLength) else {
                throw reader.corrupt(
                    "declared sections (\(metadataLength) + \(payload64) bytes) do not match the file's \(available) bytes after the header",
                    at: 12)
            }
            payloadLength = Int(payload64)
            guard uncompressed64 <= UInt64(Deflate.maximumInflatedSize(of: payloadLength)) else {
                throw reader.corrupt(Deflate.inflationRefusal(uncompressed64, payloadLength), at: 28)
            }
            uncompressedLength = Int(uncompressed64)
        }

        /// Reads the metadata section into an image with no objects.
        func metadata(_ bytes: [UInt8], file: String) throws -> StoreImage {
            let start = BinaryStoreFormat.headerSize
            let section = Array(bytes[start..<start + metadataLength])
            guard Deflate.crc32(section) == metadataCRC else {
                throw StoreError.corruptStore(file: file, offset: start, reason: "metadata checksum mismatch")
            }
            var reader = ByteReader(section, file: file, base: start)
            let identifier = try reader.string()
            guard case .dictionary(let metadata) = try reader.plist() else {
                throw reader.corrupt("metadata is not a dictionary")
            }
            return StoreImage(identifier: identifier, metadata: metadata)
        }
    }
}
