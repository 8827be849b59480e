import Foundation
import Strata
@_spi(StoreImplementation) @testable import StrataXML
@_spi(StoreImplementation) import StrataCore
@_spi(StoreImplementation) import StrataTestSupport

/// The XML store's part of the shared tests: Core Data's XML layout (`docs/formats/xml.md`).
struct XMLFormatDriver: AtomicFormatDriver {
    var storeType: StoreType { .xml }
    var format: any AtomicStoreFormat { XMLStoreFormat() }

    func readMetadata(from url: URL) throws -> [String: PropertyListValue] {
        try XMLStoreFormat.readMetadata(from: url)
    }

    func encode(_ image: StoreImage, model: ManagedObjectModel) throws -> [UInt8] {
        Array(XMLStoreFormat().encode(image, model: model).utf8)
    }

    func decode(_ bytes: [UInt8], file: String, model: ManagedObjectModel) throws -> StoreImage {
        let reader = try XMLStreamReader(data: Data(bytes), file: file)
        return try XMLStoreDecoder(reader: reader, model: model).decode(objects: true)
    }

    /// What `xmllint --noout --nonet` says of the file; nil when it accepts it or is not installed.
    func fileProblem(at url: URL) throws -> String? {
        let tool = URL(fileURLWithPath: "/usr/bin/xmllint")
        guard FileManager.default.isExecutableFile(atPath: tool.path) else { return nil }
        let process = Process()
        process.executableURL = tool
        process.arguments = ["--noout", "--nonet", url.path]
        let pipe = Pipe()
        process.standardError = pipe
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return process.terminationStatus == 0 ? nil : "xmllint: \(String(decoding: output, as: UTF8.self))"
    }

    var smallStoreLimit: Int { 8192 }

    func mayStillDecode(withoutTrailing rest: ArraySlice<UInt8>) -> Bool {
        rest.allSatisfy { [0x20, 0x0A, 0x0D, 0x09].contains($0) }
    }

    var bitFlipStride: Int { 7 }
    var refusesEveryBitFlip: Bool { false }
    var refusesUnknownEntityAsModelMismatch: Bool { true }

    /// The document up to `</databaseInfo>`, then text that is not XML at all.
    func damagingObjects(_ bytes: [UInt8]) throws -> [UInt8] {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let end = text.range(of: "</databaseInfo>") else { throw CocoaError(.fileReadCorruptFile) }
        let garbage = "\n    <object type=\"NOPE\" id=\"z1\"><<<&&& \u{0}\u{1} not xml at all"
            + String(repeating: "]]>\"<", count: 5000)
        return Array((String(text[..<end.upperBound]) + garbage).utf8)
    }

    /// Every hostile document (``HostileDocument/all``); most leave `<databaseInfo>` readable.
    func hostileFiles(small: [UInt8]) -> [HostileFile] {
        HostileDocument.all.map { HostileFile(name: $0.name, bytes: Array($0.data), damagesMetadata: false) }
    }
}
