import Foundation
import Testing
import StrataCore

/// Malformed models are refused with the `ModelError` case that names the entity and property.
@Suite("ModelError")
struct ModelErrorTests {
    /// Builds a model, expecting it to fail with exactly `expected`, and checks that the error's
    /// description names every string in `mentions`.
    func expectModelError(
        _ expected: ModelError, mentions: [String],
        sourceLocation: SourceLocation = #_sourceLocation,
        _ build: () throws -> ManagedObjectModel
    ) {
        do {
            let model = try build()
            Issue.record("expected \(expected), but a model was built: \(model)", sourceLocation: sourceLocation)
        } catch let error as ModelError {
            #expect(error == expected, sourceLocation: sourceLocation)
            for name in mentions {
                #expect(error.description.contains(name), "\(error.description) should mention \(name)",
                        sourceLocation: sourceLocation)
            }
        } catch {
            Issue.record("expected a ModelError, got \(error)", sourceLocation: sourceLocation)
        }
    }

    @Test("Two entities with one name")
    func duplicateEntity() {
        expectModelError(.duplicateEntity("Twin"), mentions: ["Twin"]) {
            try ManagedObjectModel {
                EntityDescription("Twin")
                EntityDescription("Other")
                EntityDescription("Twin")
            }
        }
    }

    @Test("Two properties with one name in one entity")
    func duplicateProperty() {
        expectModelError(.duplicateProperty(entity: "Person", property: "name"), mentions: ["Person", "name"]) {
            try ManagedObjectModel {
                EntityDescription("Person") {
                    Attribute("name", .string)
                    Attribute("age", .integer16)
                    Attribute("name", .integer32)
                }
            }
        }
    }

    @Test("An attribute and a relationship with one name")
    func duplicatePropertyOfDifferentKinds() {
        expectModelError(.duplicateProperty(entity: "Person", property: "home"), mentions: ["Person", "home"]) {
            try ManagedObjectModel {
                EntityDescription("Person") {
                    Attribute("home", .string)
                    Relationship("home", to: "Place")
                }
                EntityDescription("Place")
            }
        }
    }

    @Test("A property that clashes with an inherited one")
    func duplicateInheritedProperty() {
        expectModelError(.duplicateProperty(entity: "Teacher", property: "name"), mentions: ["Teacher", "name"]) {
            try ManagedObjectModel {
                EntityDescription("Person") {
                    Attribute("name", .string)
                }
                EntityDescription("Teacher", parent: "Person") {
                    Attribute("subject", .string)
                    Attribute("name", .string)
                }
            }
        }
        // The clash is found whichever order the entities are listed in, and two levels down.
        expectModelError(.duplicateProperty(entity: "Head", property: "name"), mentions: ["Head", "name"]) {
            try ManagedObjectModel {
                EntityDescription("Head", parent: "Teacher") {
                    Attribute("name", .string)
                }
                EntityDescription("Teacher", parent: "Person")
                EntityDescription("Person") {
                    Attribute("name", .string)
                }
            }
        }
    }

    @Test("A parent that is not in the model")
    func unknownParent() {
        expectModelError(.unknownParent(entity: "Teacher", parent: "Persn"), mentions: ["Teacher", "Persn"]) {
            try ManagedObjectModel {
                EntityDescription("Person")
                EntityDescription("Teacher", parent: "Persn")
            }
        }
    }

    @Test("A parent missing further up the chain names the entity that names it")
    func unknownGrandparent() {
        expectModelError(.unknownParent(entity: "B", parent: "Ghost"), mentions: ["B", "Ghost"]) {
            try ManagedObjectModel {
                EntityDescription("B", parent: "Ghost")
                EntityDescription("C", parent: "B")
            }
        }
    }

    @Test("Entities that inherit from each other in a circle")
    func cyclicInheritance() {
        do {
            _ = try ManagedObjectModel {
                EntityDescription("A", parent: "B")
                EntityDescription("B", parent: "A")
            }
            Issue.record("a cycle was accepted")
        } catch let error as ModelError {
            guard case .cyclicInheritance(let names) = error else {
                Issue.record("expected cyclicInheritance, got \(error)")
                return
            }
            #expect(Set(names) == ["A", "B"])
            #expect(names.first == names.last, "the cycle is listed closed: \(names)")
            #expect(error.description.contains("'A'") && error.description.contains("'B'"))
        } catch {
            Issue.record("expected a ModelError, got \(error)")
        }
    }

    @Test("A longer cycle above a sound entity")
    func longerCycle() throws {
        do {
            _ = try ManagedObjectModel {
                EntityDescription("Leaf", parent: "X")
                EntityDescription("X", parent: "Y")
                EntityDescription("Y", parent: "Z")
                EntityDescription("Z", parent: "X")
            }
            Issue.record("a cycle was accepted")
        } catch let error as ModelError {
            guard case .cyclicInheritance(let names) = error else {
                Issue.record("expected cyclicInheritance, got \(error)")
                return
            }
            #expect(Set(names) == ["X", "Y", "Z"])
            #expect(!names.contains("Leaf"))
        }
    }

    @Test("An entity that is its own parent")
    func selfParent() {
        expectModelError(.cyclicInheritance(entities: ["Ouroboros", "Ouroboros"]), mentions: ["Ouroboros"]) {
            try ManagedObjectModel {
                EntityDescription("Ouroboros", parent: "Ouroboros")
            }
        }
    }

    @Test("A relationship to an entity that is not in the model")
    func unknownDestination() {
        expectModelError(.unknownDestination(entity: "Mood", property: "country", destination: "Contry"),
                         mentions: ["Mood", "country", "Contry"]) {
            try ManagedObjectModel {
                EntityDescription("Country")
                EntityDescription("Mood") {
                    Relationship("country", to: "Contry")
                }
            }
        }
    }

    @Test("A fetched property of an entity that is not in the model")
    func unknownFetchedDestination() {
        expectModelError(.unknownDestination(entity: "Country", property: "recent", destination: "Mod"),
                         mentions: ["Country", "recent", "Mod"]) {
            try ManagedObjectModel {
                EntityDescription("Country") {
                    FetchedProperty("recent", of: "Mod", predicate: "TRUEPREDICATE")
                }
            }
        }
    }

    @Test("An inverse that the destination does not have")
    func unknownInverse() {
        expectModelError(.unknownInverse(entity: "Mood", relationship: "country", inverse: "mods"),
                         mentions: ["Mood", "country", "mods"]) {
            try ManagedObjectModel {
                EntityDescription("Country") {
                    Relationship("moods", toMany: "Mood")
                }
                EntityDescription("Mood") {
                    Relationship("country", to: "Country", inverse: "mods")
                }
            }
        }
    }

    @Test("An inverse named after an attribute of the destination")
    func inverseIsAnAttribute() {
        expectModelError(.unknownInverse(entity: "Mood", relationship: "country", inverse: "name"),
                         mentions: ["Mood", "country", "name"]) {
            try ManagedObjectModel {
                EntityDescription("Country") {
                    Attribute("name", .string)
                }
                EntityDescription("Mood") {
                    Relationship("country", to: "Country", inverse: "name")
                }
            }
        }
    }

    @Test("An inverse that leads to another entity")
    func inverseLeadsElsewhere() {
        expectModelError(.inverseMismatch(entity: "Mood", relationship: "country", inverse: "capital"),
                         mentions: ["Mood", "country", "capital"]) {
            try ManagedObjectModel {
                EntityDescription("City")
                EntityDescription("Country") {
                    Relationship("capital", to: "City")
                }
                EntityDescription("Mood") {
                    Relationship("country", to: "Country", inverse: "capital")
                }
            }
        }
    }

    @Test("An inverse whose own inverse is a third relationship")
    func inverseLeadsToAnotherRelationship() {
        expectModelError(.inverseMismatch(entity: "Mood", relationship: "country", inverse: "moods"),
                         mentions: ["Mood", "country", "moods"]) {
            try ManagedObjectModel {
                EntityDescription("Country") {
                    Relationship("moods", toMany: "Mood", inverse: "homeland")
                }
                EntityDescription("Mood") {
                    Relationship("country", to: "Country", inverse: "moods")
                    Relationship("homeland", to: "Country", inverse: "moods")
                }
            }
        }
    }

    @Test("An inverse through inheritance is accepted")
    func inverseThroughInheritance() throws {
        let model = try ManagedObjectModel {
            EntityDescription("Region") {
                Relationship("notes", toMany: "Note", inverse: "region")
            }
            EntityDescription("Country", parent: "Region")
            EntityDescription("Note") {
                Relationship("region", to: "Region", inverse: "notes")
            }
        }
        #expect(model.entity(named: "Country")?.relationship(named: "notes")?.inverseName == "region")
    }

    @Test("A default value of the wrong type", arguments: [
        (AttributeType.integer16, AttributeValue.string("3")),
        (.integer16, .integer(40_000)),
        (.integer32, .integer(Int64(Int32.max) + 1)),
        (.string, .integer(3)),
        (.boolean, .integer(1)),
        (.double, .float(1)),
        (.float, .double(1)),
        (.date, .double(0)),
        (.uuid, .string("8E2B5F3A-0000-0000-0000-000000000000")),
        (.decimal, .double(1.5)),
    ])
    func invalidDefaultValue(type: AttributeType, value: AttributeValue) {
        expectModelError(.invalidDefaultValue(entity: "Thing", attribute: "value"), mentions: ["Thing", "value"]) {
            try ManagedObjectModel {
                EntityDescription("Thing") {
                    Attribute("value", type, defaultValue: value)
                }
            }
        }
    }

    @Test("A uniqueness constraint naming an unknown property")
    func unknownConstraintProperty() {
        expectModelError(.unknownConstraintProperty(entity: "Car", property: "plate"), mentions: ["Car", "plate"]) {
            try ManagedObjectModel {
                EntityDescription("Car", uniquenessConstraints: [["maker", "plate"]]) {
                    Attribute("maker", .string)
                    Attribute("numberPlate", .string)
                }
            }
        }
    }

    @Test("A uniqueness constraint may name an inherited property")
    func inheritedConstraintProperty() throws {
        let model = try ManagedObjectModel {
            EntityDescription("Car") {
                Attribute("numberPlate", .string)
            }
            EntityDescription("SportCar", parent: "Car", uniquenessConstraints: [["numberPlate"]])
        }
        #expect(model.entity(named: "SportCar")?.uniquenessConstraints == [["numberPlate"]])
    }

    @Test("An index naming an unknown property")
    func unknownIndexProperty() {
        let index = FetchIndexDescription(name: "byURL", elements: [
            .init(property: "url"), .init(property: "isPendingDeletion", ascending: false),
        ])
        expectModelError(.unknownConstraintProperty(entity: "Bookmark", property: "isPendingDeletion"),
                         mentions: ["Bookmark", "isPendingDeletion"]) {
            try ManagedObjectModel {
                EntityDescription("Bookmark", indexes: [index]) {
                    Attribute("url", .string)
                }
            }
        }
    }

    @Test("A configuration naming an unknown entity")
    func unknownConfigurationEntity() {
        expectModelError(.unknownConfigurationEntity(configuration: "Cloud", entity: "Ghost"), mentions: ["Cloud", "Ghost"]) {
            try ManagedObjectModel(configurations: ["Cloud": ["Real", "Ghost"]]) {
                EntityDescription("Real")
            }
        }
    }

    @Test("Relationship counts that are negative or crossed", arguments: [(-1, 0), (0, -2), (5, 2), (3, 1)])
    func invalidCount(minCount: Int, maxCount: Int) {
        expectModelError(.invalidCount(entity: "Team", relationship: "players"), mentions: ["Team", "players"]) {
            try ManagedObjectModel(entities: [
                EntityDescription("Team") {
                    PropertyDescription.relationship(RelationshipDescription(
                        name: "players", destination: "Player", toMany: true, minCount: minCount, maxCount: maxCount))
                },
                EntityDescription("Player"),
            ])
        }
    }

    @Test("Counts with an unbounded maximum are fine")
    func unboundedCounts() throws {
        let model = try ManagedObjectModel(entities: [
            EntityDescription("Team") {
                PropertyDescription.relationship(RelationshipDescription(
                    name: "players", destination: "Team", toMany: true, minCount: 5, maxCount: 0))
            },
        ])
        #expect(model.entity(named: "Team")?.relationship(named: "players")?.minCount == 5)
    }

    @Test("An entity with an empty name")
    func emptyEntityName() {
        expectModelError(.emptyName(entity: ""), mentions: []) {
            try ManagedObjectModel {
                EntityDescription("Fine")
                EntityDescription("")
            }
        }
    }

    @Test("A property with an empty name names its entity")
    func emptyPropertyName() {
        expectModelError(.emptyName(entity: "Person"), mentions: ["Person"]) {
            try ManagedObjectModel {
                EntityDescription("Person") {
                    Attribute("", .string)
                }
            }
        }
        expectModelError(.emptyName(entity: "Person"), mentions: ["Person"]) {
            try ManagedObjectModel {
                EntityDescription("Person") {
                    Relationship("", to: "Person")
                }
            }
        }
    }

    @Test("A stored fetch request for an unknown entity")
    func unknownTemplateEntity() {
        expectModelError(.unknownDestination(entity: "Ghost", property: "all", destination: "Ghost"), mentions: ["Ghost"]) {
            try ManagedObjectModel(
                entities: [EntityDescription("Real")],
                fetchRequestTemplates: ["all": FetchRequestTemplate(name: "all", entityName: "Ghost")])
        }
    }

    @Test("Every description is one line that names what is wrong")
    func descriptions() {
        let errors: [ModelError] = [
            .emptyName(entity: "E"), .duplicateEntity("E"), .duplicateProperty(entity: "E", property: "p"),
            .unknownParent(entity: "E", parent: "P"), .cyclicInheritance(entities: ["E", "F", "E"]),
            .unknownDestination(entity: "E", property: "p", destination: "D"),
            .unknownInverse(entity: "E", relationship: "r", inverse: "i"),
            .inverseMismatch(entity: "E", relationship: "r", inverse: "i"),
            .invalidDefaultValue(entity: "E", attribute: "a"),
            .unknownConstraintProperty(entity: "E", property: "p"),
            .unknownConfigurationEntity(configuration: "C", entity: "E"),
            .invalidCount(entity: "E", relationship: "r"),
        ]
        for error in errors {
            #expect(!error.description.contains("\n"))
            #expect(error.description.contains("'E'"), "\(error.description)")
        }
        #expect(Set(errors.map(\.description)).count == errors.count)
    }
}
