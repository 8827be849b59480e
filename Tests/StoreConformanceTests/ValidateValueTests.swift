import Foundation
import Strata
import StrataTestSupport
import Testing

/// `validateValue(_:forKey:)` checks the value it is given, as Core Data's does, and changes nothing.
@Suite("Validating a value")
struct ValidateValueTests {
    @Test("The value given is checked, not the current one; the object is not changed", arguments: StoreUnderTest.all)
    func checksTheValueGiven(store: StoreUnderTest) throws {
        let context = try store.makeContext(model: SampleModels.validation())
        let players = try (0..<2).map { _ in try context.insert("Player", ["name": "P"]) }
        let team = try context.insert("Team", ["name": "Fine", "code": "FIN", "size": 5, "players": players])
        try context.save()
        let reader = context.freshContext()
        let stored = try reader.existingObject(with: team.objectID)

        // A size of −5 is refused though the current size (5) is valid.
        let tooSmall = try #require(throws: ValidationError.self) { try stored.validateValue(-5, forKey: "size") }
        #expect(tooSmall.failures == [ValidationFailure(objectID: team.objectID, entityName: "Team", key: "size",
                                                        reason: .tooSmall(minimum: 1))])
        #expect(tooSmall.coreDataCode == 1620)
        #expect(try stored.primitiveValue(forKey: "size") == .integer(5))
        #expect(!stored.hasChanges)
        #expect(stored.changedValues().isEmpty)

        // Every kind of rule, on the value given.
        #expect(throws: ValidationError.self) { try stored.validateValue(12, forKey: "size") }
        #expect(throws: ValidationError.self) { try stored.validateValue(nil, forKey: "name") }
        #expect(throws: ValidationError.self) { try stored.validateValue("Far Too Long A Name", forKey: "name") }
        #expect(throws: ValidationError.self) { try stored.validateValue("ab1", forKey: "code") }
        #expect(throws: ValidationError.self) { try stored.validateValue([players[0]], forKey: "players") }
        // Valid values pass, whatever the object holds.
        try stored.validateValue(11, forKey: "size")
        try stored.validateValue("Short", forKey: "name")
        try stored.validateValue("XYZ", forKey: "code")

        // An object whose current value is invalid still accepts a valid value given.
        try stored.setValue(40, forKey: "size")
        try stored.validateValue(3, forKey: "size")
        #expect(try stored.primitiveValue(forKey: "size") == .integer(40))
        #expect(throws: ValidationError.self) { try stored.validateValue(0, forKey: "size") }
    }

    @Test("A subclass's own rule receives the value given, and save still checks the current values",
          arguments: StoreUnderTest.all)
    func subclassSeesTheValueGiven(store: StoreUnderTest) throws {
        final class EvenTeam: ManagedObject {
            override func validateValue(_ value: Any?, forKey key: String) throws {
                try super.validateValue(value, forKey: key)
                if key == "size", let size = (value as? any BinaryInteger).map({ Int($0) }), size % 2 != 0 {
                    throw ValidationError(failures: [ValidationFailure(objectID: objectID, entityName: entity.name,
                                                                       key: key, reason: .custom("is odd"))])
                }
            }
        }
        let (coordinator, _) = try store.makeCoordinator(model: SampleModels.validation())
        coordinator.register(EvenTeam.self, forEntityName: "Team")
        let context = ManagedObjectContext(coordinator: coordinator)
        let players = try (0..<2).map { _ in try context.insert("Player", ["name": "P"]) }
        let team = try context.insert("Team", ["name": "Even", "size": 4, "players": players])
        let odd = try #require(throws: ValidationError.self) { try team.validateValue(3, forKey: "size") }
        #expect(odd.failures.map(\.reason) == [.custom("is odd")])
        #expect(odd.coreDataCode == 1550)
        try team.validateValue(6, forKey: "size")
        try context.save()
        try team.setValue(5, forKey: "size")
        let failed = try #require(throws: ValidationError.self) { try context.save() }
        #expect(failed.failures.map(\.reason) == [.custom("is odd")])
    }
}
