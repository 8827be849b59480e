import Foundation
import StrataJSON
import Testing

/// The commands on the sample store and documents, when everything is right.
@Suite("strata on the sample store")
struct SuccessPathTests {
    static let expectedCounts = ["Course": 3, "Lesson": 4, "Student": 3, "Teacher": 2]

    /// The `name  count` lines under `Objects:` of inspect's text.
    static func objectCounts(inText text: String) -> [String: Int]? {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(of: "Objects:") else { return nil }
        var counts: [String: Int] = [:]
        for line in lines[(start + 1)...] where line.hasPrefix("  ") {
            let fields = line.split(separator: " ")
            guard fields.count == 2, let count = Int(fields[1]) else { return nil }
            counts[String(fields[0])] = count
        }
        return counts
    }

    @Test("inspect --model prints type, UUID, that the model matches and the objects per entity")
    func inspectText() throws {
        let scratch = try Scratch()
        let result = try scratch.succeed("inspect", CLI.sampleStore, "--model", CLI.model)
        let lines = result.outputLines
        #expect(lines.contains("Type:     XML"), "\(result)")
        #expect(lines.contains("UUID:     \(CLI.sampleUUID)"), "\(result)")
        #expect(lines.contains("Model:    \(CLI.model) version 'School' matches the store"), "\(result)")
        #expect(!result.stdout.contains("does not match"))
        #expect(lines.contains("  NSStoreUUID = \"\(CLI.sampleUUID)\""), "\(result)")
        #expect(lines.contains("  sample = \"Strata round trip\""), "\(result)")
        #expect(Self.objectCounts(inText: result.stdout) == Self.expectedCounts, "\(result)")
        // The abstract Person has a version hash but no objects line.
        #expect(lines.contains { $0.hasPrefix("  Person ") && $0.hasSuffix("=") })
    }

    @Test("inspect --model --json prints the same as a JSON object")
    func inspectJSON() throws {
        let scratch = try Scratch()
        let result = try scratch.succeed("inspect", CLI.sampleStore, "--model", CLI.model, "--json")
        let object = try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any], "\(result)")
        #expect(object["store"] as? String == CLI.sampleStore)
        #expect(object["type"] as? String == "XML")
        #expect(object["uuid"] as? String == CLI.sampleUUID)
        let model = try #require(object["model"] as? [String: Any])
        #expect(model["matches"] as? Bool == true)
        #expect(model["path"] as? String == CLI.model)
        #expect((model["differingEntities"] as? [Any])?.isEmpty == true)
        #expect(object["objects"] as? [String: Int] == Self.expectedCounts)
        let hashes = try #require(object["versionHashes"] as? [String: String])
        #expect(hashes.keys.sorted() == ["Course", "Lesson", "Person", "Student", "Teacher"])
        #expect(hashes["Course"] == "qAAsbRoI03udi0E8t56cl1LdeXCG4V1hBo22pCxPmuE=")
        let metadata = try #require(object["metadata"] as? [String: Any])
        #expect(metadata["NSStoreUUID"] as? String == CLI.sampleUUID)
        #expect(metadata["sample"] as? String == "Strata round trip")
        #expect((metadata["createdBy"] as? [String: Any])?["year"] as? Int == 2026)
        // The hashes are reported once, under versionHashes.
        #expect(metadata["NSStoreModelVersionHashes"] == nil)
    }

    @Test("inspect without --model prints the metadata and hashes, no model or object counts")
    func inspectWithoutModel() throws {
        let scratch = try Scratch()
        let text = try scratch.succeed("inspect", CLI.sampleStore)
        #expect(text.outputLines.contains("Type:     XML"), "\(text)")
        #expect(text.outputLines.contains("UUID:     \(CLI.sampleUUID)"), "\(text)")
        #expect(text.outputLines.contains("Entity version hashes:"))
        #expect(text.outputLines.filter { $0.hasPrefix("  ") && $0.hasSuffix("=") && !$0.contains(" = ") }.count == 5, "\(text)")
        #expect(!text.stdout.contains("Model:"))
        #expect(!text.stdout.contains("Objects:"))

        let json = try scratch.succeed("inspect", CLI.sampleStore, "--json")
        let object = try #require(try JSONSerialization.jsonObject(with: json.stdoutData) as? [String: Any], "\(json)")
        #expect(object["uuid"] as? String == CLI.sampleUUID)
        #expect(object["type"] as? String == "XML")
        #expect(object["model"] == nil)
        #expect(object["objects"] == nil)
        #expect((object["versionHashes"] as? [String: Any])?.count == 5)
    }

    @Test("convert-store xml → binary → xml keeps the UUID, the metadata and every primary key")
    func convertThereAndBack() throws {
        let scratch = try Scratch()
        let binary = scratch.path("school.binary")
        let xml = scratch.path("school-again.xml")

        let first = try scratch.succeed("convert-store", CLI.sampleStore, binary, "--model", CLI.model)
        #expect(first.stdout == "\(binary): 12 objects converted from XML to Binary, store UUID \(CLI.sampleUUID)\n")
        let inspected = try scratch.succeed("inspect", binary, "--model", CLI.model)
        #expect(inspected.outputLines.contains("Type:     Binary"), "\(inspected)")
        #expect(inspected.outputLines.contains("UUID:     \(CLI.sampleUUID)"), "\(inspected)")
        #expect(inspected.outputLines.contains("Model:    \(CLI.model) version 'School' matches the store"), "\(inspected)")
        #expect(Self.objectCounts(inText: inspected.stdout) == Self.expectedCounts)

        let second = try scratch.succeed("convert-store", binary, xml, "--model", CLI.model, "--to-type", "xml")
        #expect(second.stdout == "\(xml): 12 objects converted from Binary to XML, store UUID \(CLI.sampleUUID)\n")

        let original = try scratch.export(CLI.sampleStore)
        let fromBinary = try scratch.export(binary)
        let fromXMLAgain = try scratch.export(xml)
        let originalJSON = try JSONParser.parse(original)
        #expect(refs(ofObjects: originalJSON) == CLI.sampleRefs)
        // Course/p1's ordered lessons keep school.json's order (not sorted by key).
        let course = originalJSON["objects"]?.elements?.first { $0["ref"] == .string("Course/p1") }
        #expect(course?["relationships"]?["lessons"] == .array(["Lesson/p2", "Lesson/p1", "Lesson/p3"].map(JSONValue.string)))
        #expect(course?["relationships"]?["students"] == .array(["Student/p1", "Student/p3"].map(JSONValue.string)))
        #expect(try objectsSection(fromBinary) == objectsSection(original))
        #expect(fromXMLAgain == original, "the XML store written back differs from the sample")
        let binaryStore = try #require(try JSONParser.parse(fromBinary)["store"])
        #expect(binaryStore["uuid"] == .string(CLI.sampleUUID))
        #expect(binaryStore["type"] == .string("Binary"))
        #expect(binaryStore["metadata"]?["sample"] == .string("Strata round trip"))
        #expect(binaryStore["metadata"]?["NSStoreType"] == .string("Binary"))
    }

    @Test("import of school.json into each store type exports the sample's objects", arguments: CLI.writableTypes)
    func importSampleDocument(type: String) throws {
        let scratch = try Scratch()
        let destination = scratch.path("imported.\(type)")
        let result = try scratch.succeed("import", CLI.sampleDocument, destination, "--model", CLI.model)
        let typeName = ["xml": "XML", "binary": "Binary", "sqlite": "SQLite"][type] ?? type
        #expect(result.stdout == "\(destination): 12 objects imported into a new \(typeName) store, UUID \(CLI.sampleUUID)\n")
        let exported = try scratch.export(destination)
        #expect(try objectsSection(exported) == objectsSection(scratch.export(CLI.sampleStore)))
        let store = try #require(try JSONParser.parse(exported)["store"])
        #expect(store["uuid"] == .string(CLI.sampleUUID))
        #expect(store["type"] == .string(typeName))
        #expect(store["metadata"]?["createdBy"]?["tool"] == .string("strata"))
        #expect(try scratch.listing() == ["imported.\(type)"], "a temporary file was left behind")
    }

    @Test("export --output writes what export prints")
    func exportToFile() throws {
        let scratch = try Scratch()
        let output = scratch.path("export.json")
        let toFile = try scratch.succeed("export", CLI.sampleStore, "--model", CLI.model, "--output", output)
        #expect(toFile.stdout.isEmpty)
        let printed = try scratch.export(CLI.sampleStore)
        #expect(try scratch.read(output) == Data(printed.utf8))
        #expect(printed.hasPrefix("{\n  \"format\": \"strata-export\",\n  \"version\": 1,\n  \"store\": {\"type\": \"XML\", \"uuid\": \"\(CLI.sampleUUID)\""))
        #expect(printed.hasSuffix("\n  ]\n}\n"))
        // One object per line.
        #expect(printed.split(separator: "\n").filter { $0.hasPrefix("    {\"entity\": ") }.count == 12)
    }

    struct QueryCase: Sendable, CustomTestStringConvertible {
        var entity: String
        var options: [String]
        var expected: [String]
        var testDescription: String { "--entity \(entity) \(options.joined(separator: " "))" }
    }

    static let queryCases: [QueryCase] = [
        QueryCase(entity: "Student", options: ["--predicate", "year >= 11", "--sort=-year"], expected: ["Student/p3", "Student/p1"]),
        QueryCase(entity: "Student", options: ["--sort", "year"], expected: ["Student/p2", "Student/p1", "Student/p3"]),
        QueryCase(entity: "Student", options: ["--sort=-year", "--limit", "2"], expected: ["Student/p3", "Student/p1"]),
        QueryCase(entity: "Student", options: ["--sort", "-year,name", "--limit", "2"], expected: ["Student/p3", "Student/p1"]),
        QueryCase(entity: "Student", options: ["--sort", "year", "--offset", "1"], expected: ["Student/p1", "Student/p3"]),
        QueryCase(entity: "Student", options: ["--sort", "year", "--limit", "1", "--offset", "1"], expected: ["Student/p1"]),
        QueryCase(entity: "Student", options: ["--sort", "year", "--offset", "3"], expected: []),
        QueryCase(entity: "Student", options: ["--predicate", "name BEGINSWITH[c] 'a' OR year == 12", "--sort", "name"],
                  expected: ["Student/p1", "Student/p3"]),
        // Sub-entities come with their abstract parent.
        QueryCase(entity: "Person", options: ["--predicate", "birthDate != nil", "--sort", "birthDate"],
                  expected: ["Teacher/p4", "Student/p1", "Student/p2"]),
        QueryCase(entity: "Course", options: ["--sort=-credits", "--limit", "2", "--offset", "1"], expected: ["Course/p2", "Course/p3"]),
        QueryCase(entity: "Course", options: ["--predicate", "isElective == YES"], expected: ["Course/p3"]),
        QueryCase(entity: "Lesson", options: ["--predicate", "minutes > 50", "--sort", "minutes"], expected: ["Lesson/p4", "Lesson/p2"]),
        QueryCase(entity: "Lesson", options: ["--predicate", "start == nil"], expected: ["Lesson/p3"]),
        QueryCase(entity: "Lesson", options: ["--predicate", "start != nil", "--sort=-start,topic"],
                  expected: ["Lesson/p4", "Lesson/p2", "Lesson/p1"]),
        QueryCase(entity: "Course", options: ["--sort", "isElective,-code"], expected: ["Course/p2", "Course/p1", "Course/p3"]),
        QueryCase(entity: "Student", options: ["--predicate", "ANY courses.code == 'MUS200'", "--sort", "name"],
                  expected: ["Student/p1", "Student/p3"]),
        // A key path through a to-one; the student without a teacher first.
        QueryCase(entity: "Student", options: ["--sort", "teacher.name"], expected: ["Student/p3", "Student/p1", "Student/p2"]),
        // --limit 0 means no limit, as fetchLimit 0 does.
        QueryCase(entity: "Student", options: ["--sort", "year", "--limit", "0"], expected: ["Student/p2", "Student/p1", "Student/p3"]),
        // 9007199254740993 is 2^53 + 1: compared as a Double it would equal 2^53.
        QueryCase(entity: "Teacher", options: ["--predicate", "employeeNumber > 9007199254740992"], expected: ["Teacher/p4"]),
    ]

    @Test("query prints the matching objects in order", arguments: queryCases)
    func query(_ query: QueryCase) throws {
        let scratch = try Scratch()
        let result = try scratch.run(["query", CLI.sampleStore, "--model", CLI.model, "--entity", query.entity] + query.options)
        try #require(result.status == 0, "\(result)")
        #expect(result.stderr.isEmpty)
        let json = try JSONParser.parse(result.stdoutData)
        #expect(json.elements != nil, "\(result)")
        #expect(refs(ofObjects: json) == query.expected, "\(result)")
        // Each element is the object as an export writes it.
        let export = try JSONParser.parse(scratch.export(CLI.sampleStore))
        for object in json.elements ?? [] {
            let fromExport = export["objects"]?.elements?.first { $0["ref"] == object["ref"] }
            #expect(object == fromExport)
        }
    }

    @Test("query --count prints the number of matching objects")
    func queryCount() throws {
        let scratch = try Scratch()
        let cases: [([String], String)] = [
            (["--entity", "Student", "--predicate", "year >= 11"], "2\n"),
            (["--entity", "Person"], "5\n"),
            (["--entity", "Teacher"], "2\n"),
            (["--entity", "Lesson", "--predicate", "topic BEGINSWITH[c] 's'"], "2\n"),
            (["--entity", "Course", "--predicate", "code == 'XYZ999'"], "0\n"),
            // Like Core Data's count(for:), the count honours the limit and the offset.
            (["--entity", "Student", "--limit", "1"], "1\n"),
            (["--entity", "Student", "--offset", "2"], "1\n"),
            (["--entity", "Lesson", "--offset", "1", "--limit", "2"], "2\n"),
        ]
        for (options, expected) in cases {
            let result = try scratch.run(["query", CLI.sampleStore, "--model", CLI.model, "--count"] + options)
            #expect(result.status == 0 && result.stdout == expected && result.stderr.isEmpty, "\(result)")
        }
    }

    @Test("validate on the sample finds nothing wrong")
    func validateSample() throws {
        let scratch = try Scratch()
        let result = try scratch.run("validate", CLI.sampleStore, "--model", CLI.model)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "12 objects checked, 0 validation failures\n", "\(result)")
        #expect(result.stderr.isEmpty)
    }
}
