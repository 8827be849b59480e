import Foundation
import StrataCore
import Testing

/// Relationship descriptions keep their fields in a shared box: they must still behave as values.
@Suite("Relationship descriptions")
struct RelationshipDescriptionTests {
    @Test("A changed copy leaves the original as it was")
    func copiesAreIndependent() {
        let original = RelationshipDescription(name: "employees", destination: "Employee", inverse: "whereIWork", toMany: true)
        var copy = original
        copy.name = "staff"
        copy.deleteRule = .cascade
        copy.maxCount = 1
        copy.userInfo = ["note": "renamed"]
        #expect(original.name == "employees")
        #expect(original.deleteRule == .nullify)
        #expect(original.isToMany)
        #expect(original.userInfo.isEmpty)
        #expect(copy.name == "staff")
        #expect(copy.deleteRule == .cascade)
        #expect(!copy.isToMany)
        #expect(copy.userInfo == ["note": "renamed"])
        #expect(copy != original)
    }

    @Test("Descriptions made apart with the same fields are equal and hash alike")
    func equalityByValue() {
        let one = RelationshipDescription(name: "whereIWork", destination: "Employer", inverse: "employees", deleteRule: .deny,
                                          renamingIdentifier: "employer", versionHashModifier: "2")
        var other = RelationshipDescription(name: "whereIWork", destination: "Employer")
        other.inverseName = "employees"
        other.deleteRule = .deny
        other.renamingIdentifier = "employer"
        other.versionHashModifier = "2"
        #expect(one == other)
        #expect(Set([one, other]).count == 1)
        other.isOptional = false
        #expect(one != other)
        #expect(Set([one, other]).count == 2)
    }
}
