import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// One element of a parsed XML document: its name, attributes, the line it starts on and its
/// child elements (text is not kept: the `contents` format has none).
struct XMLTree: Sendable {
    /// The element's name.
    var name: String
    /// The element's attributes, entity references resolved.
    var attributes: [String: String]
    /// The line of the element's start tag (where the tag ends, as libxml2 reports it).
    var line: Int?
    /// The child elements, in document order.
    var children: [XMLTree]

    /// Parses `data` into a tree of elements.
    ///
    /// - Throws: ``ModelFileError/emptyFile(file:)`` or
    ///   ``ModelFileError/malformedXML(file:line:column:reason:)`` naming `file` (also for a
    ///   document read as UTF-8 that is not, and for input XMLParser cannot take: see
    ///   `XMLTree+ParserGuards.swift`).
    static func parse(_ data: Data, file: String) throws(ModelFileError) -> XMLTree {
        guard data.contains(where: { !Self.isXMLSpace($0) }) else { throw .emptyFile(file: file) }
        if let bad = firstInvalidUTF8(in: data) {
            throw .malformedXML(file: file, line: bad.line, column: bad.column,
                                reason: "a byte that is not UTF-8 at offset \(bad.offset) of a document read as UTF-8")
        }
        if let instruction = firstEmptyProcessingInstruction(in: data) {
            throw .malformedXML(file: file, line: instruction.line, column: instruction.column,
                                reason: "a processing instruction without data at offset \(instruction.offset), which the XML parser cannot read")
        }
        let builder = TreeBuilder()
        let outcome: (ok: Bool, line: Int, column: Int, error: Error?) = parserLock.withLock {
            let parser = XMLParser(data: data)
            parser.shouldProcessNamespaces = false
            parser.shouldReportNamespacePrefixes = false
            parser.shouldResolveExternalEntities = false
            parser.delegate = builder
            let ok = parser.parse()
            return (ok, parser.lineNumber, parser.columnNumber, parser.parserError)
        }
        if let line = builder.tooDeepAtLine {
            throw .malformedXML(file: file, line: line > 0 ? line : nil, column: nil,
                                reason: "elements nested deeper than \(TreeBuilder.maximumDepth) levels")
        }
        // XMLParser may report success for a truncated document while also reporting an error,
        // so the error (from the delegate or the parser) decides, not the return value.
        if let failure = builder.firstError ?? outcome.error.map({ (error: $0, line: outcome.line, column: outcome.column) }) {
            throw .malformedXML(file: file, line: failure.line > 0 ? failure.line : nil,
                                column: failure.column > 0 ? failure.column : nil,
                                reason: reason(for: failure.error))
        }
        guard outcome.ok, builder.open.isEmpty, let root = builder.root else {
            let line = outcome.line > 0 ? outcome.line : nil
            throw .malformedXML(file: file, line: line, column: nil,
                                reason: builder.open.isEmpty ? "no root element" : "the document ends inside <\(builder.open.last?.name ?? "")>")
        }
        return root
    }

    /// libxml2 keeps global state; XMLParser instances are used one at a time across the process.
    private static let parserLock = NSLock()

    private static func isXMLSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// A readable reason for an XMLParser error (its descriptions are empty on Linux).
    private static func reason(for error: Error) -> String {
        let code = (error as NSError).code
        switch XMLParser.ErrorCode(rawValue: code) {
        case .documentStartError?, .emptyDocumentError?:
            return "the document does not start with XML (error \(code))"
        case .prematureDocumentEndError?:
            return "the document ends early (truncated?) (error \(code))"
        case .invalidCharacterError?, .invalidCharacterInEntityError?, .invalidCharacterRefError?:
            return "a character XML does not allow (error \(code))"
        case .encodingNotSupportedError?:
            return "an unsupported or invalid text encoding (error \(code))"
        case .tagNameMismatchError?, .gtRequiredError?, .ltRequiredError?, .notWellBalancedError?:
            return "tags do not match or are not closed (error \(code))"
        case .attributeNotStartedError?, .attributeNotFinishedError?, .attributeHasNoValueError?,
            .attributeRedefinedError?, .literalNotStartedError?, .literalNotFinishedError?:
            return "a malformed attribute (error \(code))"
        case .undeclaredEntityError?, .entityNotStartedError?, .entityNotFinishedError?,
            .entityRefAtEOFError?, .entityBoundaryError?, .entityIsExternalError?:
            return "an undefined or malformed entity reference (error \(code))"
        case .extraContentError?:
            return "content after the root element (error \(code))"
        default:
            return "XML parser error \(code)"
        }
    }
}

/// Builds an ``XMLTree`` from XMLParser's events, iteratively, refusing absurd nesting.
private final class TreeBuilder: NSObject, XMLParserDelegate {
    /// Deeper than any model file (which nests five levels), shallow enough that a tree this deep
    /// is freed without exhausting a thread's stack (freeing nested arrays recurses).
    static let maximumDepth = 256

    var open: [XMLTree] = []
    var root: XMLTree?
    var firstError: (error: Error, line: Int, column: Int)?
    var tooDeepAtLine: Int?

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
        qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]
    ) {
        let line = parser.lineNumber
        guard open.count < Self.maximumDepth else {
            if tooDeepAtLine == nil { tooDeepAtLine = line }
            parser.abortParsing()
            return
        }
        open.append(XMLTree(name: elementName, attributes: attributeDict, line: line > 0 ? line : nil, children: []))
    }

    func parser(
        _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?,
        qualifiedName qName: String?
    ) {
        guard let done = open.popLast() else { return }
        if open.isEmpty {
            if root == nil { root = done }
        } else {
            open[open.count - 1].children.append(done)
        }
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) {
        if firstError == nil { firstError = (parseError, parser.lineNumber, parser.columnNumber) }
    }

    func parser(_ parser: XMLParser, validationErrorOccurred validationError: Error) {
        if firstError == nil { firstError = (validationError, parser.lineNumber, parser.columnNumber) }
    }
}
