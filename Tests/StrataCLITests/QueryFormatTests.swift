import Foundation
import StrataJSON
import Testing

/// `strata query --format table|json|ndjson|csv --columns …`.
@Suite("strata query output formats")
struct QueryFormatTests {
    /// A store like the sample whose first course's title holds a comma, double quotes and a
    /// line break.
    static func awkwardStore(_ scratch: Scratch) throws -> String {
        let document = String(decoding: try scratch.read(CLI.sampleDocument), as: UTF8.self)
            .replacingOccurrences(of: "\"title\": \"Analysis I\"", with: #""title": "Analysis, \"part\" I\nnext""#)
        let path = try scratch.write(document, to: "awkward.json")
        let store = scratch.path("awkward.xml")
        try scratch.succeed("import", path, store, "--model", CLI.model)
        return store
    }

    @Test("csv: a header row, RFC 4180 quoting, CRLF line ends, to-many refs separated by spaces")
    func csv() throws {
        let scratch = try Scratch()
        let store = try Self.awkwardStore(scratch)
        let result = try scratch.succeed("query", store, "--model", CLI.model, "--entity", "Course",
                                         "--format", "csv", "--columns", "ref,title,credits,isElective,lessons,teacher")
        #expect(result.stdout == """
            ref,title,credits,isElective,lessons,teacher\r
            Course/p1,"Analysis, ""part"" I
            next",6,false,Lesson/p2 Lesson/p1 Lesson/p3,Teacher/p4\r
            Course/p2,Mechanics,5,false,Lesson/p4,Teacher/p5\r
            Course/p3,Chœur & Orchestre,2,true,,Teacher/p5\r

            """, "\(result.stdout.debugDescription)")
    }

    @Test("table: aligned columns under a header and a rule; line breaks shown as \\n")
    func table() throws {
        let scratch = try Scratch()
        let store = try Self.awkwardStore(scratch)
        let result = try scratch.succeed("query", store, "--model", CLI.model, "--entity", "Course",
                                         "--format", "table", "--columns", "code,title,credits", "--sort", "code")
        #expect(result.stdout == """
            code    title                     credits
            ------  ------------------------  -------
            MTH101  Analysis, "part" I\\nnext  6
            MUS200  Chœur & Orchestre         2
            PHY110  Mechanics                 5

            """, "\(result.stdout)")
    }

    @Test("table and csv without --columns: ref, every attribute, every relationship")
    func defaultColumns() throws {
        let scratch = try Scratch()
        let csv = try scratch.succeed("query", CLI.sampleStore, "--model", CLI.model, "--entity", "Course", "--format", "csv")
        // "\r\n" is one Character in Swift: the CSV's lines are split by it.
        let lines = csv.stdout.components(separatedBy: "\r\n")
        #expect(lines.first == "ref,code,credits,isElective,title,lessons,students,teacher")
        #expect(lines.count == 5 && lines.last == "", "\(lines)")
        let table = try scratch.succeed("query", CLI.sampleStore, "--model", CLI.model, "--entity", "Course", "--format", "table")
        #expect(table.outputLines.first?.hasPrefix("ref        code    credits  isElective  title") == true, "\(table)")
        #expect(table.outputLines.count == 5)
    }

    @Test("json is the default and the export's objects; ndjson is one object a line; --columns narrows both")
    func jsonAndNDJSON() throws {
        let scratch = try Scratch()
        let arguments = ["query", CLI.sampleStore, "--model", CLI.model, "--entity", "Course"]
        let json = try scratch.succeed(arguments + ["--format", "json"])
        #expect(json.stdout == (try scratch.succeed(arguments)).stdout)
        let exported = try JSONParser.parse(Data(try scratch.export(CLI.sampleStore).utf8))
        let courses = exported["objects"]?.elements?.filter { $0["entity"] == .string("Course") }
        #expect(try JSONParser.parse(json.stdoutData).elements == courses)

        let ndjson = try scratch.succeed(arguments + ["--format", "ndjson"])
        #expect(ndjson.outputLines.count == 3)
        #expect(try ndjson.outputLines.map { try JSONParser.parse(Data($0.utf8)) } == courses)

        let narrowed = try scratch.succeed(arguments + ["--format", "ndjson", "--columns", "code,teacher"])
        let first = try JSONParser.parse(Data(narrowed.outputLines[0].utf8))
        #expect(first["entity"] == JSONValue.string("Course"))
        #expect(first["ref"] == JSONValue.string("Course/p1"))
        #expect(first["attributes"]?.memberNames == ["code"])
        #expect(first["relationships"]?.memberNames == ["teacher"])
    }

    @Test("an unknown column is refused naming it and the entity; a sub-entity's attribute is known")
    func unknownColumn() throws {
        let scratch = try Scratch()
        expectOneLineFailure(try scratch.run("query", CLI.sampleStore, "--model", CLI.model, "--entity", "Course", "--columns", "code,room"),
                             mentioning: ["--columns: entity Course has no attribute or relationship 'room'"])
        expectOneLineFailure(try scratch.run("query", CLI.sampleStore, "--model", CLI.model, "--entity", "Course", "--format", "xml"),
                             mentioning: ["xml", "(see 'strata help')"])
        // Person's sub-entities: Student's year, Teacher's salary.
        let people = try scratch.succeed("query", CLI.sampleStore, "--model", CLI.model, "--entity", "Person",
                                         "--format", "csv", "--columns", "name,year,salary")
        let lines = people.stdout.components(separatedBy: "\r\n")
        #expect(lines.contains("Ada Lovelace,11,"), "\(people)")
        #expect(lines.contains("Lise Meitner,,58000"), "\(people)")
    }

    @Test("--count and --output work together; --output - is standard output")
    func countToOutput() throws {
        let scratch = try Scratch()
        let output = scratch.path("count.txt")
        try scratch.succeed("query", CLI.sampleStore, "--model", CLI.model, "--entity", "Course", "--count", "--output", output)
        #expect(try scratch.read(output) == Data("3\n".utf8))
    }
}
