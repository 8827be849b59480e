internal import CZlib
import Foundation
@_spi(StoreImplementation) import StrataCore

/// zlib compression, CRC-32 and the bounds that keep hostile sizes from allocating.
enum Deflate {
    /// The largest expansion a reader accepts beyond ``ratioFreeSize``: 100 inflated bytes per
    /// stored byte. Deflate can expand about 1032 times, so a 1 MB file could otherwise make a
    /// reader allocate 1 GB; real payloads compress 3 to 20 times. A writer stores a payload
    /// that compresses better than this uncompressed instead (docs/formats/binary.md).
    static let maximumRatio = 100
    /// Inflated sizes up to this many bytes (64 MiB) are accepted whatever the ratio.
    static let ratioFreeSize = 64 << 20

    /// The most bytes `compressedCount` stored bytes may declare to inflate to.
    static func maximumInflatedSize(of compressedCount: Int) -> Int {
        let (scaled, overflow) = compressedCount.multipliedReportingOverflow(by: maximumRatio)
        return overflow ? Int.max : max(scaled, ratioFreeSize)
    }

    /// zlib's fastest level: an atomic store writes its whole file on every save, and level 1
    /// takes half the time of the default level 6 for about 5 % more bytes (docs/performance.md).
    static let level: Int32 = 1

    static func compress(_ input: [UInt8]) throws -> [UInt8] {
        var outputCount = compressBound(uLong(input.count))
        var output = [UInt8](repeating: 0, count: Int(outputCount))
        let status = output.withUnsafeMutableBufferPointer { out in
            input.withUnsafeBufferPointer { source in
                compress2(out.baseAddress, &outputCount, source.baseAddress, uLong(source.count), level)
            }
        }
        guard status == Z_OK else { throw StoreError.io(file: "", operation: "compress", reason: "zlib status \(status)") }
        output.removeSubrange(Int(outputCount)...)
        return output
    }

    /// Inflates exactly `expectedCount` bytes or throws: refused before anything is allocated
    /// when `expectedCount` is beyond ``maximumInflatedSize(of:)``, and inflated in steps whose
    /// buffer grows with what the data really inflates to, so a declared size the data does not
    /// reach costs only what it does reach.
    static func decompress(_ input: ArraySlice<UInt8>, expectedCount: Int, file: String, offset: Int) throws -> [UInt8] {
        guard expectedCount <= maximumInflatedSize(of: input.count) else {
            throw StoreError.corruptStore(file: file, offset: offset, reason: inflationRefusal(expectedCount, input.count))
        }
        var stream = z_stream()
        guard inflateInit_(&stream, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw StoreError.io(file: file, operation: "inflate", reason: "zlib cannot start inflating")
        }
        defer { inflateEnd(&stream) }
        // A first buffer of what the data most likely inflates to (a few times its size),
        // doubled as needed, never past the declared size.
        var output = [UInt8](repeating: 0, count: min(expectedCount, max(input.count * 4, 1 << 16)))
        var produced = 0
        var status = Z_OK
        input.withUnsafeBufferPointer { source in
            stream.next_in = UnsafeMutablePointer(mutating: source.baseAddress)
            stream.avail_in = uInt(source.count)
            while status == Z_OK {
                if produced == output.count {
                    // Room for one byte past the declared size, so that data inflating to more is caught.
                    guard output.count <= expectedCount else { break }
                    let grown = min(max(output.count * 2, 1 << 16), expectedCount + 1)
                    output.append(contentsOf: repeatElement(0, count: grown - output.count))
                }
                output.withUnsafeMutableBufferPointer { out in
                    stream.next_out = out.baseAddress! + produced
                    stream.avail_out = uInt(out.count - produced)
                    status = inflate(&stream, Z_NO_FLUSH)
                    produced = out.count - Int(stream.avail_out)
                }
                if status == Z_BUF_ERROR, produced == output.count { status = Z_OK }
            }
        }
        guard status == Z_STREAM_END, produced == expectedCount, stream.avail_in == 0 else {
            let reason = if produced > expectedCount {
                "compressed payload inflates to more than the declared \(expectedCount) bytes"
            } else if status == Z_STREAM_END {
                "compressed payload inflates to \(produced) bytes, not the declared \(expectedCount)"
            } else {
                "compressed payload is damaged (zlib status \(status))"
            }
            throw StoreError.corruptStore(file: file, offset: offset, reason: reason)
        }
        output.removeSubrange(produced...)
        return output
    }

    /// Why a declared inflated size is refused.
    static func inflationRefusal(_ declared: some BinaryInteger, _ stored: Int) -> String {
        "declared inflated size \(declared) bytes is more than \(maximumRatio) times the \(stored) stored bytes "
            + "(and more than \(ratioFreeSize) bytes): refused before inflating"
    }

    static func crc32<C: Collection>(_ bytes: C) -> UInt32 where C.Element == UInt8 {
        Array(bytes).withUnsafeBufferPointer { buffer in
            UInt32(CZlib.crc32(0, buffer.baseAddress, uInt(buffer.count)))
        }
    }
}
