import Foundation
import Strata
@_spi(StoreImplementation) import StrataBinary
@_spi(StoreImplementation) import StrataCore
import StrataJSON
import StrataTestSupport
import Testing

/// `strata check`: clean stores pass; each kind of damage is one line naming the file, the
/// entity, the object and what is wrong, with exit status 1.
@Suite("strata check")
struct CheckTests {
    /// The sample converted to `type` in `scratch` (the sample itself for XML).
    private func sample(_ type: String, in scratch: Scratch) throws -> String {
        let store = scratch.path("school.\(type)")
        if type == "xml" {
            try scratch.write(try scratch.read(CLI.sampleStore), to: "school.xml")
        } else {
            try scratch.succeed("convert-store", CLI.sampleStore, store, "--model", CLI.model)
        }
        return store
    }

    /// Requires exit status 1 and returns the problem lines (the summary line checked and dropped).
    private func problems(_ result: CLIResult, store: String, count: Int? = nil,
                          sourceLocation: SourceLocation = #_sourceLocation) -> [String] {
        #expect(result.status == 1, "\(result)", sourceLocation: sourceLocation)
        let lines = result.outputLines
        if let count {
            #expect(lines.last == "\(store): \(count) problem\(count == 1 ? "" : "s") found", "\(result)", sourceLocation: sourceLocation)
        } else {
            #expect(lines.last?.hasSuffix("found") == true && lines.last?.contains("no problems") == false, "\(result)",
                    sourceLocation: sourceLocation)
        }
        #expect(lines.dropLast().allSatisfy { $0.hasPrefix("\(store): ") }, "every line names the file: \(result)",
                sourceLocation: sourceLocation)
        return Array(lines.dropLast())
    }

    @Test("the sample and its conversions are clean", arguments: CLI.writableTypes)
    func cleanSample(type: String) throws {
        let scratch = try Scratch()
        let store = try sample(type, in: scratch)
        let result = try scratch.succeed("check", store, "--model", CLI.model)
        #expect(result.outputLines == ["\(store): no problems found"], "\(result)")

        let json = try scratch.succeed("check", store, "--model", CLI.model, "--json")
        guard case .object(let report) = try JSONParser.parse(json.stdoutData) else {
            Issue.record("not a JSON object: \(json)")
            return
        }
        #expect(report["clean"] == .bool(true))
        #expect(report["problems"] == .array([]))
        #expect(report["store"] == .string(store))
    }

    @Test("Apple's SQLite stores are clean, read with the model they keep or their tables describe",
          arguments: ["duckduckgo__BrowserServicesKit/Tests/BookmarksTests/Resources/Bookmarks_V1.sqlite",
                      "duckduckgo__BrowserServicesKit/Tests/BookmarksTests/Resources/Bookmarks_V5.sqlite",
                      "magicalpanda__MagicalRecord/Samples/iOS/Resources/RecipeData/Recipes.sqlite",
                      "bignerdranch__CoreDataStack/Sample Model/Deprecated/TestModel.sqlite",
                      "RestKit__RestKit/Examples/RKTwitterCoreData/RKSeedDatabase.sqlite",
                      "alemar11__CoreDataPlus/Tests/Resources/SampleModel3/Fixtures/SampleModel3_V1.sqlite",
                      "alemar11__CoreDataPlus/Tests/Resources/SampleModel/Fixtures/SampleModel_V2.sqlite"])
    func cleanAppleStores(fixture: String) throws {
        let scratch = try Scratch()
        let store = try scratch.copyAppleStore(fixture)
        let result = try scratch.run("check", store)
        #expect(result.status == 0, "\(result)")
        #expect(result.outputLines == ["\(store): no problems found"], "\(result)")
    }

    @Test("a flipped byte in a binary store: the checksum that catches it, exit 1", arguments: [20, 60, 200])
    func binaryByteFlip(offset: Int) throws {
        let scratch = try Scratch()
        let store = try sample("binary", in: scratch)
        var bytes = try scratch.read(store)
        try #require(offset < bytes.count)
        bytes[offset] ^= 0x01
        try scratch.write(bytes, to: "school.binary")
        let lines = problems(try scratch.run("check", store, "--model", CLI.model), store: store, count: 1)
        #expect(lines.first?.contains("checksum") == true, "\(lines)")
    }

    @Test("a truncated XML store: not well-formed, with the line, exit 1")
    func truncatedXML() throws {
        let scratch = try Scratch()
        let store = try sample("xml", in: scratch)
        let bytes = try scratch.read(store)
        try scratch.write(bytes.prefix(bytes.count * 2 / 3), to: "school.xml")
        let lines = problems(try scratch.run("check", store, "--model", CLI.model), store: store, count: 1)
        #expect(lines.first?.contains("line ") == true, "\(lines)")
    }

    @Test("an XML store truncated to nothing is no store at all: exit 2")
    func emptyXML() throws {
        let scratch = try Scratch()
        let store = try scratch.write("", to: "empty.xml")
        expectOneLineFailure(try scratch.run("check", store, "--model", CLI.model), mentioning: [store, "not a store file"])
    }

    @Test("a broken inverse in the XML text: both sides named, exit 1")
    func brokenInverse() throws {
        let scratch = try Scratch()
        let store = try sample("xml", in: scratch)
        // Lesson p4 (z108) belongs to Course p2 (z103); make it name Course p3 (z104) instead.
        let text = String(decoding: try scratch.read(store), as: UTF8.self)
        let edited = text.replacingOccurrences(of: #"<relationship name="course" type="1/1" destination="COURSE" idrefs="z103">"#,
                                               with: #"<relationship name="course" type="1/1" destination="COURSE" idrefs="z104">"#)
        #expect(edited != text)
        try scratch.write(edited, to: "school.xml")
        let uri = "x-coredata://\(CLI.sampleUUID)"
        let lines = problems(try scratch.run("check", store, "--model", CLI.model), store: store, count: 2)
        #expect(lines == [
            "\(store): Course \(uri)/Course/p2.lessons names \(uri)/Lesson/p4, whose inverse 'course' does not name it back",
            "\(store): Lesson \(uri)/Lesson/p4.course names \(uri)/Course/p3, whose inverse 'lessons' does not name it back",
        ])
    }

    @Test("a dangling XML idref: check and validate report it, export refuses to drop it without --allow-loss")
    func danglingXML() throws {
        let scratch = try Scratch()
        let store = try sample("xml", in: scratch)
        let text = String(decoding: try scratch.read(store), as: UTF8.self)
        let edited = text.replacingOccurrences(of: #"destination="COURSE" idrefs="z103">"#, with: #"destination="COURSE" idrefs="z999">"#)
        try scratch.write(edited, to: "school.xml")
        let uri = "x-coredata://\(CLI.sampleUUID)"
        let lines = problems(try scratch.run("check", store, "--model", CLI.model), store: store)
        #expect(lines.contains("\(store): Lesson \(uri)/Lesson/p4.course refers to Course z999, which the store does not hold"), "\(lines)")
        let validate = try scratch.run("validate", store, "--model", CLI.model)
        #expect(validate.status == 1, "\(validate)")
        #expect(validate.outputLines.contains("Lesson \(uri)/Lesson/p4.course is a dangling reference: it names Course z999, which the store does not hold"),
                "\(validate)")
        #expect(validate.outputLines.last == "12 objects checked, 0 validation failures, 2 dangling references", "\(validate)")
        let refused = try scratch.run("export", store, "--model", CLI.model)
        #expect(refused.status == 2, "a copy would write the missing course as no course: \(refused)")
        #expect(refused.stderr.contains("2 dangling references would be written as missing (pass --allow-loss"), "\(refused)")
        #expect(refused.stderr.contains("Lesson \(uri)/Lesson/p4.course refers to Course z999"), "\(refused)")
        #expect(refused.stdout.isEmpty, "\(refused)")
        let allowed = try scratch.run("export", store, "--model", CLI.model, "--allow-loss")
        #expect(allowed.status == 0, "\(allowed)")
        #expect(allowed.stderr.contains("warning: \(store): dropped: Lesson \(uri)/Lesson/p4.course refers to Course z999"), "\(allowed)")
    }

    @Test("a dangling to-one and join-table rows in SQLite: one line each, validate exit 1, JSON")
    func danglingSQLite() throws {
        let scratch = try Scratch()
        let store = try sample("sqlite", in: scratch)
        let url = URL(fileURLWithPath: store)
        _ = try SQLiteShell.rows(url, "UPDATE ZPERSON SET ZTEACHER = 99 WHERE Z_PK = 1; INSERT INTO Z_1STUDENTS VALUES (1, 77)")
        let uri = "x-coredata://\(CLI.sampleUUID)"
        let lines = problems(try scratch.run("check", store, "--model", CLI.model), store: store, count: 2)
        #expect(lines == [
            "\(store): Student \(uri)/Student/p1.teacher refers to Teacher/p99, which the store does not hold",
            "\(store): Course \(uri)/Course/p1.students refers to Student/p77, which the store does not hold",
        ])

        let validate = try scratch.run("validate", store, "--model", CLI.model)
        #expect(validate.status == 1, "\(validate)")
        #expect(validate.outputLines == [
            "Student \(uri)/Student/p1.teacher is a dangling reference: it names Teacher/p99, which the store does not hold",
            "Course \(uri)/Course/p1.students is a dangling reference: it names Student/p77, which the store does not hold",
            "12 objects checked, 0 validation failures, 2 dangling references",
        ], "\(validate)")

        let json = try scratch.run("check", store, "--model", CLI.model, "--json")
        #expect(json.status == 1)
        guard case .object(let report) = try JSONParser.parse(json.stdoutData), case .array(let items)? = report["problems"],
              case .object(let first)? = items.first else {
            Issue.record("no problems in \(json)")
            return
        }
        #expect(report["clean"] == .bool(false))
        #expect(items.count == 2)
        #expect(first["kind"] == .string("dangling-reference"))
        #expect(first["entity"] == .string("Student"))
        #expect(first["object"] == .string("\(uri)/Student/p1"))
        #expect(first["relationship"] == .string("teacher"))
        #expect(first["destination"] == .string("Teacher/p99"))
    }

    @Test("a binary store written without a teacher its students name: check and validate report each, copies refuse to drop them without --allow-loss")
    func danglingBinary() throws {
        let scratch = try Scratch()
        let store = try sample("binary", in: scratch)
        let url = URL(fileURLWithPath: store)
        let model = try ModelFile.read(at: URL(fileURLWithPath: CLI.model)).model
        var image = try BinaryStoreFormat().read(from: url, model: model)
        let teacher = ManagedObjectID(entityName: "Teacher", storeIdentifier: CLI.sampleUUID, primaryKey: 4)
        try #require(image.objects.removeValue(forKey: teacher) != nil)
        try BinaryStoreFormat().write(image, to: url, model: model)   // the writer writes references as given

        let lines = problems(try scratch.run("check", store, "--model", CLI.model), store: store)
        let named = lines.filter { $0.contains("refers to Teacher/p4, which the store does not hold") }
        #expect(named.count == 2, "Course p1 and Student p1 name the teacher: \(lines)")
        let validate = try scratch.run("validate", store, "--model", CLI.model)
        #expect(validate.status == 1, "\(validate)")
        #expect(validate.outputLines.last?.hasSuffix("\(named.count) dangling references") == true, "\(validate)")
        let copy = scratch.path("copy.sqlite")
        let refused = try scratch.run("convert-store", store, copy, "--model", CLI.model)
        #expect(refused.status == 2, "\(refused)")
        #expect(refused.stderr.contains("refers to Teacher/p4, which the store does not hold"), "\(refused)")
        #expect(!FileManager.default.fileExists(atPath: copy), "a refused conversion writes nothing")
        let export = try scratch.run("export", store, "--model", CLI.model, "--allow-loss")
        #expect(export.status == 0, "\(export)")
        #expect(export.errorLines.count == 2 && export.errorLines.allSatisfy { $0.contains("dropped: ") && $0.contains("Teacher/p4") },
                "each dropped reference is a warning: \(export)")
        #expect(!export.stdout.contains("Teacher/p4"), "the dangling references read as nil")
    }

    @Test("SQLite key bookkeeping: Z_MAX below a key in use, a Z_ENT of no entity")
    func bookkeeping() throws {
        let scratch = try Scratch()
        let store = try sample("sqlite", in: scratch)
        _ = try SQLiteShell.rows(URL(fileURLWithPath: store), "UPDATE Z_PRIMARYKEY SET Z_MAX = 1 WHERE Z_NAME = 'Course'; UPDATE ZLESSON SET Z_ENT = 42 WHERE Z_PK = 2")
        let lines = problems(try scratch.run("check", store, "--model", CLI.model), store: store)
        #expect(lines.contains("\(store): Course: Z_PRIMARYKEY.Z_MAX is 1, below the largest key in use in ZCOURSE, 3 (new objects would be given keys in use)"), "\(lines)")
        #expect(lines.contains("\(store): Lesson: 1 row of ZLESSON (the first Z_PK 2) have Z_ENT 42, the code of no entity stored in that table"), "\(lines)")
    }

    @Test("an SQLite page overwritten with dd: SQLite's integrity check fails, exit 1", arguments: [2, 6, 9])
    func corruptPage(page: Int) throws {
        let scratch = try Scratch()
        let store = try sample("sqlite", in: scratch)
        let junk = try scratch.write(Data(repeating: 0x5A, count: 4096), to: "junk")
        let dd = Process()
        dd.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        dd.arguments = ["dd", "if=\(junk)", "of=\(store)", "bs=4096", "seek=\(page - 1)", "count=1", "conv=notrunc"]
        dd.standardError = FileHandle.nullDevice
        try dd.run()
        dd.waitUntilExit()
        try #require(dd.terminationStatus == 0)
        let lines = problems(try scratch.run("check", store, "--model", CLI.model), store: store)
        #expect(lines.contains { $0.contains("SQLite integrity check") }, "\(lines)")
    }

    @Test("bad usage: no such file, not a store, XML without a model: exit 2")
    func badUsage() throws {
        let scratch = try Scratch()
        expectOneLineFailure(try scratch.run("check", scratch.path("missing.sqlite")), mentioning: ["missing.sqlite", "no such file"])
        let text = try scratch.write("hello", to: "notes.txt")
        expectOneLineFailure(try scratch.run("check", text), mentioning: ["notes.txt", "not a store file"])
        let store = try sample("xml", in: scratch)
        expectOneLineFailure(try scratch.run("check", store), mentioning: [store, "--model"])
    }
}
