import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

#if canImport(Glibc)
private let systemWrite = Glibc.write
#elseif canImport(Musl)
private let systemWrite = Musl.write
#elseif canImport(Darwin)
private let systemWrite = Darwin.write
#endif

/// Writes a file so that a crash at any moment leaves either the old file or the new one,
/// never a mix: the bytes go to a temporary file in the same folder, which is flushed to disk
/// (`fsync`), renamed over the old file, and the folder is flushed too.
@_spi(StoreImplementation)
public enum AtomicFileWriter {
    /// Replaces the file at `url` with `data`, crash-safely.
    ///
    /// - Throws: ``StoreError/io(file:operation:reason:)`` naming the step that failed; the old
    ///   file is then untouched and no temporary file is left behind.
    public static func write(_ data: Data, to url: URL) throws {
        let folder = url.deletingLastPathComponent()
        let temporary = folder.appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp")
        // One atomic load when no test injects a fault: nothing measurable next to the fsync.
        let fault = WriteFaults.fault(for: url)
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw failure(url, "creating the temporary file") }
        var closed = false
        defer {
            if !closed { close(descriptor) }
        }
        do {
            try data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
                guard let base = buffer.baseAddress else { return }
                var offset = 0
                while offset < buffer.count {
                    let written = fault == nil
                        ? systemWrite(descriptor, base + offset, buffer.count - offset)
                        : WriteFaults.write(descriptor, base + offset, buffer.count - offset, offset: offset, fault: fault)
                    if written < 0 {
                        if errno == EINTR { continue }
                        throw failure(url, "writing")
                    }
                    offset += written
                }
            }
            guard WriteFaults.failing(fault, .fsync) ?? fsync(descriptor) == 0 else { throw failure(url, "fsync") }
            closed = true
            guard close(descriptor) == 0 else { throw failure(url, "closing the temporary file") }
            guard WriteFaults.failing(fault, .rename) ?? rename(temporary.path, url.path) == 0 else {
                throw failure(url, "renaming the temporary file into place")
            }
        } catch {
            unlink(temporary.path)
            throw error
        }
        let folderDescriptor = open(folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folderDescriptor >= 0 {
            defer { close(folderDescriptor) }
            guard fsync(folderDescriptor) == 0 else { throw failure(url, "fsync folder") }
        }
    }

    /// Reads a whole file, with a typed error.
    public static func read(_ url: URL) throws -> Data {
        do {
            return try Data(contentsOf: url, options: [.mappedIfSafe])
        } catch {
            throw StoreError.io(file: url.path, operation: "read", reason: "\(error.localizedDescription)")
        }
    }

    private static func failure(_ url: URL, _ operation: String) -> StoreError {
        .io(file: url.path, operation: operation, reason: String(cString: strerror(errno)))
    }
}
