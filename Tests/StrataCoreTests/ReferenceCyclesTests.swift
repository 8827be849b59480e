import Foundation
import Testing
@testable import StrataCore
import StrataTestSupport

/// Which entities' objects a context cuts loose when it goes: those that can close a cycle of
/// strong references.
@Suite("Reference cycles of a model")
struct ReferenceCyclesTests {
    @Test("An entity with a to-many can close a cycle; one with only a to-one to it cannot")
    func toManyOwner() throws {
        #expect(try SampleModels.company().entitiesOnReferenceCycles == ["Employer"])
        #expect(try SampleModels.student().entitiesOnReferenceCycles.isEmpty)
    }

    @Test("Entities on a cycle of to-ones can close one; an entity leading into the cycle cannot")
    func toOneCycles() throws {
        let model = try ManagedObjectModel {
            EntityDescription("Husband") {
                Relationship("wife", to: "Wife", inverse: "husband")
            }
            EntityDescription("Wife") {
                Relationship("husband", to: "Husband", inverse: "wife")
            }
            EntityDescription("Node") {
                Relationship("next", to: "Node")
            }
            EntityDescription("Guest") {
                Relationship("host", to: "Husband")
                Relationship("first", to: "Node")
            }
        }
        #expect(model.entitiesOnReferenceCycles == ["Husband", "Wife", "Node"])
    }

    @Test("A to-one reaches the sub-entities of its destination")
    func subEntities() throws {
        let model = try ManagedObjectModel(entities: [
            EntityDescription("Holder") {
                Relationship("item", to: "Item")
            },
            EntityDescription("Item", isAbstract: true) {
                Attribute("name", .string)
            },
            EntityDescription("Box", parent: "Item") {
                Relationship("owner", to: "Holder")
            },
            EntityDescription("Plain", parent: "Item") {
                Attribute("size", .integer16)
            },
        ])
        #expect(model.entitiesOnReferenceCycles == ["Holder", "Box"])
    }
}
