import BenchmarkSupport
import Foundation
import FoundationXML
import Strata
@_spi(StoreImplementation) import StrataBinary
@_spi(StoreImplementation) import StrataCore
@_spi(StoreImplementation) import StrataXML

/// One measured operation, run in a child process of its own so that its peak memory (VmHWM)
/// is its own. The child prints one `RESULT` line that the parent parses.
enum Phase: String, CaseIterable {
    case baselineImage = "baseline-image"
    case baselineRecords = "baseline-records"
    case binarySave = "binary-save"
    case binaryLoad = "binary-load"
    case xmlSave = "xml-save"
    case xmlLoad = "xml-load"
    case jsonSave = "json-save"
    case jsonLoad = "json-load"
    case plistSave = "plist-save"
    case plistLoad = "plist-load"
    case xmlDocumentParse = "xmldocument-parse"
    case xmlDocumentWalk = "xmldocument-walk"
    case contextSaveBinary = "context-save-binary"
    case contextSaveXML = "context-save-xml"
    case binaryVerify = "binary-verify"
    case xmlVerify = "xml-verify"
}

/// What a phase measured.
struct PhaseResult {
    /// Seconds the measured operation took (generation and setup excluded).
    var seconds: Double
    /// Objects the operation wrote or read (checked against the data set).
    var objects: Int
    /// The process's peak resident size (VmHWM) at the end of the phase, in KiB.
    var peakKiB: Int
    /// The file's size after a save, in bytes (0 for a load).
    var fileBytes: Int
    /// Seconds of untimed preparation (for a context save: inserting the objects).
    var setupSeconds: Double

    var line: String {
        "RESULT seconds=\(seconds) objects=\(objects) peak_kib=\(peakKiB) bytes=\(fileBytes) setup=\(setupSeconds)"
    }

    init(seconds: Double, objects: Int, peakKiB: Int = PhaseResult.peakKiB(), fileBytes: Int = 0, setupSeconds: Double = 0) {
        self.seconds = seconds
        self.objects = objects
        self.peakKiB = peakKiB
        self.fileBytes = fileBytes
        self.setupSeconds = setupSeconds
    }

    /// The result a child printed, from the fields of its `RESULT` line.
    init?(fields: [String: String]) {
        guard let seconds = fields["seconds"].flatMap(Double.init), let objects = fields["objects"].flatMap(Int.init),
              let peak = fields["peak_kib"].flatMap(Int.init), let bytes = fields["bytes"].flatMap(Int.init),
              let setup = fields["setup"].flatMap(Double.init) else { return nil }
        self.init(seconds: seconds, objects: objects, peakKiB: peak, fileBytes: bytes, setupSeconds: setup)
    }

    /// VmHWM from `/proc/self/status`, in KiB (0 where there is no /proc).
    static func peakKiB() -> Int { ProcessStatus.peakKiB() }
}

func fileSize(_ url: URL) -> Int {
    ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? NSNumber)?.intValue ?? 0
}

/// Runs one phase in this process and returns what it measured.
func run(_ phase: Phase, dataset: Dataset, file: URL) throws -> PhaseResult {
    let model = try Dataset.model()
    func check(_ count: Int) throws {
        guard count == dataset.count else {
            throw BenchmarkError("\(phase.rawValue): \(count) objects, expected \(dataset.count)")
        }
    }
    switch phase {
    case .baselineImage:
        let (image, seconds) = timed { dataset.image(type: .binary, model: model) }
        try check(image.objects.count)
        return PhaseResult(seconds: seconds, objects: image.objects.count)
    case .baselineRecords:
        let (library, seconds) = timed { dataset.library() }
        try check(library.objectCount)
        return PhaseResult(seconds: seconds, objects: library.objectCount)

    case .binarySave, .xmlSave:
        let format: any AtomicStoreFormat = phase == .binarySave ? BinaryStoreFormat() : XMLStoreFormat()
        let image = dataset.image(type: phase == .binarySave ? .binary : .xml, model: model)
        let ((), seconds) = try timed { try format.write(image, to: file, model: model) }
        return PhaseResult(seconds: seconds, objects: image.objects.count, fileBytes: fileSize(file))
    case .binaryLoad, .xmlLoad:
        let format: any AtomicStoreFormat = phase == .binaryLoad ? BinaryStoreFormat() : XMLStoreFormat()
        let (image, seconds) = try timed { try format.read(from: file, model: model) }
        try check(image.objects.count)
        return PhaseResult(seconds: seconds, objects: image.objects.count)

    case .jsonSave, .plistSave:
        let library = dataset.library()
        let ((), seconds) = try timed {
            let data: Data
            if phase == .jsonSave {
                data = try JSONEncoder().encode(library)
            } else {
                let encoder = PropertyListEncoder()
                encoder.outputFormat = .binary
                data = try encoder.encode(library)
            }
            // The same crash-safe write (temporary file, fsync, rename) as the stores use.
            try AtomicFileWriter.write(data, to: file)
        }
        return PhaseResult(seconds: seconds, objects: library.objectCount, fileBytes: fileSize(file))
    case .jsonLoad, .plistLoad:
        let (library, seconds) = try timed {
            let data = try AtomicFileWriter.read(file)
            return phase == .jsonLoad
                ? try JSONDecoder().decode(Dataset.Library.self, from: data)
                : try PropertyListDecoder().decode(Dataset.Library.self, from: data)
        }
        try check(library.objectCount)
        return PhaseResult(seconds: seconds, objects: library.objectCount)

    case .binaryVerify, .xmlVerify:
        // Not measured: the file read back must be the graph that was written, value for value.
        let type: StoreType = phase == .binaryVerify ? .binary : .xml
        let format: any AtomicStoreFormat = phase == .binaryVerify ? BinaryStoreFormat() : XMLStoreFormat()
        let loaded = try format.read(from: file, model: model)
        let expected = dataset.image(type: type, model: model)
        guard loaded == expected else {
            let differing = expected.objects.keys.filter { loaded.objects[$0] != expected.objects[$0] }.count
            throw BenchmarkError("\(phase.rawValue): the file read back differs from the graph written "
                + "(\(differing) objects differ; identifier, metadata or next keys equal: "
                + "\(loaded.identifier == expected.identifier), \(loaded.metadata == expected.metadata), "
                + "\(loaded.nextPrimaryKeys == expected.nextPrimaryKeys))")
        }
        return PhaseResult(seconds: 0, objects: loaded.objects.count)

    case .xmlDocumentParse:
        let (document, seconds) = try timed { try XMLDocument(data: AtomicFileWriter.read(file)) }
        let count = document.rootElement()?.elements(forName: "object").count ?? 0
        try check(count)
        return PhaseResult(seconds: seconds, objects: count)
    case .xmlDocumentWalk:
        let ((count, _), seconds) = try timed {
            let document = try XMLDocument(data: AtomicFileWriter.read(file))
            var objects = 0
            var characters = 0
            func walk(_ node: XMLNode) {
                if let element = node as? XMLElement {
                    if element.name == "object" { objects += 1 }
                    characters += element.name?.utf8.count ?? 0
                    for attribute in element.attributes ?? [] {
                        characters += (attribute.name?.utf8.count ?? 0) + (attribute.stringValue?.utf8.count ?? 0)
                    }
                    for child in element.children ?? [] { walk(child) }
                } else if node.kind == .text {
                    characters += node.stringValue?.utf8.count ?? 0
                }
            }
            if let root = document.rootElement() { walk(root) }
            return (objects, characters)
        }
        try check(count)
        return PhaseResult(seconds: seconds, objects: count)

    case .contextSaveBinary, .contextSaveXML:
        try? FileManager.default.removeItem(at: file)
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: phase == .contextSaveBinary ? .binary : .xml, at: file)
        let context = ManagedObjectContext(coordinator: coordinator)
        let ((), insertSeconds) = try timed { try dataset.insert(into: context) }
        let inserted = context.insertedObjects.count
        try check(inserted)
        let ((), seconds) = try timed { try context.save() }
        return PhaseResult(seconds: seconds, objects: inserted, fileBytes: fileSize(file), setupSeconds: insertSeconds)
    }
}
