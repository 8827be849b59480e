import Foundation
import StrataTestSupport
import Testing

/// Commands never pass on a value that would change or that the result could not hold: a store
/// value outside its attribute's range is refused on read, and imports refuse numbers beyond
/// their type, over-long decimals and colliding primary keys (unless `--renumber`).
@Suite("CLI: values that do not fit")
struct StoredValueCLITests {
    /// The sample store converted to `type`, with Student p3's Integer 16 `year` set to 99999
    /// behind Strata's back.
    private func damagedSample(_ type: String, in scratch: Scratch) throws -> String {
        let store = scratch.path("school.\(type)")
        switch type {
        case "sqlite":
            try scratch.succeed("convert-store", CLI.sampleStore, store, "--model", CLI.model)
            _ = try SQLiteShell.rows(URL(fileURLWithPath: store), "UPDATE ZPERSON SET ZYEAR = 99999 WHERE Z_PK = 3")
        default:
            let text = String(decoding: try scratch.read(CLI.sampleStore), as: UTF8.self)
            let damaged = text.replacingOccurrences(of: "<attribute name=\"year\" type=\"int16\">12</attribute>",
                                                    with: "<attribute name=\"year\" type=\"int16\">99999</attribute>")
            #expect(damaged != text, "the sample no longer holds Student p3's year")
            try scratch.write(damaged, to: "school.xml")
        }
        return store
    }

    private static let fragments = ["Student", "/Student/p3", "'year'", "99999", "-32768...32767"]

    @Test("export and convert-store refuse a value out of its range, exit 2, and write nothing", arguments: ["sqlite", "xml"])
    func outOfRange(type: String) throws {
        let scratch = try Scratch()
        let store = try damagedSample(type, in: scratch)
        let before = try scratch.listing()
        let exported = try scratch.run("export", store, "--model", CLI.model, "--output", scratch.path("out.json"))
        expectOneLineFailure(exported, mentioning: Self.fragments + [store])
        for destination in ["copy.binary", "copy.xml", "copy.sqlite"] where !destination.hasSuffix(type) {
            let converted = try scratch.run("convert-store", store, scratch.path(destination), "--model", CLI.model)
            expectOneLineFailure(converted, mentioning: Self.fragments)
        }
        let queried = try scratch.run("query", store, "--model", CLI.model, "--entity", "Student")
        expectOneLineFailure(queried, mentioning: Self.fragments)
        #expect(try scratch.listing() == before, "a command left a file behind")
    }

    /// The sample document with `replacing` replaced by `with` (each once at least).
    private func sampleDocument(_ scratch: Scratch, _ changes: [(String, String)]) throws -> String {
        var text = String(decoding: try scratch.read(CLI.sampleDocument), as: UTF8.self)
        for (old, new) in changes {
            #expect(text.contains(old), "the sample document lacks \(old)")
            text = text.replacingOccurrences(of: old, with: new)
        }
        return try scratch.write(text, to: "doc.json")
    }

    @Test("import refuses a number beyond Double's range and a decimal of more than 38 digits, with their JSON paths")
    func importRefusesChangedValues() throws {
        let scratch = try Scratch()
        let digits = String(repeating: "1234567890", count: 4)   // 40 significant digits
        let document = try sampleDocument(scratch, [("\"gpa\": 3.7", "\"gpa\": 1e400"), ("\"salary\": \"58000\"", "\"salary\": \"\(digits)\"")])
        let result = try scratch.run("import", document, scratch.path("new.xml"), "--model", CLI.model)
        #expect(result.status == 2, "\(result)")
        #expect(result.errorLines.count == 2, "\(result)")
        #expect(result.stderr.contains("$.objects[7].attributes.gpa: expected a number within Double's range"), "\(result)")
        #expect(result.stderr.contains("found the number 1e400"), "\(result)")
        #expect(result.stderr.contains("$.objects[11].attributes.salary: expected a decimal number of at most 38 significant digits"),
                "\(result)")
        #expect(!scratch.exists(scratch.path("new.xml")))
    }

    @Test("colliding primary keys are refused with both JSON paths; --renumber gives new keys and prints the map")
    func collidingKeys() throws {
        let scratch = try Scratch()
        // Teacher/p4 becomes Teacher/p3, the key of Student/p3 under Person.
        let document = try sampleDocument(scratch, [("Teacher/p4", "Teacher/p3")])
        let refused = try scratch.run("import", document, scratch.path("new.sqlite"), "--model", CLI.model)
        expectOneLineFailure(refused, mentioning: ["$.objects[10].ref", "'Teacher/p3'", "'Student/p3' at $.objects[9].ref", "--renumber"])
        #expect(!scratch.exists(scratch.path("new.sqlite")))

        let imported = try scratch.succeed("import", document, scratch.path("new.sqlite"), "--model", CLI.model, "--renumber")
        #expect(imported.outputLines.first == "renumbered: Teacher/p3 -> Teacher/p6", "\(imported)")
        let export = try scratch.export(scratch.path("new.sqlite"))
        #expect(export.contains("\"ref\": \"Student/p3\", \"attributes\": {\"birthDate\": null"), "Student p3 keeps its key")
        #expect(export.contains("\"ref\": \"Teacher/p6\", \"attributes\": {\"birthDate\": -31536000"), "the teacher has the new key")
        #expect(!export.contains("Teacher/p3"))
        #expect(export.contains("\"ref\": \"Teacher/p5\""), "Teacher p5 keeps its key")
    }
}
