import Foundation
import StrataTestSupport
import StrataJSON
import Testing

/// A generated document of several hundred School objects with awkward values, imported into
/// every store type, converted through every other type and exported again.
@Suite("strata round trip across store types")
struct RoundTripTests {
    @Test("import, convert through every type and export: the objects are the same everywhere")
    func roundTrip() throws {
        let scratch = try Scratch()
        let generated = GeneratedDocument(seed: 0x5EED)
        let document = try scratch.write(generated.text, to: "generated.json")

        var exports: [(name: String, text: String)] = []
        for source in CLI.writableTypes {
            let imported = scratch.path("imported.\(source)")
            let result = try scratch.succeed("import", document, imported, "--model", CLI.model)
            #expect(result.stdout.contains(": \(generated.objects.count) objects imported into a new "), "\(result)")
            exports.append(("imported.\(source)", try scratch.export(imported)))
            for destination in CLI.writableTypes where destination != source {
                let converted = scratch.path("\(source)-to.\(destination)")
                try scratch.succeed("convert-store", imported, converted, "--model", CLI.model)
                exports.append(("\(source)-to.\(destination)", try scratch.export(converted)))
                let back = scratch.path("\(source)-to-\(destination)-and-back.\(source)")
                try scratch.succeed("convert-store", converted, back, "--model", CLI.model, "--to-type", source)
                let backExport = try scratch.export(back)
                exports.append(("\(source)-to-\(destination)-and-back.\(source)", backExport))
                // Same type: the whole document is the same, store section included.
                #expect(backExport == exports.first { $0.name == "imported.\(source)" }?.text,
                        "\(back) exports differently from the store it was converted from")
            }
        }

        let reference = try objectsSection(exports[0].text)
        for export in exports.dropFirst() {
            let objects = try objectsSection(export.text)
            #expect(objects == reference, "\(export.name) holds other objects than \(exports[0].name): \(firstDifference(objects, reference))")
        }
        for export in exports {
            let store = try #require(try JSONParser.parse(export.text)["store"])
            #expect(store["uuid"] == .string(GeneratedDocument.uuid), "\(export.name)")
            let metadata = try #require(store["metadata"])
            for (key, value) in GeneratedDocument.metadata {
                #expect(metadata[key] == value, "\(export.name): metadata \(key)")
            }
        }

        try generated.check(export: try JSONParser.parse(exports[0].text))
    }

    /// Where two texts first differ, with some context.
    func firstDifference(_ a: Substring, _ b: Substring) -> String {
        let lines = (a.split(separator: "\n"), b.split(separator: "\n"))
        for (x, y) in zip(lines.0, lines.1) where x != y { return "\n  \(x)\nvs\n  \(y)" }
        return "line counts \(lines.0.count) and \(lines.1.count)"
    }
}

/// The document: objects with refs `<Entity>/p<N>` and what the export must show for each.
struct GeneratedDocument {
    static let uuid = "0F1E2D3C-4B5A-4968-8776-A5B4C3D2E1F0"
    static let metadata: [(String, JSONValue)] = [
        ("generator", .string("StrataCLITests")),
        ("seed", .number("42")),
        ("ratio", .number("0.5")),
        ("when", .object(["$date": .number("1700000000.5")])),
        ("blob", .object(["$data": .string("AAEC/w==")])),
        ("list", .array([.number("1"), .string("two"), .bool(true)])),
    ]

    static let doubles: [Double] = [
        0.1, -0.0, 0.0, 1e-300, .leastNonzeroMagnitude, 2.2250738585072014e-308, .greatestFiniteMagnitude, -1.5, .pi, 1.0 / 3.0,
        123456789.123456789, 3.7, 1e22, 9007199254740992, .infinity, -.infinity, .nan,
        Double(nan: 0x1234, signaling: false),
    ]
    static let floats: [Float] = [
        0.1, -0.0, .leastNonzeroMagnitude, .greatestFiniteMagnitude, .leastNormalMagnitude, 16777216, 1.0 / 3.0, -2.5, 45, 90.5,
        .infinity, -.infinity, .nan,
    ]
    /// Dates as seconds since 1970, in the plain notation the export writes.
    static let dates = [
        "1700000000.123", "-1.5", "0", "978307200", "-62135596800", "1700000000.000001", "253402300799.999",
        "0.001", "-0.25", "1136073600", "1790931600.25", "-31536000",
    ]
    static let int16s: [Int64] = [-32768, 32767, 0, 1, 13, -1, 7]
    static let int32s: [Int64] = [Int64(Int32.min), Int64(Int32.max), 0, 5, 10, -1]
    static let int64s: [Int64] = [9007199254740993, .max, .min, 0, -9007199254740993, 42]
    static let decimals = [
        "123.4500", "0", "-0.001", "61234.56", "12345678901234567890.123456789", "1e10",
        "-99999999999999999999999999999999999999", "0.00000000000000000000000000000000000001", "58000",
    ]
    static let strings = [
        "", "plain", "\"quotes\" and 'apostrophes' & <tags> ]]> &amp;", "tab\tnewline\nreturn\rcr-lf\r\nend",
        "\u{0}nul", "\u{1}\u{8}\u{B}\u{C}\u{1F}\u{7F}", "emoji 👩‍👩‍👧‍👦 🇫🇷 😀", "e\u{301} and \u{E9}", "  leading and trailing  ",
        "\u{FEFF}bom", "\u{FFFE}\u{FFFF}", "\u{D7FF}\u{E000}\u{FFFD}", "𝄞 music", "line\u{2028}separator\u{85}next",
        "\\backslash\\ /slash/", "Chœur & Orchestre", "Søren Ødegård", "Karl Weierstraß", String(repeating: "long ", count: 2000),
        " ", "\n", "ǅ Ǆ ǆ", "\u{10FFFF}",
    ]
    static let uris = [
        "https://example.org/~ada", "https://example.org/a%20b?q=1&r=2#frag", "urn:isbn:0451450523", "mailto:a@b.c",
        "file:///tmp/x", "https://xn--caf-dma.example/", "data:text/plain;base64,SGVsbG8=",
        "x-coredata://5B7C2B9E-3F4A-4C1D-9E8F-0A1B2C3D4E5F/Course/p1",
    ]

    static let teacherCount = 30
    static let studentCount = 200
    static let courseCount = 60
    static let lessonCount = 240

    struct Object {
        var entity: String
        var ref: String
        /// The members written to the document, in order (a nil value is left out of the document).
        var attributes: [(String, JSONValue?)] = []
        var relationships: [(String, JSONValue?)] = []
    }

    var objects: [Object] = []
    var text = ""
    /// Each course's lessons, in the document's order.
    var courseLessons: [String: [String]] = [:]
    var lessonCourse: [String: String] = [:]
    var studentCourses: [String: Set<String>] = [:]
    var studentTeacher: [String: String] = [:]
    var courseTeacher: [String: String] = [:]

    init(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        func pick<T>(_ values: [T], _ index: Int) -> T { values[index % values.count] }
        func randomUUID() -> String {
            var bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &random) }
            bytes[6] = bytes[6] & 0x0F | 0x40
            bytes[8] = bytes[8] & 0x3F | 0x80
            let uuid = UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                                   bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
            return uuid.uuidString
        }
        func randomBytes(_ index: Int) -> Data {
            switch index % 6 {
            case 0: Data()
            case 1: Data(0...255)
            case 2: Data([0])
            case 3: Data(repeating: 0xFF, count: 3)
            default: Data((0..<Int.random(in: 1...2000, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) })
            }
        }
        /// An optional value: every 7th left out of the document, every 7th (offset) null.
        func optional(_ index: Int, _ value: JSONValue) -> JSONValue? {
            switch index % 7 {
            case 3: nil
            case 5: .null
            default: value
            }
        }

        let teachers = (1...Self.teacherCount).map { "Teacher/p\($0)" }
        let students = (1...Self.studentCount).map { "Student/p\(Self.teacherCount + $0)" }
        let courses = (1...Self.courseCount).map { "Course/p\($0)" }
        let lessons = (1...Self.lessonCount).map { "Lesson/p\($0)" }

        // Lessons shared out among the courses in a shuffled order; some left without a course.
        var unassigned = lessons.shuffled(using: &random)
        for course in courses {
            let count = min(unassigned.count, Int.random(in: 0...5, using: &random))
            courseLessons[course] = Array(unassigned.prefix(count))
            unassigned.removeFirst(count)
            for lesson in courseLessons[course]! { lessonCourse[lesson] = course }
        }

        for (index, ref) in teachers.enumerated() {
            var object = Object(entity: "Teacher", ref: ref)
            object.attributes = [
                ("name", .string(pick(Self.strings, index))),
                ("birthDate", optional(index, .number(pick(Self.dates, index)))),
                ("id", .string(randomUUID())),
                ("salary", optional(index + 1, .string(pick(Self.decimals, index)))),
                ("employeeNumber", .number(String(pick(Self.int64s, index)))),
            ]
            objects.append(object)
        }
        for (index, ref) in students.enumerated() {
            var object = Object(entity: "Student", ref: ref)
            object.attributes = [
                ("name", .string(pick(Self.strings, index + 3))),
                ("birthDate", optional(index + 2, .number(pick(Self.dates, index + 5)))),
                ("id", .string(randomUUID())),
                ("year", .number(String(pick(Self.int16s, index)))),
                ("gpa", optional(index + 4, Self.json(pick(Self.doubles, index)))),
                ("photo", optional(index + 1, .string(randomBytes(index).base64EncodedString()))),
                ("homepage", optional(index, .string(pick(Self.uris, index)))),
            ]
            if index % 4 != 0 {
                let teacher = teachers[Int.random(in: 0..<teachers.count, using: &random)]
                studentTeacher[ref] = teacher
                object.relationships.append(("teacher", .string(teacher)))
            } else if index % 8 == 0 {
                object.relationships.append(("teacher", .null))
            }
            let chosen = Set((0..<Int.random(in: 0...4, using: &random)).map { _ in courses[Int.random(in: 0..<courses.count, using: &random)] })
            studentCourses[ref] = chosen
            if !chosen.isEmpty || index % 2 == 0 {
                object.relationships.append(("courses", .array(chosen.shuffled(using: &random).map(JSONValue.string))))
            }
            objects.append(object)
        }
        for (index, ref) in courses.enumerated() {
            var object = Object(entity: "Course", ref: ref)
            object.attributes = [
                ("title", .string(pick(Self.strings, index + 7))),
                ("code", .string(pick(Self.strings, index + 11))),
                ("credits", .number(String(pick(Self.int32s, index)))),
                ("isElective", .bool(index % 3 == 0)),
            ]
            if index % 5 != 0 {
                let teacher = teachers[Int.random(in: 0..<teachers.count, using: &random)]
                courseTeacher[ref] = teacher
                object.relationships.append(("teacher", .string(teacher)))
            }
            object.relationships.append(("lessons", .array(courseLessons[ref]!.map(JSONValue.string))))
            objects.append(object)
        }
        for (index, ref) in lessons.enumerated() {
            var object = Object(entity: "Lesson", ref: ref)
            object.attributes = [
                ("topic", .string(pick(Self.strings, index + 13))),
                ("minutes", Self.json(pick(Self.floats, index))),
                ("start", optional(index + 6, .number(pick(Self.dates, index)))),
            ]
            // Some lessons state their course too (agreeing with the course's list).
            if index % 3 == 0, let course = lessonCourse[ref] { object.relationships.append(("course", .string(course))) }
            objects.append(object)
        }
        // Not grouped by entity in the document: the export sorts them.
        objects.shuffle(using: &random)

        var text = "{\n  \"format\": \"strata-export\",\n  \"version\": 1,\n  \"store\": {\"type\": \"XML\", \"uuid\": \"\(Self.uuid)\", \"metadata\": "
        Self.write(.object(.init(uniqueKeysWithValues: Self.metadata)), asciiOnly: false, to: &text)
        text += "},\n  \"objects\": ["
        for (index, object) in objects.enumerated() {
            text += index == 0 ? "\n    " : ",\n    "
            let attributes = object.attributes.compactMap { name, value in value.map { (name, $0) } }
            let relationships = object.relationships.compactMap { name, value in value.map { (name, $0) } }
            var members: [(String, JSONValue)] = [("entity", .string(object.entity)), ("ref", .string(object.ref))]
            members.append(("attributes", .object(.init(uniqueKeysWithValues: attributes))))
            if !relationships.isEmpty || index % 2 == 0 { members.append(("relationships", .object(.init(uniqueKeysWithValues: relationships)))) }
            // Every other object has its strings written with \u escapes for everything not ASCII.
            Self.write(.object(.init(uniqueKeysWithValues: members)), asciiOnly: index % 2 == 1, to: &text)
        }
        text += "\n  ]\n}\n"
        self.text = text
    }

    /// A `Double` as the document writes it.
    static func json(_ double: Double) -> JSONValue {
        if double.isFinite { return .number(double.description) }
        if double.isInfinite { return .string(double < 0 ? "-Infinity" : "Infinity") }
        return .string(double.bitPattern == Double.nan.bitPattern ? "NaN" : "NaN(0x\(String(double.bitPattern, radix: 16)))")
    }

    /// A `Float` as the document writes it.
    static func json(_ float: Float) -> JSONValue {
        if float.isFinite { return .number(float.description) }
        if float.isInfinite { return .string(float < 0 ? "-Infinity" : "Infinity") }
        return .string(float.bitPattern == Float.nan.bitPattern ? "NaN" : "NaN(0x\(String(float.bitPattern, radix: 16)))")
    }

    /// JSON text written by the test itself (not by StrataJSON's writer).
    static func write(_ value: JSONValue, asciiOnly: Bool, to output: inout String) {
        switch value {
        case .null: output += "null"
        case .bool(let flag): output += flag ? "true" : "false"
        case .number(let text): output += text
        case .string(let string): writeString(string, asciiOnly: asciiOnly, to: &output)
        case .array(let elements):
            output += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { output += "," }
                write(element, asciiOnly: asciiOnly, to: &output)
            }
            output += "]"
        case .object(let members):
            output += "{"
            for (index, member) in members.enumerated() {
                if index > 0 { output += ", " }
                writeString(member.key, asciiOnly: asciiOnly, to: &output)
                output += ":"
                write(member.value, asciiOnly: asciiOnly, to: &output)
            }
            output += "}"
        }
    }

    static func writeString(_ string: String, asciiOnly: Bool, to output: inout String) {
        func hex(_ unit: UInt16) -> String {
            let digits = String(unit, radix: 16)
            return "\\u" + String(repeating: "0", count: 4 - digits.count) + digits
        }
        output += "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\t": output += "\\t"
            case "/" where asciiOnly: output += "\\/"
            case _ where scalar.value < 0x20: output += hex(UInt16(scalar.value))
            case _ where asciiOnly && scalar.value >= 0x7F:
                for unit in String(scalar).utf16 { output += hex(unit) }
            default: output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }

    /// The primary key of a ref.
    static func key(_ ref: String) -> Int { Int(ref.split(separator: "p").last!)! }

    /// Refs as the export lists a to-many that is not ordered: by primary key.
    static func sorted(_ refs: some Sequence<String>) -> JSONValue {
        .array(refs.sorted { key($0) < key($1) }.map(JSONValue.string))
    }

    /// Checks an export holds exactly the generated objects, values and relationships.
    func check(export: JSONValue) throws {
        let exported = try #require(export["objects"]?.elements)
        #expect(exported.count == objects.count)
        var byRef: [String: JSONValue] = [:]
        for object in exported { byRef[object["ref"]?.stringValue ?? "?"] = object }
        #expect(Set(byRef.keys) == Set(objects.map(\.ref)), "the refs (primary keys) changed")

        var teacherStudents: [String: [String]] = [:]
        var teacherCourses: [String: [String]] = [:]
        var courseStudents: [String: [String]] = [:]
        for (student, teacher) in studentTeacher { teacherStudents[teacher, default: []].append(student) }
        for (course, teacher) in courseTeacher { teacherCourses[teacher, default: []].append(course) }
        for (student, courses) in studentCourses { for course in courses { courseStudents[course, default: []].append(student) } }

        for object in objects {
            guard let found = byRef[object.ref] else { continue }
            #expect(found["entity"] == .string(object.entity))
            for (name, value) in object.attributes {
                let actual = found["attributes"]?[name]
                if object.entity == "Teacher", name == "salary", case .string(let text)? = value {
                    // Decimals come back equal in value (Foundation's Decimal may drop trailing zeros).
                    let decimal = try #require(actual?.stringValue.flatMap { Decimal(string: $0, locale: Locale(identifier: "en_US_POSIX")) },
                                               "\(object.ref).salary is \(String(describing: actual))")
                    #expect(decimal == Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")), "\(object.ref).salary: \(text)")
                    if text == "123.4500" { #expect(actual == .string("123.45"), "trailing zeros of a Decimal are not kept") }
                    if text == "1e10" { #expect(actual == .string("10000000000")) }
                } else {
                    #expect(actual == (value ?? .null), "\(object.ref).\(name)")
                }
            }
            let relationships = found["relationships"]
            switch object.entity {
            case "Teacher":
                #expect(relationships?["students"] == Self.sorted(teacherStudents[object.ref] ?? []), "\(object.ref).students")
                #expect(relationships?["courses"] == Self.sorted(teacherCourses[object.ref] ?? []), "\(object.ref).courses")
            case "Student":
                #expect(relationships?["teacher"] == studentTeacher[object.ref].map(JSONValue.string) ?? .null, "\(object.ref).teacher")
                #expect(relationships?["courses"] == Self.sorted(studentCourses[object.ref] ?? []), "\(object.ref).courses")
            case "Course":
                #expect(relationships?["teacher"] == courseTeacher[object.ref].map(JSONValue.string) ?? .null, "\(object.ref).teacher")
                #expect(relationships?["students"] == Self.sorted(courseStudents[object.ref] ?? []), "\(object.ref).students")
                // Ordered: the document's order, not sorted.
                #expect(relationships?["lessons"] == .array(courseLessons[object.ref]!.map(JSONValue.string)), "\(object.ref).lessons")
            default:
                #expect(relationships?["course"] == lessonCourse[object.ref].map(JSONValue.string) ?? .null, "\(object.ref).course")
            }
        }
        // The ordered relationships really are in an order other than sorted somewhere.
        #expect(courseLessons.values.contains { $0 != $0.sorted { Self.key($0) < Self.key($1) } })
    }
}
