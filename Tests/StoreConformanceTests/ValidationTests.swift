import Foundation
import Strata
import StrataTestSupport
import Testing

/// Scenario 11: every broken rule of a save, in one error naming each object and key.
@Suite("Validation")
struct ValidationTests {
    @Test("Scenario 11: every failure of every object in one ValidationError; fixed, the save succeeds",
          arguments: StoreUnderTest.all)
    func allFailuresTogether(store: StoreUnderTest) throws {
        let context = try store.makeContext(model: SampleModels.validation())
        func players(_ count: Int) throws -> [ManagedObject] {
            try (0..<count).map { _ in try context.insert("Player", ["name": "P"]) }
        }
        // Nameless: a required attribute left nil.
        let nameless = try context.insert("Team", ["code": "ABC", "size": 5, "players": try players(2)])
        // Sprawling: a name over 10 characters, a code that is not three capitals, a size over 11,
        // one player where two are the minimum.
        let sprawling = try context.insert("Team", [
            "name": "Far Too Long A Name", "code": "ab1", "size": 12, "players": try players(1),
        ])
        // Tiny: a size under 1.
        let tiny = try context.insert("Team", ["name": "Tiny", "code": "TNY", "size": 0, "players": try players(2)])
        // Valid.
        try context.insert("Team", ["name": "Fine", "code": "FIN", "size": 11, "players": try players(3)])

        let error = try #require(throws: ValidationError.self) { try context.save() }
        let expected: Set<ValidationFailure> = [
            ValidationFailure(objectID: nameless.objectID, entityName: "Team", key: "name",
                              reason: .missingMandatoryProperty),
            ValidationFailure(objectID: sprawling.objectID, entityName: "Team", key: "name",
                              reason: .tooLong(maximumLength: 10)),
            ValidationFailure(objectID: sprawling.objectID, entityName: "Team", key: "code",
                              reason: .patternMismatch(pattern: "[A-Z]{3}")),
            ValidationFailure(objectID: sprawling.objectID, entityName: "Team", key: "size",
                              reason: .tooLarge(maximum: 11)),
            ValidationFailure(objectID: sprawling.objectID, entityName: "Team", key: "players",
                              reason: .tooFewObjects(minimum: 2, count: 1)),
            ValidationFailure(objectID: tiny.objectID, entityName: "Team", key: "size",
                              reason: .tooSmall(minimum: 1)),
        ]
        #expect(error.failures.count == expected.count)
        #expect(Set(error.failures) == expected)
        // The description names each object and key.
        for failure in expected {
            #expect(error.description.contains("Team \(failure.objectID).\(failure.key ?? "")"))
        }

        // Nothing was saved; the context keeps everything.
        #expect(try context.freshContext().count("Team") == 0)
        #expect(context.insertedObjects.count == 12)

        try nameless.setValue("Named", forKey: "name")
        try sprawling.setValue("Short", forKey: "name")
        try sprawling.setValue("SHO", forKey: "code")
        try sprawling.setValue(11, forKey: "size")
        try sprawling.add(try context.insert("Player", ["name": "Q"]), to: "players")
        try tiny.setValue(1, forKey: "size")
        try context.save()

        let fresh = context.freshContext()
        #expect(try fresh.strings(sortedRequest("Team")) == ["Fine", "Named", "Short", "Tiny"])
        #expect(try fresh.count("Player") == 9)
        let short = try fresh.existingObject(with: sprawling.objectID)
        #expect(try short.objects("players").count == 2)
        #expect(try short.value(forKey: "size") as? Int16 == 11)
    }

    @Test("Scenario 11: updates are validated too, and the store keeps the valid state",
          arguments: StoreUnderTest.all)
    func updateValidation(store: StoreUnderTest) throws {
        let context = try store.makeContext(model: SampleModels.validation())
        let team = try context.insert("Team", ["name": "Ok", "size": 3])
        for _ in 0..<2 { try team.add(try context.insert("Player", ["name": "P"]), to: "players") }
        try context.save()

        try team.setValue("x", forKey: "code")
        try team.setValue(nil, forKey: "name")
        let error = try #require(throws: ValidationError.self) { try context.save() }
        #expect(Set(error.failures) == [
            ValidationFailure(objectID: team.objectID, entityName: "Team", key: "code",
                              reason: .patternMismatch(pattern: "[A-Z]{3}")),
            ValidationFailure(objectID: team.objectID, entityName: "Team", key: "name",
                              reason: .missingMandatoryProperty),
        ])
        let fresh = context.freshContext()
        let stored = try fresh.existingObject(with: team.objectID)
        #expect(try stored.string("name") == "Ok")
        #expect(try stored.value(forKey: "code") == nil)
        #expect(team.isUpdated)
    }

    @Test("A length rule counts characters: a CR LF is one, a combining mark joins its letter, a lone CR is one",
          arguments: StoreUnderTest.all)
    func lengthCountsCharacters(store: StoreUnderTest) throws {
        let context = try store.makeContext(model: SampleModels.validation())
        // Ten characters each (the most a team's name may have), in more bytes than ten.
        let fitting = ["a\r\nbcdefghi", String(repeating: "\r\n", count: 10), String(repeating: "é", count: 10),
                       String(repeating: "e\u{301}", count: 10), "abcdefghij"]
        // Eleven characters each.
        let tooLong = ["abcdefghijk", String(repeating: "\r", count: 11), "a\n\rbcdefghi", String(repeating: "é", count: 11)]
        var teams: [ManagedObject] = []
        for name in fitting + tooLong {
            let players = try (0..<2).map { _ in try context.insert("Player", ["name": "P"]) }
            teams.append(try context.insert("Team", ["name": name, "code": "ABC", "size": 5, "players": players]))
        }
        let error = try #require(throws: ValidationError.self) { try context.save() }
        let failing = teams[fitting.count...].map(\.objectID)
        #expect(Set(error.failures.map(\.objectID)) == Set(failing))
        #expect(error.failures.allSatisfy { $0.key == "name" && $0.reason == .tooLong(maximumLength: 10) })
        for team in teams[fitting.count...] { try context.delete(team) }
        try context.save()
        #expect(try context.freshContext().count(for: FetchRequest(entityName: "Team")) == fitting.count)
    }
}
