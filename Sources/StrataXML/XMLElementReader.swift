internal import CLibXML2
import Foundation
@_spi(StoreImplementation) import StrataCore
#if canImport(Glibc)
import Glibc
private let systemRead = Glibc.read
#elseif canImport(Musl)
import Musl
private let systemRead = Musl.read
#elseif canImport(Darwin)
import Darwin
private let systemRead = Darwin.read
#endif

/// A small element (name, attributes, text, children): the XML store reads `<databaseInfo>`
/// this way (and hands its `<plist>` to ``XMLPropertyList``); objects never become trees.
struct XMLElementNode {
    var name: String
    var attributes: [String: String]
    var text: String
    var children: [XMLElementNode]
    var line: Int

    func child(_ name: String) -> XMLElementNode? { children.first { $0.name == name } }
}

/// An element's name as libxml2 reports it: a local name and an optional prefix.
struct XMLName {
    let localName: UnsafePointer<UInt8>
    let prefix: UnsafePointer<UInt8>?

    /// Whether the qualified name is `literal` (which has no prefix), compared as bytes.
    @inline(__always)
    func `is`(_ literal: StaticString) -> Bool { prefix == nil && CBytes.equal(localName, literal) }

    /// The qualified name, `prefix:local` or `local`.
    var qualified: String {
        let local = String(cString: localName)
        return prefix.map { String(cString: $0) + ":" + local } ?? local
    }
}

/// The attributes of an element as libxml2's SAX2 start-element event lists them: five
/// pointers each (local name, prefix, namespace, value start, value end). Valid only during
/// the event.
struct XMLAttributes {
    let base: UnsafeMutablePointer<UnsafePointer<UInt8>?>?
    let count: Int

    /// Calls `body` with each attribute's name and value (UTF-8, not NUL-terminated).
    @inline(__always)
    func forEach(_ body: (XMLName, UnsafeBufferPointer<UInt8>) throws -> Void) rethrows {
        guard let base else { return }
        for index in 0..<count {
            let entry = base + 5 * index
            guard let local = entry[0], let start = entry[3], let end = entry[4] else { continue }
            try body(XMLName(localName: local, prefix: entry[1]), UnsafeBufferPointer(start: start, count: end - start))
        }
    }

    /// The attributes as a dictionary of Strings, keyed by qualified name.
    var dictionary: [String: String] {
        var result: [String: String] = [:]
        forEach { name, value in result[name.qualified] = String(decoding: value, as: UTF8.self) }
        return result
    }
}

/// Parses an XML document with libxml2's SAX2 push parser, hardened for hostile input: no
/// network, no DTD loading, no entity ever declared or substituted (a document containing
/// `<!ENTITY` is refused before the parser sees the bytes that hold it, and any other entity
/// reference is an error). The document is fed to the parser in chunks, from memory or from a
/// file, so the parser never holds more than a chunk of it.
final class XMLStreamReader {
    let file: String
    /// The size of the document in bytes.
    let byteCount: Int
    private let data: Data?
    private let source: XMLFileSource?
    private var context: xmlParserCtxtPtr?

    static let chunkSize = 1 << 20

    /// A reader of `data`.
    init(data: Data, file: String) throws {
        self.file = file
        byteCount = data.count
        if let found = data.withUnsafeBytes({ Self.entityDeclaration(in: $0) }) {
            throw StoreError.corruptStore(file: file, offset: data.startIndex + found,
                                          reason: "entity declarations are not allowed in a store file")
        }
        self.data = data
        source = nil
    }

    /// A reader of the file at `url`, read a chunk at a time.
    init(contentsOf url: URL) throws {
        let source = try XMLFileSource(url: url, chunkSize: Self.chunkSize)
        file = source.file
        byteCount = source.size
        data = nil
        self.source = source
    }

    /// The line the parser has reached (during a parse).
    var line: Int { context.map { Int($0.pointee.input?.pointee.line ?? 0) } ?? 0 }

    func error(_ reason: String, line: Int? = nil) -> StoreError {
        .corruptStore(file: file, offset: nil, reason: "line \(line ?? self.line): \(reason)")
    }

    /// Parses the whole document into `handler`; returns early when the handler stops it
    /// without an error. Throws for malformed XML, an I/O error or an entity declaration.
    ///
    /// Each event goes to the handler (`startElement`, `endElement`, `characters`,
    /// `entityReference`, each answering false to stop the parse: after an error, or when the
    /// handler has read all it needs).
    func parse(into handler: XMLDocumentReader) throws {
        var sax = xmlSAXHandler()
        sax.initialized = UInt32(XML_SAX2_MAGIC)
        // The handler is reached without retaining it: it outlives the parse.
        // Unmanaged: libxml2 hands each callback the reader as a C pointer; the reader outlives the
        // parse (withExtendedLifetime below), so no callback retains it.
        sax.startElementNs = { context, localName, prefix, _, _, _, count, _, attributes in
            guard let context, let localName else { return }
            Unmanaged<XMLDocumentReader>.fromOpaque(context)._withUnsafeGuaranteedRef { handler in
                let name = XMLName(localName: localName, prefix: prefix)
                if !handler.startElement(name, attributes: XMLAttributes(base: attributes, count: Int(count))) {
                    handler.reader.stop()
                }
            }
        }
        sax.endElementNs = { context, _, _, _ in
            guard let context else { return }
            Unmanaged<XMLDocumentReader>.fromOpaque(context)._withUnsafeGuaranteedRef { handler in
                if !handler.endElement() { handler.reader.stop() }
            }
        }
        let characters: charactersSAXFunc = { context, bytes, count in
            guard let context, let bytes, count > 0 else { return }
            Unmanaged<XMLDocumentReader>.fromOpaque(context)._withUnsafeGuaranteedRef { handler in
                if !handler.characters(UnsafeBufferPointer(start: bytes, count: Int(count))) { handler.reader.stop() }
            }
        }
        sax.characters = characters
        sax.ignorableWhitespace = characters
        sax.cdataBlock = characters
        sax.reference = { context, _ in
            guard let context else { return }
            Unmanaged<XMLDocumentReader>.fromOpaque(context)._withUnsafeGuaranteedRef { handler in
                if !handler.entityReference() { handler.reader.stop() }
            }
        }
        // Errors are read from the context afterwards; nothing is printed.
        sax.serror = { _, _ in }

        stopped = false
        guard let context = withExtendedLifetime(handler, {
            xmlCreatePushParserCtxt(&sax, Unmanaged.passUnretained(handler).toOpaque(), nil, 0, nil)
        }) else {
            throw StoreError.corruptStore(file: file, offset: nil, reason: "the XML parser could not start")
        }
        self.context = context
        defer {
            self.context = nil
            // libxml2 makes a document of its own to hold the declarations of a DTD, even for a
            // SAX parse, and leaves freeing it to the caller.
            if let document = context.pointee.myDoc { xmlFreeDoc(document) }
            xmlFreeParserCtxt(context)
        }
        xmlCtxtUseOptions(context, Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOCDATA.rawValue | XML_PARSE_COMPACT.rawValue))

        try withExtendedLifetime(handler) { try feedDocument() }
    }

    private func feedDocument() throws {
        if let data {
            try data.withUnsafeBytes { bytes in
                var offset = 0
                repeat {
                    let end = min(bytes.count, offset + Self.chunkSize)
                    guard try feed(UnsafeRawBufferPointer(rebasing: bytes[offset..<end]), last: end == bytes.count) else { return }
                    offset = end
                } while offset < bytes.count
            }
        } else if let source {
            while true {
                let chunk = try source.readChunk()
                guard try feed(chunk, last: chunk.isEmpty) else { return }
                if chunk.isEmpty { break }
            }
        }
    }

    private var stopped = false

    func stop() {
        stopped = true
        if let context { xmlStopParser(context) }
    }

    /// Gives the parser one chunk; false when the parse is over (the handler stopped it).
    private func feed(_ chunk: UnsafeRawBufferPointer, last: Bool) throws -> Bool {
        guard let context else { return false }
        _ = xmlParseChunk(context, chunk.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(chunk.count), last ? 1 : 0)
        if stopped { return false }
        if context.pointee.wellFormed == 0 || context.pointee.disableSAX != 0 {
            let last = xmlCtxtGetLastError(context)
            let message = last.flatMap { $0.pointee.message.map { String(cString: $0) } }?
                .trimmingCharacters(in: .whitespacesAndNewlines) ?? "malformed XML"
            let line = last.map { Int($0.pointee.line) }.flatMap { $0 > 0 ? $0 : nil }
            throw error(message, line: line)
        }
        return true
    }

    /// The offset of the first `<!ENTITY` in `bytes`. It looks for the rare `!` with `memchr`
    /// (the whole document is searched before parsing, so this must be fast).
    static func entityDeclaration(in bytes: UnsafeRawBufferPointer) -> Int? {
        let declaration: [UInt8] = Array("<!ENTITY".utf8)
        guard let base = bytes.baseAddress, bytes.count >= declaration.count else { return nil }
        var offset = 1
        while offset <= bytes.count - declaration.count + 1 {
            guard let hit = memchr(base + offset, Int32(UInt8(ascii: "!")), bytes.count - declaration.count + 2 - offset) else {
                return nil
            }
            let position = base.distance(to: UnsafeRawPointer(hit)) - 1
            if memcmp(base + position, declaration, declaration.count) == 0 { return position }
            offset = position + 2
        }
        return nil
    }
}

/// A store file read in chunks, each searched for `<!ENTITY` (also across chunk boundaries)
/// before the parser is given any of its bytes.
final class XMLFileSource {
    let file: String
    let size: Int
    private let descriptor: Int32
    private let chunk: UnsafeMutableRawBufferPointer
    /// The file offset of the chunk last read.
    private var chunkOffset = 0
    private var chunkLength = 0
    /// The last bytes of the previous chunk, for a declaration that spans two chunks.
    private var tail: [UInt8] = []

    init(url: URL, chunkSize: Int) throws {
        file = url.path
        descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw StoreError.io(file: url.path, operation: "read", reason: String(cString: strerror(errno)))
        }
        var status = stat()
        size = fstat(descriptor, &status) == 0 ? Int(status.st_size) : 0
        chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)
    }

    deinit {
        close(descriptor)
        chunk.deallocate()
    }

    /// The next chunk of the file (empty at its end), valid until the next call.
    func readChunk() throws -> UnsafeRawBufferPointer {
        chunkOffset += chunkLength
        var end = 0
        while end < chunk.count {
            let got = systemRead(descriptor, chunk.baseAddress! + end, chunk.count - end)
            if got < 0 {
                if errno == EINTR { continue }
                throw StoreError.io(file: file, operation: "read", reason: String(cString: strerror(errno)))
            }
            if got == 0 { break }
            end += got
        }
        chunkLength = end
        let bytes = UnsafeRawBufferPointer(rebasing: chunk[0..<end])
        let declarationLength = 8   // "<!ENTITY"
        // Across the boundary: the previous chunk's last bytes and this chunk's first ones.
        if !tail.isEmpty, end > 0 {
            let joined = tail + Array(UnsafeRawBufferPointer(rebasing: bytes[0..<min(end, declarationLength - 1)]))
            if let found = joined.withUnsafeBytes({ XMLStreamReader.entityDeclaration(in: $0) }) {
                throw Self.declarationFound(file: file, at: chunkOffset - tail.count + found)
            }
        }
        if let found = XMLStreamReader.entityDeclaration(in: bytes) {
            throw Self.declarationFound(file: file, at: chunkOffset + found)
        }
        tail = Array(UnsafeRawBufferPointer(rebasing: bytes[max(0, end - (declarationLength - 1))..<end]))
        return bytes
    }

    private static func declarationFound(file: String, at offset: Int) -> StoreError {
        .corruptStore(file: file, offset: offset, reason: "entity declarations are not allowed in a store file")
    }
}

/// NUL-terminated UTF-8 from libxml2, compared and measured without making Strings.
enum CBytes {
    @inline(__always)
    static func length(_ bytes: UnsafePointer<UInt8>) -> Int {
        strlen(UnsafeRawPointer(bytes).assumingMemoryBound(to: CChar.self))
    }

    /// Whether the NUL-terminated `bytes` are exactly `literal` (which holds no NUL).
    @inline(__always)
    static func equal(_ bytes: UnsafePointer<UInt8>, _ literal: StaticString) -> Bool {
        let expected = literal.utf8Start
        let count = literal.utf8CodeUnitCount
        for index in 0..<count where bytes[index] != expected[index] { return false }
        return bytes[count] == 0
    }

    /// Whether `bytes` are exactly `literal`.
    @inline(__always)
    static func equal(_ bytes: UnsafeBufferPointer<UInt8>, _ literal: StaticString) -> Bool {
        bytes.count == literal.utf8CodeUnitCount
            && (bytes.isEmpty || memcmp(bytes.baseAddress!, literal.utf8Start, bytes.count) == 0)
    }
}
