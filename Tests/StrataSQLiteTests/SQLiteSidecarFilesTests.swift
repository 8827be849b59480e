import Foundation
@testable import StrataSQLite
import StrataTestSupport
import Testing

/// A reading connection leaves no `-shm` behind that it had to create, but never removes one
/// another connection still uses.
@Suite("SQLite sidecar files of reading connections")
struct SQLiteSidecarFilesTests {
    /// A copy of an Apple-written store whose write-ahead log holds transactions, without its
    /// `-shm`, in a fresh folder.
    static func storeWithLogOnly() throws -> (folder: URL, path: String) {
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("AppleStoreTests/Fixtures/duckduckgo__BrowserServicesKit/Tests/BookmarksTests/Resources/Bookmarks_V3.sqlite")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sidecars-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let copy = try SQLiteStoreCopy.copy(fixture, into: folder)
        try? FileManager.default.removeItem(atPath: copy.path + "-shm")
        return (folder, copy.path)
    }

    static func names(in folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    @Test("a read-only connection removes the -shm it made when it closes, and leaves the log as it was")
    func removesWhatItMade() throws {
        let (folder, path) = try Self.storeWithLogOnly()
        defer { try? FileManager.default.removeItem(at: folder) }
        let before = try Self.names(in: folder)
        let log = try Data(contentsOf: URL(fileURLWithPath: path + "-wal"))
        #expect(SQLiteStore.readingMode(path: path).isReadOnly)
        do {
            let connection = try SQLiteConnection(path: path, mode: .readOnly)
            #expect(try connection.scalar("SELECT count(*) FROM ZBOOKMARKENTITY") == .integer(10))
            #expect(FileManager.default.fileExists(atPath: path + "-shm"), "SQLite read the log without a -shm")
        }
        #expect(try Self.names(in: folder) == before)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path + "-wal")) == log)
    }

    @Test("the -shm stays while another connection of the process reads, and goes with the last")
    func keptWhileInUse() throws {
        let (folder, path) = try Self.storeWithLogOnly()
        defer { try? FileManager.default.removeItem(at: folder) }
        var first: SQLiteConnection? = try SQLiteConnection(path: path, mode: .readOnly)
        var second: SQLiteConnection? = try SQLiteConnection(path: path, mode: .readOnly)
        _ = try first?.scalar("SELECT count(*) FROM ZBOOKMARKENTITY")
        _ = try second?.scalar("SELECT count(*) FROM ZBOOKMARKENTITY")
        first = nil
        #expect(FileManager.default.fileExists(atPath: path + "-shm"), "removed while another connection used it")
        #expect(try second?.scalar("SELECT count(*) FROM ZBOOKMARKENTITY") == .integer(10))
        second = nil
        #expect(!FileManager.default.fileExists(atPath: path + "-shm"))
    }
}

extension SQLiteConnection.AccessMode {
    /// Whether this is SQLite's read-only open.
    var isReadOnly: Bool { if case .readOnly = self { true } else { false } }
}
