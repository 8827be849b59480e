import Foundation
import Testing

/// `strata validate` on stores whose objects break the model's rules.
@Suite("strata validate")
struct ValidateTests {
    @Test("validate lists every failure and exits 1", arguments: CLI.writableTypes)
    func failures(type: String) throws {
        let scratch = try Scratch()
        let uuid = "11111111-2222-4333-8444-555555555555"
        let document = try scratch.write("""
            {"format": "strata-export", "version": 1, "store": {"uuid": "\(uuid)"}, "objects": [
              {"entity": "Student", "ref": "Student/p1", "attributes": {"name": "Ada", "id": "0E4C4A58-8B1F-4D3B-9D0A-6D1B0A2E3F41", "year": 20}},
              {"entity": "Student", "ref": "Student/p2", "attributes": {"name": "Bo", "id": "2F6A1C3D-5E7B-4A9C-8D2E-1F3A5B7C9D0E", "year": 12}},
              {"entity": "Course", "ref": "Course/p1", "attributes": {"title": "Bad code", "code": "abc", "credits": 3}},
              {"entity": "Course", "ref": "Course/p2", "attributes": {"title": "Good code", "code": "ABC123", "credits": 3}}
            ]}
            """, to: "failing.json")
        let store = scratch.path("failing.\(type)")
        try scratch.succeed("import", document, store, "--model", CLI.model)

        let result = try scratch.run("validate", store, "--model", CLI.model)
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.isEmpty, "\(result)")
        #expect(result.outputLines == [
            "Course x-coredata://\(uuid)/Course/p1.code does not match [A-Z]{3}[0-9]{3}",
            "Student x-coredata://\(uuid)/Student/p1.year is above the maximum 13.0",
            "4 objects checked, 2 validation failures",
        ], "\(result)")
    }

    @Test("validate reports required, too small, too short and too large values")
    func moreRules() throws {
        let scratch = try Scratch()
        let uuid = "AAAAAAAA-BBBB-4CCC-8DDD-EEEEEEEEEEEE"
        let document = try scratch.write("""
            {"format": "strata-export", "version": 1, "store": {"uuid": "\(uuid)"}, "objects": [
              {"entity": "Student", "ref": "Student/p1", "attributes": {"name": "", "year": 0, "gpa": 4.5}},
              {"entity": "Course", "ref": "Course/p1", "attributes": {"title": "T", "code": "ABC123", "credits": 11}}
            ]}
            """, to: "failing.json")
        let store = scratch.path("failing.xml")
        try scratch.succeed("import", document, store, "--model", CLI.model)

        let result = try scratch.run("validate", store, "--model", CLI.model)
        #expect(result.status == 1, "\(result)")
        let student = "Student x-coredata://\(uuid)/Student/p1"
        #expect(Set(result.outputLines.dropLast()) == [
            "Course x-coredata://\(uuid)/Course/p1.credits is above the maximum 10.0",
            "\(student).name is shorter than 1",
            "\(student).id is required",
            "\(student).year is below the minimum 1.0",
            "\(student).gpa is above the maximum 4.0",
        ], "\(result)")
        #expect(result.outputLines.first?.hasPrefix("Course ") == true, "entities are checked in name order: \(result)")
        #expect(result.outputLines.last == "2 objects checked, 5 validation failures", "\(result)")
    }
}
