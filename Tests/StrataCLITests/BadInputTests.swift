import Foundation
import StrataTestSupport
import StrataJSON
import Testing

/// Bad usage and bad input: exit status 2 and one line on standard error naming the file.
@Suite("strata on bad input")
struct BadInputTests {
    /// Every command that reads a store, with the arguments after the store path.
    static let storeCommands: [String] = ["inspect", "inspect-model", "export", "validate", "query", "convert-store"]

    /// The arguments running `command` on `store`.
    static func arguments(_ command: String, store: String, scratch: Scratch, model: String = CLI.model) -> [String] {
        switch command {
        case "inspect": ["inspect", store]
        case "inspect-model": ["inspect", store, "--model", model]
        case "query": ["query", store, "--model", model, "--entity", "Student"]
        case "convert-store": ["convert-store", store, scratch.path("converted.binary"), "--model", model]
        default: [command, store, "--model", model]
        }
    }

    @Test("a missing store file", arguments: storeCommands)
    func missingStore(command: String) throws {
        let scratch = try Scratch()
        let store = scratch.path("no-such-store.xml")
        let result = try scratch.run(Self.arguments(command, store: store, scratch: scratch))
        expectOneLineFailure(result, mentioning: ["strata: \(store): no such file"])
        #expect(try scratch.listing().isEmpty)
    }

    @Test("a folder given as the store", arguments: storeCommands)
    func folderAsStore(command: String) throws {
        let scratch = try Scratch()
        let folder = scratch.path("folder.xml")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        let result = try scratch.run(Self.arguments(command, store: folder, scratch: scratch))
        expectOneLineFailure(result, mentioning: ["strata: \(folder): is a folder, not a store file"])
        #expect(try scratch.listing() == ["folder.xml"])
    }

    @Test("a file of no known store type (random bytes, empty, JSON)", arguments: storeCommands)
    func unknownContent(command: String) throws {
        let scratch = try Scratch()
        var generator = SplitMix64(seed: 7)
        let random = try scratch.write(Data((0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) }), to: "random.xml")
        let empty = try scratch.write(Data(), to: "empty.binary")
        let json = try scratch.write(Data(contentsOf: URL(fileURLWithPath: CLI.sampleDocument)), to: "school.sqlite")
        for store in [random, empty, json] {
            let result = try scratch.run(Self.arguments(command, store: store, scratch: scratch))
            expectOneLineFailure(result, mentioning: ["strata: \(store): not a store file of a known type"])
        }
        #expect(!scratch.exists(scratch.path("converted.binary")))
    }

    @Test("a truncated XML store", arguments: storeCommands.filter { $0 != "inspect" })
    func truncatedXMLStore(command: String) throws {
        let scratch = try Scratch()
        let whole = try scratch.read(CLI.sampleStore)
        for length in [whole.count / 2, whole.count - 12] {
            let store = try scratch.write(whole.prefix(length), to: "truncated-\(length).xml")
            let result = try scratch.run(Self.arguments(command, store: store, scratch: scratch))
            expectOneLineFailure(result, mentioning: ["strata: \(store): line "])
        }
        #expect(!scratch.exists(scratch.path("converted.binary")))
    }

    @Test("a truncated binary store", arguments: storeCommands)
    func truncatedBinaryStore(command: String) throws {
        let scratch = try Scratch()
        let complete = scratch.path("complete.binary")
        try scratch.succeed("convert-store", CLI.sampleStore, complete, "--model", CLI.model)
        let whole = try scratch.read(complete)
        for length in [8, 40, whole.count / 2, whole.count - 1] {
            let store = try scratch.write(whole.prefix(length), to: "truncated-\(length).binary")
            let result = try scratch.run(Self.arguments(command, store: store, scratch: scratch))
            expectOneLineFailure(result, mentioning: ["strata: \(store)"])
            #expect(result.stderr.contains("bytes"), "\(result)")
        }
        #expect(!scratch.exists(scratch.path("converted.binary")))
    }

    @Test("an unknown --to-type or --type, or a destination extension of no store type")
    func unknownTypeNames() throws {
        let scratch = try Scratch()
        let destination = scratch.path("out.store")
        expectOneLineFailure(try scratch.run("convert-store", CLI.sampleStore, destination, "--model", CLI.model, "--to-type", "json"),
                             mentioning: ["strata: --to-type json: unknown store type (use sqlite, xml or binary)"])
        expectOneLineFailure(try scratch.run("import", CLI.sampleDocument, destination, "--model", CLI.model, "--type", "plist"),
                             mentioning: ["strata: --type plist: unknown store type"])
        expectOneLineFailure(try scratch.run("convert-store", CLI.sampleStore, destination, "--model", CLI.model),
                             mentioning: ["strata: \(destination): cannot tell the store type from the extension"])
        expectOneLineFailure(try scratch.run("convert-store", CLI.sampleStore, destination, "--model", CLI.model, "--from-type", "csv"),
                             mentioning: ["strata: --from-type csv: unknown store type"])
        #expect(try scratch.listing().isEmpty)
        // Named explicitly, the type wins over the extension.
        try scratch.succeed("convert-store", CLI.sampleStore, destination, "--model", CLI.model, "--to-type", "BINARY")
        #expect(try scratch.succeed("inspect", destination).outputLines.contains("Type:     Binary"))
    }

    @Test("an existing destination is replaced only with --force")
    func existingDestination() throws {
        let scratch = try Scratch()
        let sentinel = Data("not a store, but mine\n".utf8)
        let converted = try scratch.write(sentinel, to: "converted.binary")
        let imported = try scratch.write(sentinel, to: "imported.xml")

        expectOneLineFailure(try scratch.run("convert-store", CLI.sampleStore, converted, "--model", CLI.model),
                             mentioning: ["strata: \(converted): already exists (pass --force to replace it)"])
        expectOneLineFailure(try scratch.run("import", CLI.sampleDocument, imported, "--model", CLI.model),
                             mentioning: ["strata: \(imported): already exists (pass --force to replace it)"])
        #expect(try scratch.read(converted) == sentinel)
        #expect(try scratch.read(imported) == sentinel)

        try scratch.succeed("convert-store", CLI.sampleStore, converted, "--model", CLI.model, "--force")
        try scratch.succeed("import", CLI.sampleDocument, imported, "--model", CLI.model, "--force")
        let expected = try objectsSection(scratch.export(CLI.sampleStore))
        #expect(try objectsSection(scratch.export(converted)) == expected)
        #expect(try objectsSection(scratch.export(imported)) == expected)
        #expect(try scratch.listing() == ["converted.binary", "imported.xml"])

        // Reading and writing the same file is refused even with --force.
        let same = try scratch.run("convert-store", converted, converted, "--model", CLI.model, "--force")
        expectOneLineFailure(same, mentioning: ["strata: \(converted): is the source store"])
        #expect(try objectsSection(scratch.export(converted)) == expected)
    }

    @Test("export --output refuses to write over the store it reads, and names an unwritable output")
    func exportOutputProblems() throws {
        let scratch = try Scratch()
        let store = scratch.path("school.xml")
        let original = try scratch.read(CLI.sampleStore)
        try scratch.write(original, to: "school.xml")
        expectOneLineFailure(try scratch.run("export", store, "--model", CLI.model, "--output", store),
                             mentioning: ["strata: \(store): is the source store; write to another file"])
        // The same file by a relative path (the tool runs in the work folder).
        expectOneLineFailure(try scratch.run("export", store, "--model", CLI.model, "--output", "./school.xml"),
                             mentioning: ["is the source store"])
        #expect(try scratch.read(store) == original, "export wrote over its own store")

        let missingFolder = scratch.path("no-such-folder/out.json")
        expectOneLineFailure(try scratch.run("export", store, "--model", CLI.model, "--output", missingFolder),
                             mentioning: ["strata: \(missingFolder): "])
        let folder = scratch.path("a-folder")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        expectOneLineFailure(try scratch.run("export", store, "--model", CLI.model, "--output", folder),
                             mentioning: ["strata: \(folder): "])
        #expect(try scratch.listing() == ["a-folder", "school.xml"])
    }

    @Test("a destination whose type cannot be told, or an unknown type name")
    func unknownDestinationType() throws {
        let scratch = try Scratch()
        let noExtension = scratch.path("school.db")
        expectOneLineFailure(try scratch.run("convert-store", CLI.sampleStore, noExtension, "--model", CLI.model),
                             mentioning: ["strata: \(noExtension): cannot tell the store type from the extension"])
        expectOneLineFailure(try scratch.run("convert-store", CLI.sampleStore, noExtension, "--model", CLI.model, "--to-type", "postgres"),
                             mentioning: ["strata: --to-type postgres: unknown store type"])
        #expect(try scratch.listing().isEmpty)
    }

    @Test("a missing, empty, malformed or foreign model file")
    func badModelFiles() throws {
        let scratch = try Scratch()
        let missing = scratch.path("Missing.xcdatamodeld")
        for arguments in [["export", CLI.sampleStore, "--model", missing],
                          ["inspect", CLI.sampleStore, "--model", missing],
                          ["convert-store", CLI.sampleStore, scratch.path("out.binary"), "--model", missing],
                          ["import", CLI.sampleDocument, scratch.path("out.xml"), "--model", missing]] {
            expectOneLineFailure(try scratch.run(arguments), mentioning: ["strata: \(missing): no such model file or folder"])
        }
        #expect(try scratch.listing().isEmpty)

        let contents = try String(contentsOfFile: CLI.modelContents, encoding: .utf8)
        let lines = contents.split(separator: "\n", omittingEmptySubsequences: false)
        // Cut inside the 9th line: the parser stops at line 9 or 10.
        let broken = try scratch.write(lines[0..<8].joined(separator: "\n") + "\n" + lines[8].prefix(30), to: "broken-contents")
        for command in ["export", "validate", "inspect"] {
            let result = try scratch.run(command, CLI.sampleStore, "--model", broken)
            expectOneLineFailure(result, mentioning: ["strata: \(broken):", "not well-formed XML"])
            #expect(result.stderr.hasPrefix("strata: \(broken):9:") || result.stderr.hasPrefix("strata: \(broken):10:"), "\(result)")
        }
        let foreign = try scratch.write("<?xml version=\"1.0\"?>\n<plist version=\"1.0\"><dict/></plist>\n", to: "foreign")
        expectOneLineFailure(try scratch.run("export", CLI.sampleStore, "--model", foreign),
                             mentioning: ["strata: \(foreign): not a Core Data model: the root element is <plist>"])
        let empty = try scratch.write("", to: "empty")
        expectOneLineFailure(try scratch.run("export", CLI.sampleStore, "--model", empty),
                             mentioning: ["strata: \(empty): the file is empty"])
        let folder = scratch.path("NotAModel")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        let result = try scratch.run("export", CLI.sampleStore, "--model", folder)
        expectOneLineFailure(result, mentioning: ["strata: \(folder)"])
    }

    @Test("unknown elements in a model file are skipped: the model still matches the store")
    func modelWithUnknownElements() throws {
        let scratch = try Scratch()
        let contents = try String(contentsOfFile: CLI.modelContents, encoding: .utf8)
        let courseHeader = "<entity name=\"Course\" representedClassName=\"Course\" syncable=\"YES\">"
        #expect(contents.contains(courseHeader))
        let patched = contents
            .replacingOccurrences(of: courseHeader, with: courseHeader + "<frobnicate size=\"3\"><inner/></frobnicate>")
            .replacingOccurrences(of: "</model>", with: "    <gizmo kind=\"unknown\"/>\n</model>")
        let model = try scratch.write(patched, to: "patched-contents")

        let inspected = try scratch.run(["inspect", CLI.sampleStore, "--model", model])
        #expect(inspected.status == 0, "\(inspected)")
        #expect(inspected.outputLines.contains("Model:    \(model) matches the store"), "\(inspected)")
        let warnings = inspected.stderr.split(separator: "\n").filter { $0.hasPrefix("strata: warning: ") }
        #expect(warnings.contains { $0.contains("frobnicate") }, "\(inspected.stderr)")
        #expect(warnings.contains { $0.contains("gizmo") }, "\(inspected.stderr)")
        #expect(SuccessPathTests.objectCounts(inText: inspected.stdout) == SuccessPathTests.expectedCounts)
        #expect(warnings.contains { $0.contains("patched-contents:") }, "warnings name the file and line: \(inspected.stderr)")
        let exported = try scratch.run(["export", CLI.sampleStore, "--model", model])
        #expect(exported.status == 0, "\(exported)")
        #expect(exported.stdout == (try scratch.export(CLI.sampleStore)))
    }

    @Test("invalid JSON is reported with its line and column, and nothing is written")
    func invalidJSON() throws {
        let scratch = try Scratch()
        let cases: [(String, String)] = [
            ("{\"format\": \"strata-export\",\n  \"version\": 1,\n  \"objects\": [,]}\n", "line 3, column 15: expected a value, found ','"),
            ("{\"format\": \"strata-export\",\n\"version\": 1,\n\"objects\": []\n", "line 4, column 1:"),
            ("{\"format\": \"strata-export\", \"version\": 1, \"objects\": [],}", "line 1, column 57: expected a member name in quotes, found '}'"),
            ("{\"format\": \"strata-export\",\n\"version\": 1, \"version\": 1, \"objects\": []}", "line 2, column 15:"),
            ("{\"format\": \"strata-export\", \"version\": 1,\n\n   \"objects\": [\"\\q\"]}", "line 3, column 17: invalid escape '\\q'"),
        ]
        for (index, (text, expected)) in cases.enumerated() {
            let document = try scratch.write(text, to: "bad-\(index).json")
            let destination = scratch.path("out-\(index).xml")
            let result = try scratch.run("import", document, destination, "--model", CLI.model)
            expectOneLineFailure(result, mentioning: ["strata: \(document): $: not valid JSON: \(expected)"])
            #expect(!scratch.exists(destination))
        }
        #expect(try scratch.listing().allSatisfy { $0.hasPrefix("bad-") })
    }

    struct ImportCase: Sendable, CustomTestStringConvertible {
        var name: String
        /// The objects after the valid first one, `$.objects[1]` onwards.
        var objects: [String]
        /// The expected line after `strata: <document>: `.
        var problem: String
        var extraMembers = ""
        var testDescription: String { name }
    }

    static let validStudent = """
        {"entity": "Student", "ref": "Student/p1", "attributes": {"name": "Ada", "id": "0E4C4A58-8B1F-4D3B-9D0A-6D1B0A2E3F41", "year": 11}}
        """

    static let importCases: [ImportCase] = [
        ImportCase(name: "unknown entity", objects: [#"{"entity": "Pupil", "ref": "Pupil/p1", "attributes": {}}"#],
                   problem: "$.objects[1].entity: unknown entity 'Pupil'"),
        ImportCase(name: "abstract entity", objects: [#"{"entity": "Person", "ref": "Person/p2", "attributes": {"name": "X"}}"#],
                   problem: "$.objects[1].entity: entity 'Person' is abstract and has no objects of its own"),
        ImportCase(name: "unknown attribute key", objects: [#"{"entity": "Student", "ref": "Student/p2", "attributes": {"name": "B", "shoeSize": 44}}"#],
                   problem: "$.objects[1].attributes.shoeSize: entity 'Student' has no stored attribute 'shoeSize'"),
        ImportCase(name: "attribute of another entity", objects: [#"{"entity": "Student", "ref": "Student/p2", "attributes": {"salary": "1"}}"#],
                   problem: "$.objects[1].attributes.salary: entity 'Student' has no stored attribute 'salary'"),
        ImportCase(name: "unknown relationship key", objects: [#"{"entity": "Student", "ref": "Student/p2", "relationships": {"mentor": null}}"#],
                   problem: "$.objects[1].relationships.mentor: entity 'Student' has no stored relationship 'mentor'"),
        ImportCase(name: "unknown object member", objects: [#"{"entity": "Student", "ref": "Student/p2", "colour": "red"}"#],
                   problem: "$.objects[1].colour: unknown member"),
        ImportCase(name: "string for Integer 16", objects: [#"{"entity": "Student", "ref": "Student/p2", "attributes": {"year": "10"}}"#],
                   problem: "$.objects[1].attributes.year: expected an integer for Integer 16 attribute 'year', found a string"),
        ImportCase(name: "70000 for Integer 16", objects: [#"{"entity": "Student", "ref": "Student/p2", "attributes": {"year": 70000}}"#],
                   problem: "$.objects[1].attributes.year: expected an integer in -32768...32767 for Integer 16 attribute 'year', found the number 70000"),
        ImportCase(name: "fraction for Integer 16", objects: [#"{"entity": "Student", "ref": "Student/p2", "attributes": {"year": 10.5}}"#],
                   problem: "$.objects[1].attributes.year: expected an integer for Integer 16 attribute 'year', found the number 10.5"),
        ImportCase(name: "2^63 for Integer 64", objects: [#"{"entity": "Teacher", "ref": "Teacher/p2", "attributes": {"employeeNumber": 9223372036854775808}}"#],
                   problem: "$.objects[1].attributes.employeeNumber: expected an integer for Integer 64 attribute 'employeeNumber', found the number 9223372036854775808"),
        ImportCase(name: "number for String", objects: [#"{"entity": "Student", "ref": "Student/p2", "attributes": {"name": 7}}"#],
                   problem: "$.objects[1].attributes.name: expected a string for String attribute 'name', found the number 7"),
        ImportCase(name: "1 for Boolean", objects: [#"{"entity": "Course", "ref": "Course/p1", "attributes": {"isElective": 1}}"#],
                   problem: "$.objects[1].attributes.isElective: expected true or false for Boolean attribute 'isElective', found the number 1"),
        ImportCase(name: "bad UUID", objects: [#"{"entity": "Student", "ref": "Student/p2", "attributes": {"id": "not-a-uuid"}}"#],
                   problem: "$.objects[1].attributes.id: expected a UUID string for UUID attribute 'id', found a string"),
        ImportCase(name: "bad base64", objects: [#"{"entity": "Student", "ref": "Student/p2", "attributes": {"photo": "%%%"}}"#],
                   problem: "$.objects[1].attributes.photo: expected base64 bytes for Binary attribute 'photo', found a string"),
        ImportCase(name: "string date", objects: [#"{"entity": "Lesson", "ref": "Lesson/p1", "attributes": {"start": "2024-01-01"}}"#],
                   problem: "$.objects[1].attributes.start: expected seconds since 1970 as a number for Date attribute 'start', found a string"),
        ImportCase(name: "Decimal that is no number", objects: [#"{"entity": "Teacher", "ref": "Teacher/p2", "attributes": {"salary": "lots"}}"#],
                   problem: "$.objects[1].attributes.salary: expected a decimal number as a string for Decimal attribute 'salary', found a string"),
        ImportCase(name: "dangling to-one ref", objects: [#"{"entity": "Student", "ref": "Student/p2", "relationships": {"teacher": "Teacher/p99"}}"#],
                   problem: "$.objects[1].relationships.teacher: no object has the ref 'Teacher/p99'"),
        ImportCase(name: "dangling to-many ref", objects: [
            #"{"entity": "Course", "ref": "Course/p1", "attributes": {"title": "T", "code": "ABC123"}}"#,
            #"{"entity": "Student", "ref": "Student/p2", "relationships": {"courses": ["Course/p1", "Course/p2"]}}"#,
        ], problem: "$.objects[2].relationships.courses[1]: no object has the ref 'Course/p2'"),
        ImportCase(name: "ref to the wrong entity", objects: [
            #"{"entity": "Course", "ref": "Course/p1", "attributes": {"title": "T", "code": "ABC123"}}"#,
            #"{"entity": "Student", "ref": "Student/p2", "relationships": {"teacher": "Course/p1"}}"#,
        ], problem: "$.objects[2].relationships.teacher: 'Course/p1' is a Course, not a Teacher"),
        ImportCase(name: "duplicate ref", objects: [#"{"entity": "Student", "ref": "Student/p1", "attributes": {"name": "B"}}"#],
                   problem: "$.objects[1].ref: 'Student/p1' is already the ref of $.objects[0]"),
        ImportCase(name: "ref listed twice in a to-many", objects: [
            #"{"entity": "Course", "ref": "Course/p1", "attributes": {"title": "T", "code": "ABC123"}}"#,
            #"{"entity": "Student", "ref": "Student/p2", "relationships": {"courses": ["Course/p1", "Course/p1"]}}"#,
        ], problem: "$.objects[2].relationships.courses[1]: 'Course/p1' appears twice"),
        ImportCase(name: "two sides that disagree", objects: [
            #"{"entity": "Teacher", "ref": "Teacher/p2", "relationships": {"students": ["Student/p1"]}}"#,
            #"{"entity": "Teacher", "ref": "Teacher/p3", "relationships": {"students": ["Student/p1"]}}"#,
        ], problem: "$.objects[2].relationships.students: links to 'Student/p1', whose 'teacher' is 'Teacher/p2'"),
        ImportCase(name: "unknown top-level member", objects: [], problem: "$.comment: unknown member", extraMembers: #", "comment": "hi""#),
    ]

    @Test("a document that does not fit the model is reported at its JSON path, and nothing is written", arguments: importCases)
    func importProblem(_ importCase: ImportCase) throws {
        let scratch = try Scratch()
        let objects = ([Self.validStudent] + importCase.objects).joined(separator: ",\n    ")
        let text = "{\n  \"format\": \"strata-export\",\n  \"version\": 1\(importCase.extraMembers),\n  \"objects\": [\n    \(objects)\n  ]\n}\n"
        let document = try scratch.write(text, to: "document.json")
        for type in CLI.writableTypes {
            let destination = scratch.path("imported.\(type)")
            let result = try scratch.run("import", document, destination, "--model", CLI.model)
            expectOneLineFailure(result, mentioning: ["strata: \(document): \(importCase.problem)"])
            #expect(result.errorLines == ["strata: \(document): \(importCase.problem)"])
            #expect(!scratch.exists(destination))
        }
        #expect(try scratch.listing() == ["document.json"], "the import left files behind")
    }

    @Test("every problem of a document is reported, one line each, in document order")
    func severalImportProblems() throws {
        let scratch = try Scratch()
        let text = """
            {"format": "strata-export", "version": 2, "objects": [
              {"entity": "Student", "ref": "Student/p1", "attributes": {"year": "ten", "shoeSize": 4}, "relationships": {"teacher": "Teacher/p99"}},
              {"entity": "Pupil", "ref": "Pupil/p1"},
              {"entity": "Student", "ref": "Student/p3", "attributes": {"year": 70000}}
            ]}
            """
        let document = try scratch.write(text, to: "document.json")
        let destination = scratch.path("imported.binary")
        let result = try scratch.run("import", document, destination, "--model", CLI.model)
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        let prefix = "strata: \(document): "
        #expect(result.errorLines == [
            prefix + "$.version: expected 1, the only version this reader knows",
            prefix + "$.objects[1].entity: unknown entity 'Pupil'",
            prefix + "$.objects[0].attributes.year: expected an integer for Integer 16 attribute 'year', found a string",
            prefix + "$.objects[0].attributes.shoeSize: entity 'Student' has no stored attribute 'shoeSize'",
            prefix + "$.objects[0].relationships.teacher: no object has the ref 'Teacher/p99'",
            prefix + "$.objects[2].attributes.year: expected an integer in -32768...32767 for Integer 16 attribute 'year', found the number 70000",
        ], "\(result)")
        #expect(!scratch.exists(destination))
    }

    @Test("a bad --predicate is reported with its column")
    func badPredicate() throws {
        let scratch = try Scratch()
        let cases: [(String, String)] = [
            ("year >= AND name == 'x'", "column 9"),
            ("year >>= 3", "column 7"),
            ("year == 3 AND", "column 14"),
        ]
        for (predicate, column) in cases {
            let result = try scratch.run("query", CLI.sampleStore, "--model", CLI.model, "--entity", "Student", "--predicate", predicate)
            expectOneLineFailure(result, mentioning: ["strata: --predicate: predicate '\(predicate)', \(column): expected "])
        }
    }

    @Test("an unknown --entity, sort key or predicate key")
    func unknownEntityAndKeys() throws {
        let scratch = try Scratch()
        expectOneLineFailure(try scratch.run("query", CLI.sampleStore, "--model", CLI.model, "--entity", "Pupil"),
                             mentioning: ["strata: --entity Pupil: the model has no such entity (it has Course, Lesson, Person, Student, Teacher)"])
        expectOneLineFailure(try scratch.run("query", CLI.sampleStore, "--model", CLI.model, "--entity", "Student", "--sort", "shoeSize"),
                             mentioning: ["entity 'Student' has no property 'shoeSize'"])
        expectOneLineFailure(try scratch.run("query", CLI.sampleStore, "--model", CLI.model, "--entity", "Student", "--predicate", "shoeSize > 3"),
                             mentioning: ["entity 'Student' has no property 'shoeSize'"])
        expectOneLineFailure(try scratch.run("query", CLI.sampleStore, "--model", CLI.model, "--entity", "Student", "--sort", "name,,year"),
                             mentioning: ["strata: --sort name,,year: empty sort key"])
        expectOneLineFailure(try scratch.run("query", CLI.sampleStore, "--model", CLI.model, "--entity", "Student", "--limit=-1"),
                             mentioning: ["--limit must be 0 or more"])
    }

    struct UsageCase: Sendable, CustomTestStringConvertible {
        var arguments: [String]
        var message: String
        var testDescription: String { "strata " + arguments.joined(separator: " ") }
    }

    static let usageCases: [UsageCase] = [
        UsageCase(arguments: ["inspect"], message: "Missing expected argument '<store>'"),
        UsageCase(arguments: ["export"], message: "Missing expected argument '<store>'"),
        UsageCase(arguments: ["import", "school.json", "new.xml"], message: "Missing expected argument '--model <model>'"),
        UsageCase(arguments: ["convert-store", "school.xml", "--model", "M"], message: "Missing expected argument '<destination>'"),
        UsageCase(arguments: ["import", "school.json"], message: "Missing expected argument '<destination>'"),
        UsageCase(arguments: ["query", "school.xml", "--model", "M"], message: "Missing expected argument '--entity <entity>'"),
        UsageCase(arguments: ["query", "school.xml", "--model", "M", "--entity", "Student", "--limit", "many"],
                  message: "The value 'many' is invalid for '--limit <limit>'"),
        UsageCase(arguments: ["inspect", "school.xml", "--colour"], message: "Unknown option '--colour'"),
        UsageCase(arguments: ["frobnicate"], message: "Unexpected argument 'frobnicate'"),
    ]

    @Test("bad usage: exit status 2 and one line", arguments: usageCases)
    func badUsage(_ usage: UsageCase) throws {
        let scratch = try Scratch()
        let result = try scratch.run(usage.arguments)
        expectOneLineFailure(result, mentioning: ["strata: \(usage.message)", "(see 'strata help')"])
    }

    @Test("a model that does not match the store: inspect says so, the other commands refuse")
    func mismatchedModel() throws {
        let scratch = try Scratch()
        let contents = try String(contentsOfFile: CLI.modelContents, encoding: .utf8)
        let title = "<attribute name=\"title\" attributeType=\"String\" syncable=\"YES\"/>"
        #expect(contents.contains(title))
        let model = try scratch.write(
            contents.replacingOccurrences(of: title, with: title + "<attribute name=\"room\" optional=\"YES\" attributeType=\"String\" syncable=\"YES\"/>"),
            to: "changed-contents")

        let inspected = try scratch.run("inspect", CLI.sampleStore, "--model", model)
        #expect(inspected.status == 0, "\(inspected)")
        #expect(inspected.outputLines.contains("Model:    \(model) does not match the store (entities that differ: [\"Course\"])"), "\(inspected)")
        #expect(!inspected.stdout.contains("Objects:"))
        let json = try scratch.run("inspect", CLI.sampleStore, "--model", model, "--json")
        let report = try #require(try JSONSerialization.jsonObject(with: json.stdoutData) as? [String: Any], "\(json)")
        let modelReport = try #require(report["model"] as? [String: Any])
        #expect(modelReport["matches"] as? Bool == false)
        #expect(modelReport["differingEntities"] as? [String] == ["Course"])
        #expect(report["objects"] == nil)

        let store = URL(fileURLWithPath: CLI.sampleStore).standardizedFileURL.path
        for arguments in [["export", CLI.sampleStore, "--model", model],
                          ["validate", CLI.sampleStore, "--model", model],
                          ["query", CLI.sampleStore, "--model", model, "--entity", "Course"],
                          ["convert-store", CLI.sampleStore, scratch.path("converted.binary"), "--model", model]] {
            let result = try scratch.run(arguments)
            expectOneLineFailure(result, mentioning: ["school.xml", "written with another model version (entities Course differ)"])
            #expect(result.stderr.contains(store) || result.stderr.contains(CLI.sampleStore), "\(result)")
        }
        #expect(!scratch.exists(scratch.path("converted.binary")))
    }
}
