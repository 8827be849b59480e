/// Builds indented XML text the way Xcode lays out a `contents` file: four spaces a level,
/// attributes in the order given, empty elements closed with `/>`.
struct XMLTextWriter {
    /// The text so far.
    private(set) var text = "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n"
    /// The open elements, each with the length of the text just after its start tag.
    private var open: [(name: String, end: Int)] = []

    /// An attribute list; `nil` values are left out.
    typealias Attributes = KeyValuePairs<String, String?>

    /// Opens `<name …>`; close it with ``close()``.
    mutating func open(_ name: String, _ attributes: Attributes = [:]) throws(ModelFileError) {
        text += indent + "<" + name + (try Self.attributeText(attributes, element: name)) + ">\n"
        open.append((name, text.utf8.count))
    }

    /// Writes `<name …/>`.
    mutating func empty(_ name: String, _ attributes: Attributes = [:]) throws(ModelFileError) {
        text += indent + "<" + name + (try Self.attributeText(attributes, element: name)) + "/>\n"
    }

    /// Closes the innermost open element; one that got no children becomes `<name …/>`.
    mutating func close() {
        guard let (name, end) = open.popLast() else { return }
        if text.utf8.count == end {
            text.removeLast(2)  // ">\n"
            text += "/>\n"
        } else {
            text += indent + "</" + name + ">\n"
        }
    }

    private var indent: String { String(repeating: "    ", count: open.count) }

    private static func attributeText(_ attributes: Attributes, element: String) throws(ModelFileError) -> String {
        var result = ""
        for (key, value) in attributes {
            guard let value else { continue }
            result += " " + key + "=\"" + (try escaped(value, what: "<\(element)> \(key)")) + "\""
        }
        return result
    }

    /// `value` escaped for a double-quoted attribute. Line breaks and tabs become character
    /// references, which XML keeps (a literal one would be read back as a space).
    ///
    /// - Throws: ``ModelFileError/unrepresentable(what:reason:)`` for a character XML 1.0 cannot
    ///   carry at all (NUL, other C0 controls, U+FFFE, U+FFFF).
    static func escaped(_ value: String, what: String) throws(ModelFileError) -> String {
        var result = ""
        result.reserveCapacity(value.utf8.count)
        for scalar in value.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "\n": result += "&#10;"
            case "\r": result += "&#13;"
            case "\t": result += "&#9;"
            default:
                guard scalar.value >= 0x20, scalar.value != 0xFFFE, scalar.value != 0xFFFF else {
                    throw .unrepresentable(
                        what: what,
                        reason: "character U+\(String(scalar.value, radix: 16, uppercase: true)) cannot appear in XML")
                }
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
