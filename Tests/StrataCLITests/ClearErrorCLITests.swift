import Foundation
import StrataTestSupport
import Testing

/// Errors that say what is wrong and where: a comparison of mismatched types and a to-many sort
/// key in `query`, damaged SQLite metadata, an XML store read with a model that lacks its
/// entities; and the XML store's UUID in `inspect`.
@Suite("CLI: clear errors")
struct ClearErrorCLITests {
    /// The sample store as a store of `type`.
    private func sample(_ type: String, in scratch: Scratch) throws -> String {
        guard type != "xml" else { return CLI.sampleStore }
        let store = scratch.path("school.\(type)")
        try scratch.succeed("convert-store", CLI.sampleStore, store, "--model", CLI.model)
        return store
    }

    @Test("query refuses a comparison of mismatched types and a to-many sort key on every store type",
          arguments: ["xml", "binary", "sqlite"])
    func queryRefusals(type: String) throws {
        let scratch = try Scratch()
        let store = try sample(type, in: scratch)
        let cases: [([String], [String])] = [
            (["--predicate", "year == \"x\""], ["entity 'Student'", "'year' (Integer 16)", "with a string"]),
            (["--predicate", "name > 5"], ["'name' (String)", "with a number"]),
            (["--predicate", "birthDate == 'today'", "--count"], ["'birthDate' (Date)", "with a string"]),
            (["--sort", "courses"], ["cannot sort by 'courses'", "to-many"]),
            (["--sort", "-courses.title"], ["cannot sort by 'courses.title'"]),
        ]
        for (arguments, fragments) in cases {
            let result = try scratch.run(["query", store, "--model", CLI.model, "--entity", "Student"] + arguments)
            expectOneLineFailure(result, mentioning: fragments)
        }
        let fine = try scratch.run("query", store, "--model", CLI.model, "--entity", "Student",
                                   "--predicate", "year == 11.0 OR teacher == nil", "--count")
        #expect(fine.status == 0 && fine.stdout == "2\n", "\(fine)")
    }

    @Test("a damaged Z_METADATA names the file and says what it holds", arguments: ["X'00112233'", "substr(Z_PLIST, 1, 30)"])
    func damagedMetadata(value: String) throws {
        let scratch = try Scratch()
        let store = try sample("sqlite", in: scratch)
        _ = try SQLiteShell.rows(URL(fileURLWithPath: store), "UPDATE Z_METADATA SET Z_PLIST = \(value)")
        for command in [["inspect", store], ["export", store, "--model", CLI.model]] {
            let result = try scratch.run(command)
            expectOneLineFailure(result, mentioning: [store, "Z_METADATA.Z_PLIST holds"])
            #expect(!result.stderr.contains("Domain") && !result.stderr.contains("NSCocoa"), "\(result)")
        }
    }

    @Test("an XML store read with a model lacking its entities: the model does not match, naming them")
    func modelLackingEntities() throws {
        let scratch = try Scratch()
        let model = try scratch.write("""
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" systemVersion="1" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
            <entity name="Other" representedClassName="Other" syncable="YES">
                <attribute name="title" optional="YES" attributeType="String"/>
            </entity>
        </model>
        """, to: "other-contents")
        for command in [["export", CLI.sampleStore, "--model", model], ["validate", CLI.sampleStore, "--model", model]] {
            let result = try scratch.run(command)
            expectOneLineFailure(result, mentioning: ["school.xml", "the model does not match the store", "Course", "Other"])
            #expect(!result.stderr.contains("nextPrimaryKey"), "\(result)")
        }
    }

    @Test("inspect shows an XML or binary store's UUID even when its metadata does not repeat it")
    func uuidShown() throws {
        let scratch = try Scratch()
        let text = String(decoding: try scratch.read(CLI.sampleStore), as: UTF8.self)
        let entry = "<key>NSStoreUUID</key>"
        let start = try #require(text.range(of: entry))
        let end = try #require(text.range(of: "</string>", range: start.upperBound..<text.endIndex))
        let store = try scratch.write(text.replacingCharacters(in: start.lowerBound..<end.upperBound, with: ""), to: "no-uuid.xml")
        let binary = scratch.path("no-uuid.binary")
        try scratch.succeed("convert-store", store, binary, "--model", CLI.model)
        for file in [store, binary] {
            let inspected = try scratch.succeed("inspect", file)
            #expect(inspected.outputLines.contains("UUID:     \(CLI.sampleUUID)"), "\(inspected)")
        }
    }
}
