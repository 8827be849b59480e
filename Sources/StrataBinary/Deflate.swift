internal import CZlib
import Foundation
import StrataCore

/// zlib compression, CRC-32 and the bounds that keep hostile sizes from allocating.
enum Deflate {
    /// The largest expansion deflate can produce (about 1032:1), plus slack for tiny inputs.
    static func maximumInflatedSize(of compressedCount: Int) -> Int {
        compressedCount.multipliedReportingOverflow(by: 1032).overflow ? Int.max : compressedCount * 1032 + 1024
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

    /// Inflates exactly `expectedCount` bytes or throws.
    static func decompress(_ input: ArraySlice<UInt8>, expectedCount: Int, file: String, offset: Int) throws -> [UInt8] {
        guard expectedCount <= maximumInflatedSize(of: input.count) else {
            throw StoreError.corruptStore(file: file, offset: offset,
                                          reason: "declared size \(expectedCount) is impossible for \(input.count) compressed bytes")
        }
        var output = [UInt8](repeating: 0, count: expectedCount)
        var outputCount = uLong(expectedCount)
        let status = output.withUnsafeMutableBufferPointer { out in
            input.withUnsafeBufferPointer { source in
                uncompress(out.baseAddress, &outputCount, source.baseAddress, uLong(source.count))
            }
        }
        guard status == Z_OK, Int(outputCount) == expectedCount else {
            throw StoreError.corruptStore(file: file, offset: offset, reason: "compressed payload is damaged (zlib status \(status))")
        }
        return output
    }

    static func crc32<C: Collection>(_ bytes: C) -> UInt32 where C.Element == UInt8 {
        Array(bytes).withUnsafeBufferPointer { buffer in
            UInt32(CZlib.crc32(0, buffer.baseAddress, uInt(buffer.count)))
        }
    }
}
