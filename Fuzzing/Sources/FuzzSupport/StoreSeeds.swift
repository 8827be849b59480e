import Foundation
import StrataBinary
import StrataCore
import StrataJSON
import StrataXML

/// Writes the seeds of a store-reader or importer target: stores (or export documents) of the
/// model of every type, written by Strata's own writers, and the sample School store.
///
/// A target writes them from `LLVMFuzzerInitialize` when `STRATA_FUZZ_WRITE_SEEDS` names a
/// folder, then exits; `run.sh` does this before the first run of the target.
public enum StoreSeeds {
    /// The folder to write seeds to, when the environment asks for them.
    public static var requestedFolder: URL? {
        ProcessInfo.processInfo.environment["STRATA_FUZZ_WRITE_SEEDS"].map { URL(fileURLWithPath: $0) }
    }

    /// Writes the seeds in `format` to `folder` as `seed-*.<fileExtension>`, then exits the process.
    public static func writeAndExit(format: any AtomicStoreFormat, fileExtension: String, to folder: URL) -> Never {
        writeAndExit(to: folder) { name, image, model in
            try format.write(image, to: folder.appendingPathComponent("seed-\(name).\(fileExtension)"), model: model)
        }
    }

    /// Writes the seeds as strata-export documents to `folder` as `seed-*.json`, then exits.
    public static func writeExportsAndExit(to folder: URL) -> Never {
        writeAndExit(to: folder) { name, image, model in
            let text = ExportDocument.text(of: image, storeType: .xml, model: model)
            try Data(text.utf8).write(to: folder.appendingPathComponent("seed-\(name).json"))
        }
    }

    /// Calls `write` with each seed image (name, image, model), then exits: status 0 when all
    /// were written, 1 (saying why) when one was not.
    private static func writeAndExit(
        to folder: URL, _ write: (String, StoreImage, ManagedObjectModel) throws -> Void
    ) -> Never {
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let school = FuzzModels.repository.appendingPathComponent("Samples/RoundTrip/school.xml")
            try write("school", try XMLStoreFormat().read(from: school, model: FuzzModels.school), FuzzModels.school)
            for (name, image) in try everyTypeImages() {
                try write(name, image, FuzzModels.everyType)
            }
            exit(0)
        } catch {
            FileHandle.standardError.write(Data("StoreSeeds: \(error)\n".utf8))
            exit(1)
        }
    }

    /// Images of the model of every type: empty, one object, and a small graph with every
    /// attribute set and every kind of relationship filled.
    static func everyTypeImages() throws -> [(String, StoreImage)] {
        let folder = URL(fileURLWithPath: NSTemporaryDirectory())
            .appendingPathComponent("strata-fuzz-seeds-\(getpid())", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var images: [(String, StoreImage)] = []
        for objects in [0, 1, 4] {
            let url = folder.appendingPathComponent("\(objects).xml")
            let coordinator = PersistentStoreCoordinator(managedObjectModel: FuzzModels.everyType)
            try coordinator.addPersistentStore(type: .xml, at: url)
            let context = ManagedObjectContext(coordinator: coordinator)
            var things: [ManagedObject] = []
            for index in 0..<objects {
                let thing = try context.insertNewObject(forEntityName: "Thing")
                try thing.setValuesForKeys([
                    "i16": Int16(index * 7 - 10), "i32": Int32(-70_000 * index), "i64": Int64.max - Int64(index),
                    "decimal": Decimal(string: "12345.678\(index)"), "double": 1.5e300 / Double(index + 1),
                    "float": Float(index) / 3, "string": String(repeating: "ab", count: index),
                    "flag": index % 2 == 0, "date": Date(timeIntervalSinceReferenceDate: Double(index) * 86_400.25),
                    "data": Data([0, 1, 2, 0xFF, UInt8(index)]), "uuid": UUID(),
                    "uri": URL(string: "https://example.com/\(index)?q=<&>"),
                ])
                if let parent = things.last { try thing.setValue(parent, forKey: "parent") }
                let tag = try context.insertNewObject(forEntityName: "Tag")
                try tag.setValue("tag \(index) & <\"quoted\">", forKey: "name")
                try thing.setValue([tag], forKey: "tags")
                try thing.setValue([tag], forKey: "seen")
                things.append(thing)
            }
            try context.save()
            images.append(("every-type-\(objects)", try XMLStoreFormat().read(from: url, model: FuzzModels.everyType)))
        }
        return images
    }
}
