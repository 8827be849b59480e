import Foundation

/// The checks made before a document reaches XMLParser, for input that stops the process in
/// FoundationXML on Linux (found by fuzzing, docs/fuzzing.md).
///
/// - libxml2 reads a document that declares no encoding (or UTF-8, or one it does not know) as
///   UTF-8, and hands an element or attribute name with bytes that are not UTF-8 to
///   FoundationXML, which traps on it (`<\u{FF}a>` is enough). Such a document is refused,
///   naming the line and column of the first bad byte. Documents in an encoding libxml2
///   converts (a UTF-16 start, an ISO-8859 or Windows code page declared) are left to it.
/// - A processing instruction without data (`<?x?>`) makes FoundationXML read a null pointer.
extension XMLTree {
    /// Where the first byte that is not UTF-8 lies (1-based line and column, and the byte's
    /// offset), when `data` is read as UTF-8 and has one; nil otherwise.
    static func firstInvalidUTF8(in data: Data) -> (line: Int, column: Int, offset: Int)? {
        guard readsAsUTF8(data) else { return nil }
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = data.makeIterator()
        var offset = 0
        var line = 1
        var column = 1
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                if encoded.count == 1, encoded.first == 0x0A {
                    line += 1
                    column = 1
                } else {
                    column += 1
                }
                offset += encoded.count
            case .emptyInput:
                return nil
            case .error:
                return (line, column, offset)
            }
        }
    }

    /// Whether `data` is checked as UTF-8: everything but a UTF-16 or UTF-32 start and an XML
    /// declaration naming, in quotes, an encoding libxml2 turns into UTF-8 whatever the bytes
    /// (``convertedEncodings``). Any other declaration — ASCII, an unknown name, a name without
    /// quotes, bytes that are no name — leaves libxml2 reading UTF-8.
    static func readsAsUTF8(_ data: Data) -> Bool {
        let start = Array(data.prefix(4))
        for other: [UInt8] in [[0xFE, 0xFF], [0xFF, 0xFE], [0x00, 0x00], [0x3C, 0x00], [0x00, 0x3C]]
        where start.starts(with: other) {
            return false
        }
        let head = String(decoding: data.prefix(256), as: UTF8.self)
        guard head.hasPrefix("<?xml") || head.hasPrefix("\u{FEFF}<?xml"),
              let declarationEnd = head.range(of: "?>") else { return true }
        let declaration = head[..<declarationEnd.lowerBound]
        guard let name = declaration.range(of: "encoding") else { return true }
        var rest = declaration[name.upperBound...].drop { $0.isWhitespace }
        guard rest.first == "=" else { return true }
        rest = rest.dropFirst().drop { $0.isWhitespace }
        guard let quote = rest.first, quote == "\"" || quote == "'" else { return true }
        let value = rest.dropFirst().prefix { $0 != quote }
        guard value.endIndex < rest.endIndex else { return true }   // no closing quote
        return !convertedEncodings.contains(value.lowercased())
    }

    /// The encodings, by the names a declaration may give them, that libxml2 converts to UTF-8
    /// from any bytes.
    static let convertedEncodings: Set<String> = {
        var names: Set<String> = ["utf-16", "utf16", "utf-16le", "utf-16be", "ucs-2", "ucs2", "iso-10646-ucs-2",
                                  "utf-32", "ucs-4", "ucs4", "iso-10646-ucs-4", "latin1", "iso-latin-1"]
        for part in [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 14, 15, 16] { names.insert("iso-8859-\(part)") }
        for page in 1250...1258 { names.formUnion(["windows-\(page)", "cp\(page)"]) }
        return names
    }()

    /// Where the first processing instruction without data (`<?name?>`, other than an XML
    /// declaration) starts, when there is one: FoundationXML on Linux reads the data such an
    /// instruction does not have and stops the process, so the document is refused before.
    static func firstEmptyProcessingInstruction(in data: Data) -> (line: Int, column: Int, offset: Int)? {
        let bytes = [UInt8](data)
        var line = 1
        var lineStart = 0
        var index = 0
        while index + 1 < bytes.count {
            if bytes[index] == 0x0A {
                line += 1
                lineStart = index + 1
            } else if bytes[index] == 0x3C, bytes[index + 1] == 0x3F {   // "<?"
                var end = index + 2
                while end < bytes.count, !isSpace(bytes[end]), bytes[end] != 0x3F { end += 1 }
                let target = bytes[(index + 2)..<end]
                while end < bytes.count, isSpace(bytes[end]) { end += 1 }
                let emptyData = end + 1 < bytes.count && bytes[end] == 0x3F && bytes[end + 1] == 0x3E
                if emptyData, !target.elementsEqual("xml".utf8) {
                    return (line, index - lineStart + 1, index)
                }
            }
            index += 1
        }
        return nil
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
