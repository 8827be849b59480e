import Foundation
import Strata
@_spi(StoreImplementation) import StrataCore
import StrataTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A save whose file write fails (the disk fills up midway, `fsync` fails, the rename fails):
/// the store on disk stays the old one byte for byte, the context keeps every unsaved change,
/// the error names the file and the step, and a second save after the fault lands everything.
@Suite("Faults while writing")
struct WriteFaultTests {
    /// A fault, the step its error names and the reason `strerror` gives.
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var fault: WriteFault
        var operation: String
        var reason: String
        var testDescription: String { name }

        static let all: [Case] = [
            Case(name: "no space left after 64 bytes", fault: .failWrite(afterBytes: 64, errno: ENOSPC),
                 operation: "writing", reason: String(cString: strerror(ENOSPC))),
            Case(name: "no space left at the first byte", fault: .failWrite(afterBytes: 0, errno: ENOSPC),
                 operation: "writing", reason: String(cString: strerror(ENOSPC))),
            Case(name: "fsync fails with EIO", fault: .failFsync(errno: EIO),
                 operation: "fsync", reason: String(cString: strerror(EIO))),
            Case(name: "rename fails with EACCES", fault: .failRename(errno: EACCES),
                 operation: "renaming the temporary file into place", reason: String(cString: strerror(EACCES))),
        ]
    }

    /// Every (whole-file store type, fault) pair.
    static let arguments: [(StoreUnderTest, Case)] = StoreUnderTest.wholeFileWriters.flatMap { store in Case.all.map { (store, $0) } }

    @Test("a failed write leaves the old file and the context's changes", arguments: arguments)
    func failedWrite(store: StoreUnderTest, fault: Case) throws {
        let model = try SampleModels.company()
        let (_, _, url, context) = try store.makeFileStore(model: model)
        let acme = try context.insert("Employer", ["name": "Acme"])
        let alice = try context.insert("Employee", ["name": "Alice", "whereIWork": acme])
        let bob = try context.insert("Employee", ["name": "Bob", "whereIWork": acme])
        try context.save()
        let before = try Data(contentsOf: url)
        let folder = url.deletingLastPathComponent()
        let filesBefore = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()

        // Pending: an insert, an update and a delete.
        let bolt = try context.insert("Employer", ["name": "Bolt"])
        try alice.setValue(bolt, forKey: "whereIWork")
        try alice.setValue(52_000.0, forKey: "salary")
        try context.delete(bob)

        var thrown: (any Error)?
        WriteFaults.injecting(fault.fault, into: url) {
            do { try context.save() } catch { thrown = error }
        }
        guard case let StoreError.io(file, operation, reason)? = thrown else {
            Issue.record("expected StoreError.io, got \(String(describing: thrown))")
            return
        }
        #expect(file == url.path)
        #expect(operation == fault.operation)
        #expect(reason == fault.reason)
        #expect(String(describing: thrown!) == "\(url.path): \(fault.operation) failed: \(fault.reason)")

        #expect(try Data(contentsOf: url) == before, "the store on disk is the old one, byte for byte")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == filesBefore, "no temporary file is left")
        #expect(context.hasChanges)
        #expect(context.insertedObjects.contains(bolt))
        #expect(context.deletedObjects.contains(bob))
        #expect(try alice.value(forKey: "salary") as? Double == 52_000)
        #expect(try alice.value(forKey: "whereIWork") as? ManagedObject === bolt)
        // What the store holds is still the old state.
        let reopened = PersistentStoreCoordinator(managedObjectModel: model)
        try reopened.addPersistentStore(type: store.type, at: url, options: [StoreOption.readOnly: .bool(true)])
        #expect(try ManagedObjectContext(coordinator: reopened).strings(sortedRequest("Employee")) == ["Alice", "Bob"])

        // The fault gone, the same changes save.
        try context.save()
        #expect(!context.hasChanges)
        let after = PersistentStoreCoordinator(managedObjectModel: model)
        try after.addPersistentStore(type: store.type, at: url, options: [StoreOption.readOnly: .bool(true)])
        let check = ManagedObjectContext(coordinator: after)
        let employees = try check.fetch(sortedRequest("Employee"))
        #expect(try employees.map { try $0.string("name") } == ["Alice"])
        #expect(try employees.first?.value(forKey: "salary") as? Double == 52_000)
        #expect(try (employees.first?.value(forKey: "whereIWork") as? ManagedObject)?.string("name") == "Bolt")
        #expect(try check.strings(sortedRequest("Employer")) == ["Acme", "Bolt"])
    }

    @Test("short writes are continued: the save succeeds", arguments: StoreUnderTest.wholeFileWriters)
    func shortWrites(store: StoreUnderTest) throws {
        let model = try SampleModels.company()
        let (_, _, url, context) = try store.makeFileStore(model: model)
        for index in 0..<20 { try context.insert("Employee", ["name": "Employee \(index)", "salary": Double(index)]) }
        try WriteFaults.injecting(.shortWrites(chunk: 7), into: url) { try context.save() }
        #expect(!context.hasChanges)
        let reopened = PersistentStoreCoordinator(managedObjectModel: model)
        try reopened.addPersistentStore(type: store.type, at: url, options: [StoreOption.readOnly: .bool(true)])
        #expect(try ManagedObjectContext(coordinator: reopened).count("Employee") == 20)
    }

    @Test("replacing a store's contents (what a conversion does) fails cleanly too", arguments: StoreUnderTest.wholeFileWriters)
    func failedReplace(store: StoreUnderTest) throws {
        let model = try SampleModels.company()
        let (_, opened, url, context) = try store.makeFileStore(model: model)
        try context.insert("Employer", ["name": "Acme"])
        try context.save()
        let before = try Data(contentsOf: url)
        let held = try opened.contentsImage()
        var replacement = held
        replacement.objects = [:]
        #expect(throws: StoreError.io(file: url.path, operation: "writing", reason: String(cString: strerror(ENOSPC)))) {
            try WriteFaults.injecting(.failWrite(afterBytes: 10, errno: ENOSPC), into: url) { try opened.replaceContents(with: replacement) }
        }
        #expect(try Data(contentsOf: url) == before)
        #expect(try opened.contentsImage() == held, "the store holds what it held")
    }

    @Test("a fault injected for one file leaves other files' writes alone", arguments: StoreUnderTest.wholeFileWriters)
    func otherFiles(store: StoreUnderTest) throws {
        let model = try SampleModels.company()
        let (coordinator, _) = try store.makeCoordinator(model: model)
        let context = ManagedObjectContext(coordinator: coordinator)
        try context.insert("Employer", ["name": "Acme"])
        let elsewhere = try store.storeURL()
        try WriteFaults.injecting(.failFsync(errno: EIO), into: elsewhere) { try context.save() }
        #expect(!context.hasChanges)
    }
}
