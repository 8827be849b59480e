import Foundation
import StrataCore
import StrataModelFiles
import Testing

/// Inputs the model-file fuzz target (Fuzzing/, docs/fuzzing.md) found, minimized: each once
/// stopped the process; each is now a typed error.
@Suite struct FuzzFindingTests {
    @Test("a name with a byte that is not UTF-8 is malformed XML, not a crash", arguments: [
        Data([0x3C, 0xFF, 0x64, 0x6C, 0x3E]),                                     // <\xFFdl>  (as found)
        Data("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<model><ent\u{FF}".utf8) + Data([0xC3, 0x28, 0x3E]),
        Data("<model>\n  <entity n".utf8) + Data([0xE2, 0x82]) + Data("=\"A\"/></model>".utf8),
    ])
    func invalidUTF8InName(_ data: Data) {
        let error = #expect(throws: ModelFileError.self) { try ModelFileReader().read(data, file: "fuzzed") }
        guard case .malformedXML(let file, let line, let column, let reason)? = error else {
            Issue.record("expected .malformedXML, got \(String(describing: error))")
            return
        }
        #expect(file == "fuzzed")
        #expect(line != nil && column != nil)
        #expect(reason.contains("not UTF-8"), "\(reason)")
    }

    @Test("a declared encoding that is no encoding's name leaves the document read as UTF-8")
    func encodingThatIsNoName() {
        // As found: `encoding=` followed by bytes that are not UTF-8, then a name that is not either.
        let data = Data("<?xml version=\"1.0\" encoding=".utf8) + Data([0xFF, 0xFF, 0xFF])
            + Data("?>\n<model><e".utf8) + Data([0xFF]) + Data("/></model>".utf8)
        let error = #expect(throws: ModelFileError.self) { try ModelFileReader().read(data, file: "fuzzed") }
        guard case .malformedXML(_, let line, _, let reason)? = error else {
            Issue.record("expected .malformedXML, got \(String(describing: error))")
            return
        }
        #expect(line == 1 && reason.contains("not UTF-8"), "\(reason)")
    }

    @Test("a declared encoding that libxml2 does not know leaves the document read as UTF-8", arguments: [
        "<?xml version=\"0.0\" encoding=ucs-28\" standalone=\"yes\"?>\n<model><e",   // as found
        "<?xml version=\"1.0\" encoding=\"ucs-28\"?>\n<model><e",
        "<?xml version=\"1.0\" encoding=\"US-ASCII\"?>\n<model><e",
    ])
    func unknownEncoding(_ start: String) {
        let data = Data(start.utf8) + Data([0xFF]) + Data("/></model>".utf8)
        let error = #expect(throws: ModelFileError.self) { try ModelFileReader().read(data, file: "fuzzed") }
        guard case .malformedXML(_, let line, _, let reason)? = error else {
            Issue.record("expected .malformedXML, got \(String(describing: error))")
            return
        }
        #expect(line == 2 && reason.contains("not UTF-8"), "\(reason)")
    }

    @Test("a processing instruction without data is malformed XML, not a crash", arguments: [
        "<?xs?>\nml>>",                                                               // as found
        "<?xml version=\"1.0\"?>\n<model>\n  <?pi ?>\n</model>",
        "<model><?a?></model>",
    ])
    func processingInstructionWithoutData(_ text: String) {
        let error = #expect(throws: ModelFileError.self) { try ModelFileReader().read(Data(text.utf8), file: "fuzzed") }
        guard case .malformedXML(_, let line, let column, let reason)? = error else {
            Issue.record("expected .malformedXML, got \(String(describing: error))")
            return
        }
        #expect(line != nil && column != nil)
        #expect(reason.contains("processing instruction"), "\(reason)")
    }

    @Test("a processing instruction with data is read past")
    func processingInstructionWithData() throws {
        let text = contentsDocument("""
            <?strata keep?>
            <entity name="A" representedClassName="A" syncable="YES">
                <attribute name="name" optional="YES" attributeType="String"/>
            </entity>
            """)
        #expect(try readContents(text).model.entity(named: "A") != nil)
    }

    @Test("the line and column of the first byte that is not UTF-8")
    func whereTheBadByteIs() {
        let data = Data("<model>\n  <entity name=\"A\"/>\n  <e".utf8) + Data([0xFF]) + Data("/>\n</model>".utf8)
        #expect(throws: ModelFileError.malformedXML(
            file: "f", line: 3, column: 5, reason: "a byte that is not UTF-8 at offset 33 of a document read as UTF-8")) {
            try ModelFileReader().read(data, file: "f")
        }
    }

    @Test("a document that declares another encoding is read in it")
    func declaredEncoding() throws {
        let latin1 = Data("""
            <?xml version="1.0" encoding="ISO-8859-1" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
                <entity name="Caf" representedClassName="Caf" syncable="YES">
                    <attribute name="name" optional="YES" attributeType="String"/>
                    <userInfo><entry key="k" value="caf
            """.utf8) + Data([0xE9]) + Data("""
            "/></userInfo>
                </entity>
            </model>
            """.utf8)
        let model = try ModelFileReader().read(latin1, file: "latin1").model
        #expect(model.entity(named: "Caf")?.userInfo["k"] == "café")
    }
}
