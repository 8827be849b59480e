import Foundation
import StrataCore
import StrataModelFiles
import StrataTestSupport
import Testing

/// Bad input is a typed error naming the file and line, or a warning and a model; never a crash.
@Suite struct HostileInputTests {
    static let sample = "duckduckgo__BrowserServicesKit/Sources/Bookmarks/BookmarksModel.xcdatamodeld/BookmarksModel 6.xcdatamodel/contents"

    // MARK: - Not a model at all

    @Test("an empty file, or one of only white space")
    func emptyFile() throws {
        for text in ["", "   \n\t\r\n"] {
            #expect(throws: ModelFileError.emptyFile(file: "test/contents")) { try readContents(text) }
        }
        try TemporaryFolder.with { folder in
            let url = folder.appendingPathComponent("contents")
            try Data().write(to: url)
            #expect(throws: ModelFileError.emptyFile(file: url.path)) { try ModelFile.load(at: url) }
        }
    }

    @Test("XML truncated at many lengths is malformed XML with a line",
          arguments: [1, 5, 38, 39, 60, 200, 411, 1000, 1500, 2000, 2500, 2585])
    func truncated(_ length: Int) throws {
        let data = try Data(contentsOf: Fixtures.url(Self.sample))
        #expect(length < data.count - "</model>".count)
        let error = #expect(throws: ModelFileError.self) {
            try ModelFileReader().read(data.prefix(length), file: "cut")
        }
        guard case let .malformedXML(file, line, _, reason)? = error else {
            Issue.record("expected .malformedXML, got \(String(describing: error))")
            return
        }
        #expect(file == "cut")
        // libxml2 gives no line for an error in the very first bytes.
        #expect(line != nil || length < 5)
        #expect(!reason.isEmpty)
    }

    @Test("every truncation of a model file is an error or a whole model, never a crash")
    func everyTruncation() throws {
        let data = try Data(contentsOf: Fixtures.url(
            "JohnEstropia__CoreStore/Demo/Sources/Demos/Classic/ColorsDemo/Classic.ColorsDemo.xcdatamodeld/ColorsDemo.xcdatamodel/contents"))
        let whole = try ModelFileReader().read(data, file: "whole").model
        for length in 0..<data.count {
            do {
                let model = try ModelFileReader().read(data.prefix(length), file: "cut").model
                // Only a cut in the last bytes after </model> can still be the whole model.
                #expect(model == whole, "length \(length)")
                #expect(length >= data.count - 2, "length \(length) read as a model")
            } catch {
                switch error {
                case .emptyFile, .malformedXML: break
                default: Issue.record("length \(length): unexpected \(error)")
                }
            }
        }
    }

    @Test("bytes that are not XML", arguments: [
        Data("hello, world".utf8),
        Data("{\"model\": []}".utf8),
        Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D]),
        Data([0x00, 0x01, 0x02, 0xFF, 0xFE, 0xFD]),
        Data("<model><entity name=\"A\"></model>".utf8),
        Data("<model>\u{0}</model>".utf8),
        Data([0x3C, 0x6D, 0x6F, 0x64, 0x65, 0x6C, 0x20, 0x61, 0x3D, 0x22, 0xC3, 0x28, 0x22, 0x2F, 0x3E]),  // bad UTF-8
    ])
    func notXML(_ data: Data) {
        let error = #expect(throws: ModelFileError.self) { try ModelFileReader().read(data, file: "junk") }
        guard case .malformedXML(let file, _, _, _)? = error else {
            Issue.record("expected .malformedXML, got \(String(describing: error))")
            return
        }
        #expect(file == "junk")
    }

    @Test("XML that is not a model")
    func notAModel() {
        let plist = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict/></plist>
            """
        #expect(throws: ModelFileError.notAModel(file: "test/contents", reason: "the root element is <plist>, not <model>")) {
            try readContents(plist)
        }
    }

    @Test("a binary property list is the legacy format")
    func binaryPlist() throws {
        let data = try PropertyListSerialization.data(fromPropertyList: ["a": 1], format: .binary, options: 0)
        #expect(throws: ModelFileError.legacyFormat(file: "elements")) { try ModelFileReader().read(data, file: "elements") }
    }

    @Test("elements nested far deeper than any model are an error, not a stack overflow")
    func deepNesting() {
        let depth = 50_000
        let xml = "<model>" + String(repeating: "<x>", count: depth) + String(repeating: "</x>", count: depth) + "</model>"
        let error = #expect(throws: ModelFileError.self) { try readContents(xml) }
        guard case .malformedXML(_, _, _, let reason)? = error else {
            Issue.record("expected .malformedXML, got \(String(describing: error))")
            return
        }
        #expect(reason == "elements nested deeper than 256 levels")
    }

    @Test("exponential entity expansion (billion laughs) is an error, at once")
    func billionLaughs() {
        var dtd = "<!DOCTYPE model [<!ENTITY l0 \"lol\">"
        for level in 1...9 {
            dtd += "<!ENTITY l\(level) \"" + String(repeating: "&l\(level - 1);", count: 10) + "\">"
        }
        let xml = "<?xml version=\"1.0\"?>" + dtd + "]><model><entity name=\"&l9;\"/></model>"
        #expect(throws: ModelFileError.self) { try readContents(xml) }
    }

    @Test("an external entity is not fetched")
    func externalEntity() {
        let xml = """
            <?xml version="1.0"?>
            <!DOCTYPE model [<!ENTITY secret SYSTEM "file:///etc/passwd">]>
            <model><entity name="&secret;"/></model>
            """
        #expect(throws: ModelFileError.self) { try readContents(xml) }
    }

    @Test("a path that does not exist, and a folder that is not a model")
    func badPaths() throws {
        let missing = URL(fileURLWithPath: "/nonexistent/Model.xcdatamodeld")
        #expect(throws: ModelFileError.unreadable(file: missing.path, reason: "no such file or folder")) {
            try ModelFile.load(at: missing)
        }
        try TemporaryFolder.with { folder in
            let error = #expect(throws: ModelFileError.self) { try ModelFile.load(at: folder) }
            guard case .unreadable(let file, _)? = error else {
                Issue.record("expected .unreadable, got \(String(describing: error))")
                return
            }
            #expect(file == folder.path)
        }
    }

    // MARK: - A model with a fault

    @Test("an entity without a name is an error naming the element and line")
    func entityWithoutName() {
        let xml = contentsDocument("""
            <entity name="A"/>
            <entity representedClassName="B"/>
            """)
        #expect(throws: ModelFileError.missingAttribute(file: "test/contents", line: 4, element: "entity", attribute: "name")) {
            try readContents(xml)
        }
    }

    @Test("properties without a name or type are errors")
    func propertyWithoutName() {
        let cases: [(String, String, String)] = [
            (#"<attribute attributeType="String"/>"#, "attribute", "name"),
            (#"<attribute name="a"/>"#, "attribute", "attributeType"),
            (#"<relationship name="r" maxCount="1" deletionRule="Nullify"/>"#, "relationship", "destinationEntity"),
            (#"<relationship name="" destinationEntity="A"/>"#, "relationship", "name"),
            (#"<fetchedProperty><fetchRequest entity="A"/></fetchedProperty>"#, "fetchedProperty", "name"),
            (#"<fetchedProperty name="f"><fetchRequest/></fetchedProperty>"#, "fetchRequest", "entity"),
        ]
        for (property, element, attribute) in cases {
            let xml = contentsDocument("<entity name=\"A\">\n\(property)\n</entity>")
            #expect(throws: ModelFileError.missingAttribute(file: "test/contents", line: 4, element: element, attribute: attribute)) {
                try readContents(xml)
            }
        }
        let noRequest = contentsDocument("<entity name=\"A\">\n<fetchedProperty name=\"f\"/>\n</entity>")
        #expect(throws: ModelFileError.missingElement(file: "test/contents", line: 4, element: "fetchedProperty", child: "fetchRequest")) {
            try readContents(noRequest)
        }
    }

    @Test("a relationship to a missing entity names the entity, the relationship and its line")
    func missingDestination() throws {
        let xml = contentsDocument("""
            <entity name="Book">
                <attribute name="title" optional="YES" attributeType="String"/>
                <relationship name="author" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Author"/>
            </entity>
            """)
        let error = #expect(throws: ModelFileError.self) { try readContents(xml) }
        #expect(error == .invalidModel(
            file: "test/contents", line: 5,
            .unknownDestination(entity: "Book", property: "author", destination: "Author")))
        let message = try #require(error?.description)
        #expect(message.contains("test/contents:5"))
        #expect(message.contains("'Book'") && message.contains("'author'") && message.contains("'Author'"))
    }

    @Test("other model faults are pinned to the line of what is wrong")
    func modelFaultLines() {
        let duplicate = contentsDocument("<entity name=\"A\"/>\n<entity name=\"A\"/>")
        #expect(throws: ModelFileError.invalidModel(file: "test/contents", line: 4, .duplicateEntity("A"))) {
            try readContents(duplicate)
        }
        let badParent = contentsDocument("<entity name=\"A\"/>\n<entity name=\"B\" parentEntity=\"Nope\"/>")
        #expect(throws: ModelFileError.invalidModel(file: "test/contents", line: 4, .unknownParent(entity: "B", parent: "Nope"))) {
            try readContents(badParent)
        }
        let badInverse = contentsDocument("""
            <entity name="A">
            <relationship name="b" maxCount="1" deletionRule="Nullify" destinationEntity="B" inverseName="nope" inverseEntity="B"/>
            </entity>
            <entity name="B"/>
            """)
        #expect(throws: ModelFileError.invalidModel(
            file: "test/contents", line: 4, .unknownInverse(entity: "A", relationship: "b", inverse: "nope"))) {
            try readContents(badInverse)
        }
        let badConfiguration = contentsDocument("""
            <entity name="A"/>
            <configuration name="C">
                <memberEntity name="Z"/>
            </configuration>
            """)
        #expect(throws: ModelFileError.invalidModel(
            file: "test/contents", line: 4, .unknownConfigurationEntity(configuration: "C", entity: "Z"))) {
            try readContents(badConfiguration)
        }
        let badTemplate = contentsDocument("<entity name=\"A\"/>\n<fetchRequest name=\"all\" entity=\"Z\"/>")
        #expect(throws: ModelFileError.invalidModel(
            file: "test/contents", line: 4, .unknownDestination(entity: "Z", property: "all", destination: "Z"))) {
            try readContents(badTemplate)
        }
    }

    // MARK: - Skipped with a warning, the model loads

    @Test("an unknown attribute type skips the attribute with a warning", arguments: ["Quaternion", "Undefined"])
    func unknownAttributeType(_ type: String) throws {
        let xml = contentsDocument("""
            <entity name="A">
                <attribute name="kept" optional="YES" attributeType="String"/>
                <attribute name="odd" optional="YES" attributeType="\(type)"/>
                <uniquenessConstraints>
                    <uniquenessConstraint>
                        <constraint value="odd"/>
                    </uniquenessConstraint>
                </uniquenessConstraints>
                <fetchIndex name="byOdd">
                    <fetchIndexElement property="odd" type="Binary" order="ascending"/>
                </fetchIndex>
            </entity>
            """)
        let loaded = try readContents(xml)
        let entity = try #require(loaded.model.entity(named: "A"))
        #expect(entity.attributes.map(\.name) == ["kept"])
        #expect(entity.uniquenessConstraints.isEmpty)
        #expect(entity.indexes.isEmpty)
        #expect(loaded.warnings.map(\.kind) == [
            .unsupportedAttributeType(entity: "A", attribute: "odd", type: type),
            .droppedReference(entity: "A", property: "odd", from: "a uniqueness constraint"),
            .droppedReference(entity: "A", property: "odd", from: "index 'byOdd'"),
            .droppedIndex(entity: "A", index: "byOdd"),
        ])
        #expect(loaded.warnings.first?.line == 5)
    }

    @Test("unknown elements and attributes are skipped with warnings; the model loads")
    func unknownElementsAndAttributes() throws {
        let xml = contentsDocument("""
            <entity name="A" futureFlag="YES">
                <attribute name="a" optional="YES" attributeType="String" sparkle="9">
                    <glitter/>
                </attribute>
                <hologram depth="3"><inner/></hologram>
            </entity>
            <timeMachine/>
            """)
        let loaded = try readContents(xml)
        #expect(loaded.model.entity(named: "A")?.attribute(named: "a")?.type == .string)
        #expect(loaded.warnings.map(\.kind) == [
            .unknownAttribute(element: "entity", attribute: "futureFlag"),
            .unknownAttribute(element: "attribute", attribute: "sparkle"),
            .unknownElement(element: "glitter", parent: "attribute"),
            .unknownElement(element: "hologram", parent: "entity"),
            .unknownElement(element: "timeMachine", parent: "model"),
        ])
        #expect(loaded.warnings.map(\.line) == [3, 4, 5, 7, 9])
        #expect(loaded.warnings.allSatisfy { $0.file == "test/contents" })
    }

    @Test("values that do not parse are dropped with a warning")
    func unparsableValues() throws {
        let xml = contentsDocument("""
            <entity name="A" isAbstract="perhaps">
                <attribute name="n" optional="YES" attributeType="Integer 16" defaultValueString="70000"/>
                <attribute name="d" optional="YES" attributeType="Decimal" defaultValueString="12abc"/>
                <attribute name="b" optional="YES" attributeType="Boolean" defaultValueString="maybe"/>
                <attribute name="u" optional="YES" attributeType="UUID" defaultValueString="not-a-uuid"/>
                <attribute name="t" optional="YES" attributeType="Date" defaultDateTimeInterval="yesterday" minDateTimeInterval="0"/>
                <attribute name="x" optional="YES" attributeType="Binary" defaultValueString="AAAA" maxValueString="lots"/>
                <relationship name="r" optional="YES" toMany="YES" maxCount="many" deletionRule="Explode" destinationEntity="A"/>
            </entity>
            """)
        let loaded = try readContents(xml)
        let entity = try #require(loaded.model.entity(named: "A"))
        #expect(!entity.isAbstract)
        #expect(entity.attributes.allSatisfy { $0.defaultValue == nil })
        #expect(entity.attribute(named: "t")?.minimum == 0)
        #expect(entity.attribute(named: "x")?.maximum == nil)
        let relationship = try #require(entity.relationship(named: "r"))
        #expect(relationship.maxCount == 0 && relationship.deleteRule == .nullify)
        #expect(loaded.warnings.map(\.kind) == [
            .invalidValue(element: "entity", attribute: "isAbstract", value: "perhaps"),
            .invalidDefaultValue(entity: "A", attribute: "n", value: "70000"),
            .invalidDefaultValue(entity: "A", attribute: "d", value: "12abc"),
            .invalidDefaultValue(entity: "A", attribute: "b", value: "maybe"),
            .invalidDefaultValue(entity: "A", attribute: "u", value: "not-a-uuid"),
            .invalidDefaultValue(entity: "A", attribute: "t", value: "yesterday"),
            .invalidValue(element: "attribute", attribute: "maxValueString", value: "lots"),
            .invalidDefaultValue(entity: "A", attribute: "x", value: "AAAA"),
            .invalidValue(element: "relationship", attribute: "deletionRule", value: "Explode"),
            .invalidValue(element: "relationship", attribute: "maxCount", value: "many"),
        ])
    }

    // MARK: - Bundles

    @Test("a bundle whose .xccurrentversion names a missing version")
    func missingCurrentVersion() throws {
        try TemporaryFolder.with { folder in
            let bundle = folder.appendingPathComponent("Model.xcdatamodeld")
            let model = try ModelFile.load(at: Fixtures.url(Self.sample))
            try ModelFileWriter().write(model, toVersionFolder: bundle.appendingPathComponent("Model.xcdatamodel"))
            try ModelFileWriter().currentVersionFile(naming: "Model 7")
                .write(to: bundle.appendingPathComponent(".xccurrentversion"))
            let expected = ModelFileError.missingCurrentVersion(bundle: bundle.path, name: "Model 7")
            #expect(throws: expected) { try ModelBundle(at: bundle) }
            #expect(throws: expected) { try ModelFile.load(at: bundle) }
            #expect(expected.description.contains("Model 7"))
        }
    }

    @Test("a bundle with a broken .xccurrentversion, and one with no versions")
    func brokenBundles() throws {
        try TemporaryFolder.with { folder in
            let bundle = folder.appendingPathComponent("Model.xcdatamodeld")
            try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
            #expect(throws: ModelFileError.noVersions(bundle: bundle.path)) { try ModelBundle(at: bundle) }

            let model = try ModelFile.load(at: Fixtures.url(Self.sample))
            try ModelFileWriter().write(model, toVersionFolder: bundle.appendingPathComponent("Model.xcdatamodel"))
            let current = bundle.appendingPathComponent(".xccurrentversion")
            for junk in ["not a plist <<<", "<plist version=\"1.0\"><array/></plist>",
                         "<plist version=\"1.0\"><dict><key>_XCCurrentVersionName</key><integer>3</integer></dict></plist>"] {
                try Data(junk.utf8).write(to: current)
                let error = #expect(throws: ModelFileError.self) { try ModelBundle(at: bundle) }
                guard case .invalidCurrentVersionFile(let file, _)? = error else {
                    Issue.record("expected .invalidCurrentVersionFile for \(junk), got \(String(describing: error))")
                    continue
                }
                #expect(file == current.path)
            }
        }
    }

    @Test("a bundle made in code needs versions and a current one among them")
    func bundleFromCodeChecks() throws {
        let model = try ModelFile.load(at: Fixtures.url(Self.sample))
        #expect(throws: ModelFileError.noVersions(bundle: "(model bundle)")) {
            try ModelBundle(versions: [:], currentVersionName: "V1")
        }
        #expect(throws: ModelFileError.missingCurrentVersion(bundle: "(model bundle)", name: "V2")) {
            try ModelBundle(versions: ["V1": model], currentVersionName: "V2")
        }
        let bad = try ModelBundle(versions: ["a/b": model], currentVersionName: "a/b")
        try TemporaryFolder.with { folder in
            let url = folder.appendingPathComponent("Bad.xcdatamodeld")
            #expect(throws: ModelFileError.self) { try bad.write(to: url) }
            #expect(!FileManager.default.fileExists(atPath: url.path), "nothing is written when a version cannot be")
        }
    }

    @Test("error descriptions name the file and line")
    func errorDescriptions() {
        let error = #expect(throws: ModelFileError.self) { try readContents("<model>\n<entity name=\"A\">\n", file: "M.xcdatamodel/contents") }
        let description = error?.description ?? ""
        #expect(description.hasPrefix("M.xcdatamodel/contents:"))
        #expect(description.contains("not well-formed XML"))
        #expect(ModelFileError.missingAttribute(file: "f", line: 7, element: "entity", attribute: "name").description
            == "f:7: <entity> has no 'name' attribute (or it is empty)")
    }

    @Test("a broken version inside a bundle is reported at its file")
    func brokenVersionInBundle() throws {
        try TemporaryFolder.with { folder in
            let bundle = folder.appendingPathComponent("Model.xcdatamodeld")
            let model = try ModelFile.load(at: Fixtures.url(Self.sample))
            try ModelFileWriter().write(model, toVersionFolder: bundle.appendingPathComponent("Model.xcdatamodel"))
            let broken = bundle.appendingPathComponent("Model 2.xcdatamodel")
            try FileManager.default.createDirectory(at: broken, withIntermediateDirectories: true)
            try Data("<model><entity".utf8).write(to: broken.appendingPathComponent("contents"))
            let error = #expect(throws: ModelFileError.self) { try ModelBundle(at: bundle) }
            #expect(error?.file == broken.appendingPathComponent("contents").path)
        }
    }

    // MARK: - Writing what the format cannot hold

    @Test("the writer refuses what a model file cannot hold")
    func unrepresentable() throws {
        var nul = EntityDescription("Bad\u{0}Name")
        nul.declaredProperties = [.attribute(AttributeDescription(name: "a", type: .string))]
        var binary = EntityDescription("B")
        binary.declaredProperties = [.attribute(AttributeDescription(name: "blob", type: .binaryData, defaultValue: .binary(Data([1]))))]
        for model in [
            try ManagedObjectModel(entities: [nul]),
            try ManagedObjectModel(entities: [binary]),
            try ManagedObjectModel(entities: [EntityDescription("C")], versionIdentifiers: ["1", "2"]),
        ] {
            let error = #expect(throws: ModelFileError.self) { try ModelFileWriter().contents(of: model) }
            guard case .unrepresentable? = error else {
                Issue.record("expected .unrepresentable, got \(String(describing: error))")
                continue
            }
        }
    }

    @Test("a failed write names the file")
    func writeFailure() throws {
        let model = try ModelFile.load(at: Fixtures.url(Self.sample))
        try TemporaryFolder.with { folder in
            let blocker = folder.appendingPathComponent("file")
            try Data("x".utf8).write(to: blocker)
            let target = blocker.appendingPathComponent("Model.xcdatamodel")
            let error = #expect(throws: ModelFileError.self) { try ModelFileWriter().write(model, toVersionFolder: target) }
            guard case .writeFailed(let file, _)? = error else {
                Issue.record("expected .writeFailed, got \(String(describing: error))")
                return
            }
            #expect(file == target.path)
        }
    }
}
