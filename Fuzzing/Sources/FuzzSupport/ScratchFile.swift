import Foundation

/// The one file a store-reader target writes each input to before reading it, since the store
/// readers read files. It lives in `/dev/shm` where there is one (a file in memory), else in
/// the temporary folder, and is named after the process so that targets run side by side.
public enum ScratchFile {
    /// The file's URL.
    public static let url: URL = {
        let folder = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        return URL(fileURLWithPath: folder).appendingPathComponent("strata-fuzz-\(getpid())")
    }()

    /// Writes `bytes` to the file and returns its URL.
    public static func write(_ bytes: UnsafeRawBufferPointer) -> URL {
        do {
            try Data(bytes).write(to: url)
        } catch {
            fatalError("ScratchFile: cannot write \(url.path): \(error)")
        }
        return url
    }
}

/// The bytes libFuzzer hands `LLVMFuzzerTestOneInput`, as a buffer.
public func fuzzInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> UnsafeRawBufferPointer {
    guard let data, size > 0 else { return UnsafeRawBufferPointer(start: nil, count: 0) }
    return UnsafeRawBufferPointer(start: data, count: size)
}
