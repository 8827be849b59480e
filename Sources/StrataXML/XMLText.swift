import Foundation

/// Escaping for the XML store: every string survives a round trip scalar for scalar.
enum XMLText {
    /// Whether XML 1.0 can carry the scalar at all (even as a character reference).
    static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x9, 0xA, 0xD, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
        default: false
        }
    }

    /// Whether `string` can be written as XML text (otherwise it is written in base64).
    static func canEscape(_ string: String) -> Bool { string.unicodeScalars.allSatisfy(isAllowed) }

    /// Text content or attribute value with `& < > " '` escaped and CR, LF and TAB written as
    /// character references so parsers keep them exactly.
    static func escape(_ string: String, inAttribute: Bool = false) -> String {
        var out = ""
        out.unicodeScalars.reserveCapacity(string.unicodeScalars.count)
        for scalar in string.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"" where inAttribute: out += "&quot;"
            case "\r": out += "&#13;"
            case "\n" where inAttribute: out += "&#10;"
            case "\t" where inAttribute: out += "&#9;"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
