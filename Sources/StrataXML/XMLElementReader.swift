internal import CLibXML2
import Foundation
import StrataCore

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
    private let buffer: UnsafeMutableBufferPointer<CChar>
    let file: String

    /// Node types of `xmlTextReader`.
    private enum NodeType: Int32 {
        case element = 1, text = 3, cdata = 4, entityReference = 5, entity = 6, documentType = 10
        case whitespace = 13, significantWhitespace = 14, endElement = 15
    }

    init(data: Data, file: String) throws {
        self.file = file
        if data.range(of: Data("<!ENTITY".utf8)) != nil {
            throw StoreError.corruptStore(file: file, offset: data.range(of: Data("<!ENTITY".utf8))?.lowerBound,
                                          reason: "entity declarations are not allowed in a store file")
        }
        let copy = UnsafeMutableBufferPointer<CChar>.allocate(capacity: max(1, data.count))
        _ = data.withUnsafeBytes { raw in
            raw.copyBytes(to: UnsafeMutableRawBufferPointer(copy))
        }
        buffer = copy
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOCDATA.rawValue | XML_PARSE_COMPACT.rawValue)
        guard data.count <= Int(Int32.max),
              let reader = xmlReaderForMemory(copy.baseAddress, Int32(data.count), nil, nil, options) else {
            copy.deallocate()
            throw StoreError.corruptStore(file: file, offset: nil, reason: "the XML parser could not start")
        }
        self.reader = reader
        xmlTextReaderSetErrorHandler(reader, { _, _, _, _ in }, nil)
    }

    deinit {
        xmlFreeTextReader(reader)
        buffer.deallocate()
    }

    var line: Int { Int(xmlTextReaderGetParserLineNumber(reader)) }

    func error(_ reason: String, line: Int? = nil) -> StoreError {
        .corruptStore(file: file, offset: nil, reason: "line \(line ?? self.line): \(reason)")
    }

    /// Advances to the next node; false at the end of the document.
    func next() throws -> Bool {
        let status = xmlTextReaderRead(reader)
        if status < 0 {
            let message = xmlGetLastError().flatMap { $0.pointee.message.map { String(cString: $0) } }?
                .trimmingCharacters(in: .whitespacesAndNewlines) ?? "malformed XML"
            throw error(message)
        }
        guard status == 1 else { return false }
        switch NodeType(rawValue: xmlTextReaderNodeType(reader)) {
        case .entityReference, .entity:
            throw error("entity references are not allowed in a store file")
        default:
            return true
        }
    }

    var isStartElement: Bool { xmlTextReaderNodeType(reader) == NodeType.element.rawValue }
    var isEndElement: Bool { xmlTextReaderNodeType(reader) == NodeType.endElement.rawValue }
    var isEmptyElement: Bool { xmlTextReaderIsEmptyElement(reader) == 1 }
    var depth: Int { Int(xmlTextReaderDepth(reader)) }
    var name: String { xmlTextReaderConstName(reader).map { String(cString: $0) } ?? "" }

    private var isText: Bool {
        switch NodeType(rawValue: xmlTextReaderNodeType(reader)) {
        case .text, .cdata, .whitespace, .significantWhitespace: true
        default: false
        }
    }

    private var value: String { xmlTextReaderConstValue(reader).map { String(cString: $0) } ?? "" }

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
