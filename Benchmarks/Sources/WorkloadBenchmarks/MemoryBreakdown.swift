import BenchmarkSupport
import CMallocInfo
import Foundation
import Strata
import SQLiteBenchmarkSupport

/// Where the heap of a plain fetch of every person goes (`--million-breakdown FILE`, on a file
/// `--million-setup strata` wrote): the C heap in use (glibc's `mallinfo2`, whole blocks) with
/// the objects as faults and then loaded, the block of one object, the blocks of the strings the
/// loaded objects hold, and what is left for the rest (each object's attribute storage, the
/// registry's and the result's share).
enum MemoryBreakdown {
    /// The bytes glibc takes for a request of `usable` bytes: the usable size and its 8-byte
    /// header (a block of 32 bytes at least).
    static func block(_ usable: Int) -> Int { max(32, usable + 8) }

    /// The heap block of a native string's storage, or 0 for a small (in-place) or bridged one.
    static func stringBlock(_ string: String) -> Int {
        let (_, object) = unsafeBitCast(string, to: (UInt64, UInt64).self)
        // x86_64 and arm64: the top nibble is the discriminator; native storage has bit 60 clear,
        // no small-string bit (61) and an address in the low 56 bits.
        let discriminator = object >> 56
        guard discriminator & 0x20 == 0, discriminator & 0x10 == 0, let pointer = UnsafeMutableRawPointer(bitPattern: UInt(object & 0x00FF_FFFF_FFFF_FFFF)) else { return 0 }
        return block(cmallocinfo_usable_size(pointer))
    }

    static func run(file: URL) throws -> String {
        let coordinator = try StrataSQLite.open(file, model: try Workload.model())
        let base = cmallocinfo_heap_in_use()
        var fields: [String] = []
        let faultsPerObject: Double
        do {
            let context = ManagedObjectContext(coordinator: coordinator)
            var request = FetchRequest(entityName: "Person")
            request.includesPropertyValues = false
            let objects = try context.fetch(request)
            let held = cmallocinfo_heap_in_use() - base
            faultsPerObject = Double(held) / Double(objects.count)
            let objectBlock = block(cmallocinfo_usable_size(Unmanaged.passUnretained(objects[0]).toOpaque()))
            fields.append("objects=\(objects.count)")
            fields.append("objectBlock=\(objectBlock)")
            fields.append("faultPerObject=\(String(format: "%.1f", faultsPerObject))")
            fields.append("resultArrayPerObject=\(String(format: "%.1f", Double(objects.capacity * 8) / Double(objects.count)))")
            withExtendedLifetime(objects) {}
        }
        let context = ManagedObjectContext(coordinator: coordinator)
        let objects = try context.fetch(FetchRequest(entityName: "Person"))
        let held = cmallocinfo_heap_in_use() - base
        var stringBytes = 0, heapStrings = 0
        for object in objects {
            for key in ["name", "email"] {
                let bytes = stringBlock(try StrataSQLite.read(object, key, as: String.self))
                stringBytes += bytes
                if bytes > 0 { heapStrings += 1 }
            }
        }
        let count = Double(objects.count)
        fields.append("loadedPerObject=\(String(format: "%.1f", Double(held) / count))")
        fields.append("stringsPerObject=\(String(format: "%.1f", Double(stringBytes) / count))")
        fields.append("heapStrings=\(heapStrings)")
        fields.append("valuesPerObject=\(String(format: "%.1f", (Double(held - stringBytes) / count) - faultsPerObject))")
        fields.append("residentKiB=\(ProcessStatus.residentKiB()) peakKiB=\(ProcessStatus.peakKiB())")
        return withExtendedLifetime(objects) { fields.joined(separator: " ") }
    }
}

extension MemoryBreakdown {
    /// Where the memory of the insert phase goes (`--insert-breakdown FILE`): the C heap in use
    /// after making the rows, after inserting the objects, after the save, and the resident
    /// peak during the save (VmHWM reset before it).
    static func insert(file: URL) throws -> String {
        try? FileManager.default.removeItem(at: file)
        let model = try Workload.model()
        let workload = Workload(persons: 100_000)
        let start = cmallocinfo_heap_in_use()
        let persons = workload.personRows(), pets = workload.petRows()
        let rows = cmallocinfo_heap_in_use()
        let coordinator = try StrataSQLite.open(file, model: model)
        let context = ManagedObjectContext(coordinator: coordinator)
        try StrataEngine.insert(context, persons: persons, pets: pets)
        let inserted = cmallocinfo_heap_in_use()
        let residentBefore = ProcessStatus.residentKiB()
        ProcessStatus.resetPeak()
        try context.save()
        let saved = cmallocinfo_heap_in_use()
        let objects = Double(persons.count + pets.count)
        func perObject(_ bytes: Int) -> String { String(format: "%.1f", Double(bytes) / objects) }
        return ["rowsMiB=\((rows - start) >> 20)", "insertedPerObject=\(perObject(inserted - rows))",
                "savedPerObject=\(perObject(saved - rows))", "residentBeforeSaveKiB=\(residentBefore)",
                "savePeakKiB=\(ProcessStatus.peakKiB())", "saveRiseKiB=\(ProcessStatus.peakKiB() - residentBefore)"].joined(separator: " ")
    }
}
