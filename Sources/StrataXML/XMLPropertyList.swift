import Foundation
@_spi(StoreImplementation) import StrataCore

/// Apple's XML property-list syntax, as the XML store's `<metadata>` holds it.
enum XMLPropertyList {
    static func write(_ value: PropertyListValue, indent: String, into out: inout String) {
        switch value {
        case .string(let s):
            if XMLText.canEscape(s) {
                out += "\(indent)<string>\(XMLText.escape(s))</string>\n"
            } else {
                out += "\(indent)<data encoding=\"string\">\(Data(s.utf8).base64EncodedString())</data>\n"
            }
        case .integer(let i): out += "\(indent)<integer>\(i)</integer>\n"
        case .double(let d): out += "\(indent)<real>\(XMLNumber.format(d))</real>\n"
        case .bool(let b): out += "\(indent)<\(b ? "true" : "false")/>\n"
        case .date(let d): out += "\(indent)<date>\(XMLNumber.format(d.timeIntervalSinceReferenceDate))</date>\n"
        case .data(let d): out += "\(indent)<data>\(d.base64EncodedString())</data>\n"
        case .array(let items):
            out += "\(indent)<array>\n"
            for item in items { write(item, indent: indent + "    ", into: &out) }
            out += "\(indent)</array>\n"
        case .dictionary(let entries):
            out += "\(indent)<dict>\n"
            for key in entries.keys.sorted() {
                if XMLText.canEscape(key) {
                    out += "\(indent)    <key>\(XMLText.escape(key))</key>\n"
                } else {
                    out += "\(indent)    <key encoding=\"base64\">\(Data(key.utf8).base64EncodedString())</key>\n"
                }
                write(entries[key] ?? .string(""), indent: indent + "    ", into: &out)
            }
            out += "\(indent)</dict>\n"
        }
    }

    static func read(_ node: XMLElementNode, reader: XMLStreamReader) throws -> PropertyListValue {
        func fail(_ reason: String) -> StoreError { reader.error(reason, line: node.line) }
        let text = node.text.trimmingCharacters(in: .whitespacesAndNewlines)
        switch node.name {
        case "string": return .string(node.text)
        case "integer":
            guard let value = Int64(text) else { throw fail("'\(text)' is not an integer") }
            return .integer(value)
        case "real":
            guard let value = XMLNumber.parse(text) else { throw fail("'\(text)' is not a number") }
            return .double(value)
        case "true": return .bool(true)
        case "false": return .bool(false)
        case "date":
            if let seconds = XMLNumber.parse(text) { return .date(Date(timeIntervalSinceReferenceDate: seconds)) }
            guard let date = ISO8601DateFormatter().date(from: text) else { throw fail("'\(text)' is not a date") }
            return .date(date)
        case "data":
            let compact = text.filter { !$0.isWhitespace }
            guard let data = Data(base64Encoded: compact) else { throw fail("<data> is not base64") }
            if node.attributes["encoding"] == "string" {
                guard let string = String(validating: data, as: UTF8.self) else { throw fail("<data encoding=\"string\"> is not UTF-8") }
                return .string(string)
            }
            return .data(data)
        case "array": return .array(try node.children.map { try read($0, reader: reader) })
        case "dict":
            var entries: [String: PropertyListValue] = [:]
            var index = 0
            while index < node.children.count {
                let keyNode = node.children[index]
                guard keyNode.name == "key", index + 1 < node.children.count else { throw fail("<dict> needs <key> and value pairs") }
                var key = keyNode.text
                if keyNode.attributes["encoding"] == "base64" {
                    guard let data = Data(base64Encoded: key.filter { !$0.isWhitespace }),
                          let decoded = String(validating: data, as: UTF8.self) else {
                        throw reader.error("<key encoding=\"base64\"> is not base64 of UTF-8", line: keyNode.line)
                    }
                    key = decoded
                }
                entries[key] = try read(node.children[index + 1], reader: reader)
                index += 2
            }
            return .dictionary(entries)
        default:
            throw fail("unknown property-list element <\(node.name)>")
        }
    }
}

/// Numbers as text that keeps every bit: shortest round-trip form, NaN with its payload.
enum XMLNumber {
    static func format(_ value: Double) -> String {
        value.isNaN ? "nan(0x\(String(value.bitPattern, radix: 16)))" : "\(value)"
    }

    static func format(_ value: Float) -> String {
        value.isNaN ? "nan(0x\(String(value.bitPattern, radix: 16)))" : "\(value)"
    }

    static func parse(_ text: String) -> Double? {
        if text.hasPrefix("nan(0x"), text.hasSuffix(")"),
           let bits = UInt64(text.dropFirst(6).dropLast(), radix: 16) { return Double(bitPattern: bits) }
        return Double(text)
    }

    static func parseFloat(_ text: String) -> Float? {
        if text.hasPrefix("nan(0x"), text.hasSuffix(")"),
           let bits = UInt32(text.dropFirst(6).dropLast(), radix: 16) { return Float(bitPattern: bits) }
        return Float(text)
    }
}
