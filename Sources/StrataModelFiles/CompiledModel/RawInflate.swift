internal import CZlib
import Foundation

/// Inflates raw DEFLATE data (no zlib header or checksum), as Core Data compresses the compiled
/// model it keeps in an SQLite store, with a bound on the inflated size.
package enum RawInflate {
    /// The most bytes a compiled model may inflate to: far beyond any real model (a few
    /// kilobytes to a few hundred), small enough that a hostile blob cannot exhaust memory.
    package static let maximumInflatedSize = 64 << 20
    /// The most inflated bytes per compressed byte, past ``ratioFreeSize``: 100. Keyed
    /// archives compress 5 to 20 times; deflate alone could expand about 1032 times.
    package static let maximumRatio = 100
    /// Blobs may inflate to this many bytes (4 MiB) whatever their ratio.
    package static let ratioFreeSize = 4 << 20

    /// The bound for `compressedCount` bytes: 100 times as many, at least 4 MiB, at most 64 MiB.
    package static func limit(forCompressed compressedCount: Int) -> Int {
        let (scaled, overflow) = compressedCount.multipliedReportingOverflow(by: maximumRatio)
        return overflow ? maximumInflatedSize : min(maximumInflatedSize, max(ratioFreeSize, scaled))
    }

    /// The status the loop below stops with when the output passes the limit (no zlib status).
    private static let tooLarge: Int32 = .min

    /// The bytes `compressed` inflates to.
    ///
    /// - Throws: ``CompiledModelError/damagedCompression(reason:)`` when the data is not raw
    ///   DEFLATE, ends early, has bytes after its end, or inflates past `limit` (by default
    ///   ``limit(forCompressed:)``), which is found as the output passes it, in 64 KiB steps.
    package static func inflate(_ compressed: Data, limit given: Int? = nil) throws(CompiledModelError) -> Data {
        guard !compressed.isEmpty else { throw .damagedCompression(reason: "it is empty") }
        let limit = given ?? Self.limit(forCompressed: compressed.count)
        var stream = z_stream()
        // Negative window bits: raw DEFLATE, no zlib header.
        guard inflateInit2_(&stream, -15, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw .damagedCompression(reason: "zlib cannot start inflating")
        }
        defer { inflateEnd(&stream) }
        var input = [UInt8](compressed)
        var output = Data()
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        let inputCount = input.count
        let status: Int32 = input.withUnsafeMutableBufferPointer { source in
            stream.next_in = source.baseAddress
            stream.avail_in = uInt(inputCount)
            while true {
                let result: Int32 = chunk.withUnsafeMutableBufferPointer { buffer in
                    stream.next_out = buffer.baseAddress
                    stream.avail_out = uInt(buffer.count)
                    return CZlib.inflate(&stream, Z_NO_FLUSH)
                }
                let produced = chunk.count - Int(stream.avail_out)
                output.append(contentsOf: chunk[0..<produced])
                guard output.count <= limit else { return tooLarge }
                switch result {
                case Z_STREAM_END: return Z_STREAM_END
                case Z_OK where produced > 0 || stream.avail_in > 0: continue
                case Z_OK: return Z_BUF_ERROR
                default: return result
                }
            }
        }
        switch status {
        case Z_STREAM_END:
            guard stream.avail_in == 0 else {
                throw .damagedCompression(reason: "\(stream.avail_in) bytes follow the end of the compressed data")
            }
            return output
        case tooLarge:
            throw .damagedCompression(reason: "it inflates past \(limit) bytes")
        case Z_BUF_ERROR:
            throw .damagedCompression(reason: "the compressed data ends early (after \(output.count) inflated bytes)")
        default:
            let message = stream.msg.map { String(cString: $0) } ?? "zlib status \(status)"
            throw .damagedCompression(reason: "\(message) at compressed byte \(inputCount - Int(stream.avail_in))")
        }
    }
}
