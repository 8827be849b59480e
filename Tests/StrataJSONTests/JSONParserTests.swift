import Foundation
import Testing
@testable @_spi(StoreImplementation) import StrataJSON

@Suite("JSON parser")
struct JSONParserTests {
    @Test("values of every kind parse, numbers keep their literal text, members keep their order")
    func parsesEveryKind() throws {
        let value = try JSONParser.parse(#" {"z": [1, -0.0, 1e-05, 12345678901234567890], "a": {"t": true, "f": false, "n": null}, "s": "x\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00"} "#)
        guard case .object(let root) = value else { Issue.record("not an object"); return }
        #expect(Array(root.keys) == ["z", "a", "s"])
        #expect(root["z"] == .array([.number("1"), .number("-0.0"), .number("1e-05"), .number("12345678901234567890")]))
        #expect(root["a"] == .object(["t": .bool(true), "f": .bool(false), "n": .null]))
        #expect(root["s"] == .string("x\"\\/\u{8}\u{C}\n\r\té😀"))
    }

    @Test("malformed text is an error with the line and column of the problem", arguments: [
        ("", 1, 1, "expected a value"),
        ("[1, 2,]", 1, 7, "expected a value"),
        ("{\"a\": 1,\n \"a\": 2}", 2, 2, "duplicate member name"),
        ("[01]", 1, 3, "expected ',' or ']'"),
        ("{\"a\" 1}", 1, 6, "expected ':'"),
        ("\"abc", 1, 5, "unterminated string"),
        ("\"a\u{1}b\"", 1, 3, "unescaped control character"),
        ("\"\\ud800\"", 1, 2, "unpaired surrogate"),
        ("\"\\udc00x\"", 1, 2, "unpaired surrogate"),
        ("\"\\x\"", 1, 2, "invalid escape"),
        ("[1.]", 1, 4, "expected a digit after '.'"),
        ("[1e+]", 1, 5, "expected a digit in the exponent"),
        ("tru", 1, 1, "expected a value"),
        ("[1] 2", 1, 5, "unexpected text after the document"),
        ("{1: 2}", 1, 2, "expected a member name"),
        ("[-]", 1, 3, "expected a digit"),
        ("NaN", 1, 1, "expected a value"),
    ])
    func reportsWhere(text: String, line: Int, column: Int, reason: String) {
        do {
            _ = try JSONParser.parse(text)
            Issue.record("\(text.debugDescription) parsed")
        } catch {
            #expect(error.line == line, "\(text.debugDescription): \(error)")
            #expect(error.column == column, "\(text.debugDescription): \(error)")
            #expect(error.reason.contains(reason), "\(text.debugDescription): \(error)")
        }
    }

    @Test("invalid UTF-8 inside a string is an error, not a replacement character")
    func invalidUTF8() {
        let bytes: [UInt8] = Array("[\"ab".utf8) + [0xC3, 0x28] + Array("\"]".utf8)
        #expect(throws: JSONParseError.self) { try JSONParser.parse(Data(bytes)) }
    }

    @Test("nesting a million levels deep is an error, not a stack overflow")
    func deepNesting() {
        let text = String(repeating: "[", count: 1_000_000) + String(repeating: "]", count: 1_000_000)
        do {
            _ = try JSONParser.parse(text)
            Issue.record("parsed")
        } catch {
            #expect(error.reason.contains("nesting deeper than \(JSONParser.maximumDepth)"))
        }
        let allowed = String(repeating: "[", count: JSONParser.maximumDepth) + String(repeating: "]", count: JSONParser.maximumDepth)
        #expect(throws: Never.self) { try JSONParser.parse(allowed) }
    }

    @Test("every prefix of a document is an error or a value, never a crash")
    func truncatedDocuments() throws {
        let text = #"{"format": "strata-export", "objects": [{"a": [1, 2.5e3, "x\u00e9\ud83d\ude00", null, true]}]}"#
        let bytes = Array(text.utf8)
        var errors = 0
        for length in 0..<bytes.count {
            do { _ = try JSONParser.parse(Data(bytes[..<length])) } catch { errors += 1 }
        }
        #expect(errors == bytes.count)
        #expect(throws: Never.self) { try JSONParser.parse(Data(bytes)) }
    }

    @Test("what the writer writes parses back to the same value, every scalar kept")
    func writerRoundTrip() throws {
        let strings = ["", "\u{0}", "\u{1}\u{1F}\u{7F}", "quote \" backslash \\ slash /", "E\u{301} \u{C9}", "👩‍👩‍👧", "\u{FEFF}bom", "\u{2028}\u{2029}", "\r\n\t"]
        let value: JSONValue = .object([
            "strings": .array(strings.map(JSONValue.string)),
            "numbers": .array([.number("0"), .number("-1.5e-300"), .integer(Int64.min)]),
            "nested": .object(["b": .array([]), "a": .object([:]), "n": .null]),
        ])
        for text in [JSONWriter.compact(value), JSONWriter.pretty(value)] {
            let parsed = try JSONParser.parse(text)
            #expect(parsed == value)
            guard case .object(let root) = parsed, case .array(let back)? = root["strings"] else { continue }
            for (original, read) in zip(strings, back) {
                guard case .string(let string) = read else { Issue.record("not a string"); continue }
                #expect(string.unicodeScalars.elementsEqual(original.unicodeScalars))
            }
        }
    }
}
