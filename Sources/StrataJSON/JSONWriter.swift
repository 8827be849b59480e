/// Writes ``JSONValue``s as text: compact, members in their order, strings escaped so any
/// scalar survives, numbers as their literal text.
public enum JSONWriter {
    /// The compact text of `value` (`{"a": 1, "b": [true, null]}`: one space after ':' and ',').
    public static func compact(_ value: JSONValue) -> String {
        var output = ""
        write(value, to: &output)
        return output
    }

    /// Appends the compact text of `value` to `output`.
    public static func write(_ value: JSONValue, to output: inout String) {
        switch value {
        case .null: output += "null"
        case .bool(let flag): output += flag ? "true" : "false"
        case .number(let text): output += text
        case .string(let text): writeString(text, to: &output)
        case .array(let elements):
            output += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { output += ", " }
                write(element, to: &output)
            }
            output += "]"
        case .object(let members):
            output += "{"
            for (index, member) in members.enumerated() {
                if index > 0 { output += ", " }
                writeString(member.key, to: &output)
                output += ": "
                write(member.value, to: &output)
            }
            output += "}"
        }
    }

    /// Appends `text` as a quoted JSON string: `"` `\` and control characters escaped, every
    /// other scalar written as UTF-8.
    public static func writeString(_ text: String, to output: inout String) {
        output += "\""
        var needsEscaping = false
        for byte in text.utf8 where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
            needsEscaping = true
            break
        }
        guard needsEscaping else {
            output += text
            output += "\""
            return
        }
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case "\u{08}": output += "\\b"
            case "\u{0C}": output += "\\f"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }
}

extension JSONWriter {
    /// Indented text: every member and element on its own line, two spaces per level, empty
    /// arrays and objects as `[]` and `{}`.
    public static func pretty(_ value: JSONValue) -> String {
        var output = ""
        writePretty(value, indent: "", to: &output)
        return output
    }

    private static func writePretty(_ value: JSONValue, indent: String, to output: inout String) {
        let inner = indent + "  "
        switch value {
        case .array(let elements) where !elements.isEmpty:
            output += "[\n"
            for (index, element) in elements.enumerated() {
                output += inner
                writePretty(element, indent: inner, to: &output)
                output += index == elements.count - 1 ? "\n" : ",\n"
            }
            output += indent + "]"
        case .object(let members) where !members.isEmpty:
            output += "{\n"
            for (index, member) in members.enumerated() {
                output += inner
                writeString(member.key, to: &output)
                output += ": "
                writePretty(member.value, indent: inner, to: &output)
                output += index == members.count - 1 ? "\n" : ",\n"
            }
            output += indent + "}"
        default:
            write(value, to: &output)
        }
    }
}

extension JSONWriter {
    /// An array written one compact element per line, as the `objects` array of an export.
    public static func objectLines(_ elements: [JSONValue]) -> String {
        guard !elements.isEmpty else { return "[]" }
        var output = "["
        for (index, element) in elements.enumerated() {
            output += index == 0 ? "\n  " : ",\n  "
            write(element, to: &output)
        }
        return output + "\n]"
    }
}
