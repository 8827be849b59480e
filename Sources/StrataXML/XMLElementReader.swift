internal import CLibXML2
import Foundation
import StrataCore
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

/// A small element (name, attributes, text, children) read from the stream: the XML store
/// reads one `<databaseInfo>` or `<object>` at a time this way, never the whole document.
struct XMLElementNode {
    var name: String
    var attributes: [String: String]
    var text: String
    var children: [XMLElementNode]
    var line: Int

    func child(_ name: String) -> XMLElementNode? { children.first { $0.name == name } }
}

/// Streams an XML document through libxml2's `xmlTextReader`, hardened for hostile input: no
/// network, no DTD loading, no entity substitution, and any entity declaration or reference
/// refused before it can expand.
final class XMLStreamReader {
    private let reader: xmlTextReaderPtr
    /// The copy of the document the parser reads, when the reader owns one.
    private let buffer: UnsafeMutableBufferPointer<CChar>?
    let file: String
    /// The size of the document in bytes.
    let byteCount: Int
    /// The file the parser reads from, when it reads one in chunks.
    private let source: XMLFileSource?

    /// Node types of `xmlTextReader`.
    enum NodeType: Int32 {
        case element = 1, text = 3, cdata = 4, entityReference = 5, entity = 6, documentType = 10
        case whitespace = 13, significantWhitespace = 14, endElement = 15
    }

    /// A reader of a copy of `data`.
    convenience init(data: Data, file: String) throws {
        let copy = UnsafeMutableBufferPointer<CChar>.allocate(capacity: max(1, data.count))
        _ = data.withUnsafeBytes { raw in
            raw.copyBytes(to: UnsafeMutableRawBufferPointer(copy))
        }
        try self.init(bytes: UnsafeRawBufferPointer(start: copy.baseAddress, count: data.count), offset: data.startIndex,
                      owning: copy, file: file)
    }

    /// Reads `data` in place, without copying it: `body` must not keep the reader.
    static func withReader<T>(of data: Data, file: String, _ body: (XMLStreamReader) throws -> T) throws -> T {
        guard !data.isEmpty else { return try body(XMLStreamReader(data: data, file: file)) }
        return try data.withUnsafeBytes { raw in
            let reader = try XMLStreamReader(bytes: raw, offset: data.startIndex, owning: nil, file: file)
            return try withExtendedLifetime(reader) { try body(reader) }
        }
    }

    /// Reads the file at `url` in chunks, never holding the whole file in memory; each chunk is
    /// searched for an entity declaration before the parser sees any of it. `body` must not
    /// keep the reader.
    static func withReader<T>(contentsOf url: URL, _ body: (XMLStreamReader) throws -> T) throws -> T {
        let reader = try XMLStreamReader(source: XMLFileSource(url: url))
        return try withExtendedLifetime(reader) { try body(reader) }
    }

    private init(source: XMLFileSource) throws {
        file = source.file
        byteCount = source.size
        buffer = nil
        self.source = source
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOCDATA.rawValue | XML_PARSE_COMPACT.rawValue)
        let read: xmlInputReadCallback = { context, bytes, count in
            guard let context, let bytes else { return -1 }
            return Unmanaged<XMLFileSource>.fromOpaque(context).takeUnretainedValue().read(into: bytes, count: Int(count))
        }
        guard let reader = xmlReaderForIO(read, nil, Unmanaged.passUnretained(source).toOpaque(), nil, nil, options) else {
            if let failure = source.failure { throw failure }
            throw StoreError.corruptStore(file: file, offset: nil, reason: "the XML parser could not start")
        }
        self.reader = reader
        xmlTextReaderSetErrorHandler(reader, { _, _, _, _ in }, nil)
    }

    /// A reader of `bytes` (which must outlive it); it deallocates `owned` when done.
    /// `offset` is the index of the first byte in the caller's data, for error offsets.
    private init(bytes: UnsafeRawBufferPointer, offset: Int, owning owned: UnsafeMutableBufferPointer<CChar>?,
                 file: String) throws {
        self.file = file
        byteCount = bytes.count
        source = nil
        if let found = Self.entityDeclaration(in: bytes) {
            owned?.deallocate()
            throw StoreError.corruptStore(file: file, offset: offset + found,
                                          reason: "entity declarations are not allowed in a store file")
        }
        buffer = owned
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOCDATA.rawValue | XML_PARSE_COMPACT.rawValue)
        guard bytes.count <= Int(Int32.max),
              let reader = xmlReaderForMemory(bytes.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(bytes.count),
                                              nil, nil, options) else {
            owned?.deallocate()
            throw StoreError.corruptStore(file: file, offset: nil, reason: "the XML parser could not start")
        }
        self.reader = reader
        xmlTextReaderSetErrorHandler(reader, { _, _, _, _ in }, nil)
    }

    /// The offset of the first `<!ENTITY` in `bytes`. It looks for the rare `!` with `memchr`
    /// (the whole file is searched before parsing, so this must be fast).
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

    deinit {
        xmlFreeTextReader(reader)
        buffer?.deallocate()
    }

    var line: Int { Int(xmlTextReaderGetParserLineNumber(reader)) }

    func error(_ reason: String, line: Int? = nil) -> StoreError {
        .corruptStore(file: file, offset: nil, reason: "line \(line ?? self.line): \(reason)")
    }

    /// Advances to the next node; false at the end of the document.
    func next() throws -> Bool { try read() != nil }

    /// Advances to the next node and returns its `xmlTextReader` node type (``elementType``,
    /// ``endElementType``, a text type, …); nil at the end of the document.
    @inline(__always)
    func read() throws -> Int32? {
        let status = xmlTextReaderRead(reader)
        if let failure = source?.failure { throw failure }
        if status < 0 {
            let message = xmlGetLastError().flatMap { $0.pointee.message.map { String(cString: $0) } }?
                .trimmingCharacters(in: .whitespacesAndNewlines) ?? "malformed XML"
            throw error(message)
        }
        guard status == 1 else { return nil }
        let type = xmlTextReaderNodeType(reader)
        if type == NodeType.entityReference.rawValue || type == NodeType.entity.rawValue {
            throw error("entity references are not allowed in a store file")
        }
        return type
    }

    /// Node types that ``read()`` returns.
    static let elementType = NodeType.element.rawValue
    static let endElementType = NodeType.endElement.rawValue

    /// Whether a node type is character data (text, CDATA or whitespace).
    @inline(__always)
    static func isTextType(_ type: Int32) -> Bool {
        type == NodeType.text.rawValue || type == NodeType.cdata.rawValue
            || type == NodeType.whitespace.rawValue || type == NodeType.significantWhitespace.rawValue
    }

    var isStartElement: Bool { xmlTextReaderNodeType(reader) == NodeType.element.rawValue }
    var isEndElement: Bool { xmlTextReaderNodeType(reader) == NodeType.endElement.rawValue }
    var isEmptyElement: Bool { xmlTextReaderIsEmptyElement(reader) == 1 }
    var depth: Int { Int(xmlTextReaderDepth(reader)) }
    var name: String { xmlTextReaderConstName(reader).map { String(cString: $0) } ?? "" }

    /// Whether the current node's qualified name is `literal`, compared as bytes (no String).
    @inline(__always)
    func nameIs(_ literal: StaticString) -> Bool {
        guard let name = xmlTextReaderConstName(reader) else { return false }
        return CBytes.equal(name, literal)
    }

    /// Calls `body` with the qualified name and the value of each attribute of the current
    /// element, as NUL-terminated UTF-8 valid only during the call, then returns to the element.
    @inline(__always)
    func forEachAttribute(_ body: (UnsafePointer<UInt8>, UnsafePointer<UInt8>) throws -> Void) throws {
        guard xmlTextReaderHasAttributes(reader) == 1 else { return }
        defer { xmlTextReaderMoveToElement(reader) }
        while xmlTextReaderMoveToNextAttribute(reader) == 1 {
            guard let name = xmlTextReaderConstName(reader) else { continue }
            if let value = xmlTextReaderConstValue(reader) {
                try body(name, value)
            } else {
                try CBytes.empty.withUnsafeBufferPointer { try body(name, $0.baseAddress!) }
            }
        }
    }

    /// Appends the current (text) node's value to `bytes`.
    @inline(__always)
    func appendValue(to bytes: inout [UInt8]) {
        guard let value = xmlTextReaderConstValue(reader) else { return }
        bytes.append(contentsOf: UnsafeBufferPointer(start: value, count: CBytes.length(value)))
    }

    private var isText: Bool {
        switch NodeType(rawValue: xmlTextReaderNodeType(reader)) {
        case .text, .cdata, .whitespace, .significantWhitespace: true
        default: false
        }
    }

    var value: String { xmlTextReaderConstValue(reader).map { String(cString: $0) } ?? "" }

    private var attributes: [String: String] {
        var result: [String: String] = [:]
        guard xmlTextReaderHasAttributes(reader) == 1 else { return result }
        while xmlTextReaderMoveToNextAttribute(reader) == 1 {
            result[name] = value
        }
        xmlTextReaderMoveToElement(reader)
        return result
    }

    /// Reads the element the reader stands on, with everything inside it, up to `maximumDepth`
    /// levels below it.
    func readElement(maximumDepth: Int = 32) throws -> XMLElementNode {
        var node = XMLElementNode(name: name, attributes: attributes, text: "", children: [], line: line)
        guard !isEmptyElement else { return node }
        let startDepth = depth
        while try next() {
            if isEndElement, depth == startDepth { return node }
            if isStartElement {
                guard maximumDepth > 0 else { throw error("elements nested too deeply") }
                node.children.append(try readElement(maximumDepth: maximumDepth - 1))
            } else if isText {
                node.text += value
            }
        }
        throw error("the document ends inside <\(node.name)>")
    }
}

/// A store file read in chunks for the parser (`xmlReaderForIO`), each chunk searched for
/// `<!ENTITY` (also across chunk boundaries) before the parser is given any of its bytes.
final class XMLFileSource {
    let file: String
    let size: Int
    private let descriptor: Int32
    private let chunk: UnsafeMutableRawBufferPointer
    private var start = 0
    private var end = 0
    /// The file offset of `chunk[0]`.
    private var chunkOffset = 0
    /// The last bytes of the previous chunk, for a declaration that spans two chunks.
    private var tail: [UInt8] = []
    private var atEnd = false
    /// Why reading stopped: an I/O error or an entity declaration. The reader throws it.
    private(set) var failure: StoreError?

    static let chunkSize = 1 << 20

    init(url: URL) throws {
        file = url.path
        descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw StoreError.io(file: url.path, operation: "read", reason: String(cString: strerror(errno)))
        }
        var status = stat()
        size = fstat(descriptor, &status) == 0 ? Int(status.st_size) : 0
        chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.chunkSize, alignment: 16)
    }

    deinit {
        close(descriptor)
        chunk.deallocate()
    }

    /// Copies up to `count` bytes for the parser: how many, 0 at the end, -1 on failure.
    func read(into destination: UnsafeMutablePointer<CChar>, count: Int) -> Int32 {
        guard failure == nil else { return -1 }
        if start == end {
            guard !atEnd else { return 0 }
            refill()
            guard failure == nil else { return -1 }
            if start == end { return 0 }
        }
        let length = min(count, end - start)
        UnsafeMutableRawPointer(destination).copyMemory(from: chunk.baseAddress! + start, byteCount: length)
        start += length
        return Int32(length)
    }

    private func refill() {
        chunkOffset += end
        start = 0
        end = 0
        while end < chunk.count {
            let got = systemRead(descriptor, chunk.baseAddress! + end, chunk.count - end)
            if got < 0 {
                if errno == EINTR { continue }
                failure = .io(file: file, operation: "read", reason: String(cString: strerror(errno)))
                return
            }
            if got == 0 {
                atEnd = true
                break
            }
            end += got
        }
        let declaration = Array("<!ENTITY".utf8)
        // Across the boundary: the previous chunk's last bytes and this chunk's first ones.
        if !tail.isEmpty, end > 0 {
            let joined = tail + Array(UnsafeRawBufferPointer(rebasing: chunk[0..<min(end, declaration.count - 1)]))
            let found = joined.withUnsafeBytes { XMLStreamReader.entityDeclaration(in: $0) }
            if let found {
                failure = Self.declarationFound(file: file, at: chunkOffset - tail.count + found)
                return
            }
        }
        if let found = XMLStreamReader.entityDeclaration(in: UnsafeRawBufferPointer(rebasing: chunk[0..<end])) {
            failure = Self.declarationFound(file: file, at: chunkOffset + found)
            return
        }
        tail = Array(UnsafeRawBufferPointer(rebasing: chunk[max(0, end - (declaration.count - 1))..<end]))
    }

    private static func declarationFound(file: String, at offset: Int) -> StoreError {
        .corruptStore(file: file, offset: offset, reason: "entity declarations are not allowed in a store file")
    }
}

/// NUL-terminated UTF-8 from libxml2, compared and measured without making Strings.
enum CBytes {
    static let empty: [UInt8] = [0]

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
}
