import Foundation
import Strata

/// The models of the scenarios in `SCENARIOS.md`, defined in code.
public enum SampleModels {
    /// Scenario 1: `Student` (`id` Integer 64, `name` String, `age` Integer 16).
    public static func student() throws -> ManagedObjectModel {
        try ManagedObjectModel {
            EntityDescription("Student") {
                Attribute("id", .integer64, optional: false)
                Attribute("name", .string)
                Attribute("age", .integer16)
            }
        }
    }

    /// Scenario 7: `Employee.whereIWork` ⇄ `Employer.employees`. An `employerHashModifier`
    /// gives another model version with the same layout (only `Employer`'s version hash differs).
    public static func company(employerHashModifier: String? = nil) throws -> ManagedObjectModel {
        try ManagedObjectModel {
            EntityDescription("Employer", versionHashModifier: employerHashModifier) {
                Attribute("name", .string)
                Relationship("employees", toMany: "Employee", inverse: "whereIWork", deleteRule: .nullify)
            }
            EntityDescription("Employee") {
                Attribute("name", .string)
                Attribute("salary", .double)
                Relationship("whereIWork", to: "Employer", inverse: "employees", deleteRule: .nullify)
            }
        }
    }

    /// Scenarios 9–10: `Continent` → `Country` → `Mood`; deleting a continent cascades to its
    /// countries; `Country.moods` has the delete rule `countryMoodsRule`.
    public static func moody(countryMoodsRule: DeleteRule = .cascade) throws -> ManagedObjectModel {
        try ManagedObjectModel {
            EntityDescription("Region", isAbstract: true) {
                Attribute("name", .string)
            }
            EntityDescription("Continent", parent: "Region") {
                Relationship("countries", toMany: "Country", inverse: "continent", deleteRule: .cascade)
            }
            EntityDescription("Country", parent: "Region") {
                Relationship("continent", to: "Continent", inverse: "countries", deleteRule: .nullify)
                Relationship("moods", toMany: "Mood", inverse: "country", deleteRule: countryMoodsRule)
            }
            EntityDescription("Mood") {
                Attribute("date", .date, optional: false, indexed: true)
                Attribute("rating", .integer32, defaultValue: .integer(3))
                Relationship("country", to: "Country", inverse: "moods", deleteRule: .nullify)
            }
        }
    }

    /// Scenario 11: every kind of validation rule on one entity.
    public static func validation() throws -> ManagedObjectModel {
        try ManagedObjectModel {
            EntityDescription("Team") {
                Attribute("name", .string, optional: false, maximum: 10)
                Attribute("code", .string, regularExpression: "[A-Z]{3}")
                Attribute("size", .integer16, minimum: 1, maximum: 11)
                Relationship("players", toMany: "Player", inverse: "team", minCount: 2)
            }
            EntityDescription("Player") {
                Attribute("name", .string)
                Relationship("team", to: "Team", inverse: "players")
            }
        }
    }

    /// Inheritance: `Publication` (abstract) → `Book`, `Magazine`; `Author` ⇄ `Publication`
    /// many-to-many, ordered on the author's side; two configurations.
    public static func library() throws -> ManagedObjectModel {
        try ManagedObjectModel(
            entities: [
                EntityDescription("Publication", isAbstract: true) {
                    Attribute("title", .string)
                    Attribute("year", .integer32)
                    Relationship("authors", toMany: "Author", inverse: "publications")
                },
                EntityDescription("Book", parent: "Publication") {
                    Attribute("isbn", .string)
                },
                EntityDescription("Magazine", parent: "Publication") {
                    Attribute("issue", .integer32)
                },
                EntityDescription("Author") {
                    Attribute("name", .string)
                    Relationship("publications", toMany: "Publication", inverse: "authors", ordered: true)
                },
                EntityDescription("Note") {
                    Attribute("text", .string)
                },
            ],
            configurations: ["Catalog": ["Publication", "Book", "Magazine", "Author"], "Notes": ["Note"]]
        )
    }

    /// `Shelf` ⇄ `Book`, a to-one and its to-many, and an indexed `Book.category`: what saves of
    /// changed objects are checked with.
    public static func shelves() throws -> ManagedObjectModel {
        try ManagedObjectModel {
            EntityDescription("Shelf") {
                Attribute("label", .string)
                Relationship("books", toMany: "Book", inverse: "shelf", deleteRule: .nullify)
            }
            EntityDescription("Book") {
                Attribute("title", .string)
                Attribute("category", .integer32, indexed: true)
                Attribute("score", .double)
                Relationship("shelf", to: "Shelf", inverse: "books", deleteRule: .nullify)
            }
        }
    }

    /// `Husband.wife` ⇄ `Wife.husband`: two to-ones that are each other's inverse, so that two
    /// loaded objects hold each other (a cycle of strong references).
    public static func couples() throws -> ManagedObjectModel {
        try ManagedObjectModel {
            EntityDescription("Husband") {
                Attribute("name", .string)
                Relationship("wife", to: "Wife", inverse: "husband")
            }
            EntityDescription("Wife") {
                Attribute("name", .string)
                Relationship("husband", to: "Husband", inverse: "wife")
            }
        }
    }

    /// Inheritance with a concrete parent: `Person` → `Teacher` (and `Person` → `Pupil`).
    public static func school() throws -> ManagedObjectModel {
        try ManagedObjectModel {
            EntityDescription("Person") {
                Attribute("name", .string)
            }
            EntityDescription("Teacher", parent: "Person") {
                Attribute("subject", .string)
            }
            EntityDescription("Pupil", parent: "Person") {
                Attribute("grade", .integer16)
            }
        }
    }

    /// The attribute name of ``spelling()`` longer than a small string holds (15 bytes), so that
    /// it lives in heap storage.
    public static let longAttributeName = "numberOfPagesInTheFirstEdition"

    /// `Book` (`title`, `year` Integer 16, ``longAttributeName`` Integer 64, to-one `author`) ⇄
    /// `Author` (`name`, to-many `books`): for finding values by any spelling of their names.
    public static func spelling() throws -> ManagedObjectModel {
        try ManagedObjectModel {
            EntityDescription("Book") {
                Attribute("title", .string)
                Attribute("year", .integer16)
                Attribute(longAttributeName, .integer64)
                Relationship("author", to: "Author", inverse: "books")
            }
            EntityDescription("Author") {
                Attribute("name", .string)
                Relationship("books", toMany: "Book", inverse: "author")
            }
        }
    }

    /// `name` built again at run time, in storage of its own: the same text, not the same string.
    public static func respelled(_ name: String) -> String {
        String(decoding: Array(name.utf8), as: UTF8.self)
    }
}
