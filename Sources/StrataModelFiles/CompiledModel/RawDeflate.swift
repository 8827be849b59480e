internal import CZlib
import Foundation

/// Compresses as raw DEFLATE (no zlib header or checksum), the way Core Data compresses the
/// compiled model it keeps in an SQLite store; ``RawInflate`` reads it back.
package enum RawDeflate {
    /// The bytes of `input` compressed at zlib's default level.
    ///
    /// - Throws: ``CompiledModelError/damagedCompression(reason:)`` when zlib fails (it does not
    ///   for any input, short of running out of memory).
    package static func deflate(_ input: Data) throws(CompiledModelError) -> Data {
        var stream = z_stream()
        // Negative window bits: raw DEFLATE, no zlib header.
        guard deflateInit2_(&stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY,
                            zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw .damagedCompression(reason: "zlib cannot start compressing")
        }
        defer { deflateEnd(&stream) }
        var source = [UInt8](input)
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(source.count))) + 16)
        let outputCount = output.count
        let status: Int32 = source.withUnsafeMutableBufferPointer { from in
            output.withUnsafeMutableBufferPointer { to in
                stream.next_in = from.baseAddress
                stream.avail_in = uInt(from.count)
                stream.next_out = to.baseAddress
                stream.avail_out = uInt(to.count)
                return CZlib.deflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else { throw .damagedCompression(reason: "zlib status \(status) while compressing") }
        return Data(output[0..<(outputCount - Int(stream.avail_out))])
    }
}
