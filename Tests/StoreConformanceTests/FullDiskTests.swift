import Foundation
import Strata
import StrataTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A small tmpfs mounted for one test and always unmounted afterwards. Needs root.
enum SmallDisk {
    /// Whether this process can mount a tmpfs: run as root, and a trial mount works.
    static let available: Bool = {
        guard geteuid() == 0, let folder = try? TemporaryFolder.make() else { return false }
        guard mount(folder, size: "64k") else { return false }
        unmount(folder)
        return true
    }()

    /// Runs `/bin/mount` or `/bin/umount` with `arguments`; whether it exited 0.
    @discardableResult
    private static func run(_ tool: String, _ arguments: [String]) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [tool] + arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }

    /// Mounts a tmpfs of `size` on `folder`.
    static func mount(_ folder: URL, size: String) -> Bool {
        run("mount", ["-t", "tmpfs", "-o", "size=\(size)", "tmpfs", folder.path])
    }

    /// Unmounts `folder` (lazily when something still holds a file open).
    static func unmount(_ folder: URL) {
        if !run("umount", [folder.path]) { run("umount", ["-l", folder.path]) }
    }
}

/// Saves on a disk that fills up for real: each file store type saves growing stores into a
/// 256 KiB tmpfs until a save fails. The store then holds the last save, the context keeps
/// its changes, and once space is freed the same changes save. Runs only as root.
@Suite("Full disk", .serialized, .enabled(if: SmallDisk.available, "needs root and a tmpfs mount"))
struct FullDiskTests {
    @Test("saving into a full disk fails cleanly and saves once space is freed", arguments: StoreUnderTest.fileBacked)
    func fullDisk(store: StoreUnderTest) throws {
        let disk = try TemporaryFolder.make()
        try #require(SmallDisk.mount(disk, size: "256k"))
        defer { SmallDisk.unmount(disk) }
        try fillUp(store, disk: disk)
    }

    /// The body of ``fullDisk(store:)``: every coordinator is released when it returns, so the
    /// mount can go.
    private func fillUp(_ store: StoreUnderTest, disk: URL) throws {
        let model = try SampleModels.company()
        // Space held back, freed after the failure.
        let filler = disk.appendingPathComponent("filler")
        try Data(repeating: 0x5A, count: 112 * 1024).write(to: filler)
        let url = disk.appendingPathComponent("store.\(store.type.rawValue.lowercased())")
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: store.type, at: url)
        let context = ManagedObjectContext(coordinator: coordinator)
        // Names that do not compress, so that the binary store's file grows too.
        var generator = SystemRandomNumberGenerator()
        func text() -> String { Data((0..<700).map { _ in UInt8.random(in: 0...255, using: &generator) }).base64EncodedString() }
        var saved = 0
        var lastGood = Data()
        var failure: (any Error)?
        for round in 0..<400 {
            for index in 0..<4 { try context.insert("Employee", ["name": "\(round)-\(index) \(text())"]) }
            do {
                try context.save()
                saved += 4
                if store.writesWholeFile { lastGood = try Data(contentsOf: url) }
            } catch {
                failure = error
                break
            }
        }
        let error = try #require(failure, "the disk never filled up (\(saved) objects saved)")
        guard case let StoreError.io(file, _, reason) = error else {
            Issue.record("\(store): expected StoreError.io, got \(error)")
            return
        }
        #expect(file == url.path)
        if store.writesWholeFile {
            #expect(reason == String(cString: strerror(ENOSPC)), "\(error)")
            #expect(try Data(contentsOf: url) == lastGood, "the store on disk is the last save, byte for byte")
        } else {
            #expect(reason.contains("full"), "\(error)")
        }
        #expect(saved > 0)
        #expect(context.hasChanges)
        #expect(context.insertedObjects.count == 4)
        #expect(try stored(store, url, model) == saved, "the store holds the last save")

        try FileManager.default.removeItem(at: filler)
        try context.save()
        #expect(!context.hasChanges)
        #expect(try stored(store, url, model) == saved + 4, "the pending changes landed")
    }

    /// The number of employees the store at `url` holds, read by a new coordinator.
    private func stored(_ store: StoreUnderTest, _ url: URL, _ model: ManagedObjectModel) throws -> Int {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: store.type, at: url)
        return try ManagedObjectContext(coordinator: coordinator).count("Employee")
    }
}
