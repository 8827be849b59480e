import Foundation
import Strata
import StrataTestSupport
import Testing

/// Hand-made compiled models: one that reads, and ones with cycles, wrong classes and missing
/// keys, each refused with a ``CompiledModelError`` that names the object.
@Suite struct HandMadeCompiledModelTests {
    /// The pieces of a small model: `Person` (name, friends → Person, its own inverse) and
    /// `Student`, a Person with a school; each test changes one thing before writing it.
    struct People {
        var archive = HandMadeArchive()
        var person: HandMadeArchive.Value = HandMadeArchive.null
        var student: HandMadeArchive.Value = HandMadeArchive.null
        var personFields: [String: HandMadeArchive.Value] = [:]
        var studentFields: [String: HandMadeArchive.Value] = [:]
        var nameFields: [String: HandMadeArchive.Value] = [:]
        var friendsFields: [String: HandMadeArchive.Value] = [:]
        var schoolFields: [String: HandMadeArchive.Value] = [:]
        var modelFields: [String: HandMadeArchive.Value] = [:]
        var modelClass = "NSManagedObjectModel"
        var personClass = "NSEntityDescription"
        var nameClass = "NSAttributeDescription"

        init() {
            person = archive.placeholder()
            student = archive.placeholder()
            nameFields = ["NSPropertyName": archive.string("name"), "NSAttributeType": .integer(700),
                          "NSIsOptional": .bool(true), "NSDefaultValue": archive.string("Ann")]
            friendsFields = ["NSPropertyName": archive.string("friends"), "_NSDestinationEntityName": archive.string("Person"),
                             "_NSInverseRelationshipName": archive.string("friends"), "NSMaxCount": .integer(0),
                             "NSMinCount": .integer(0), "NSDeleteRule": .integer(1), "NSIsOptional": .bool(true)]
            schoolFields = ["NSPropertyName": archive.string("school"), "NSAttributeType": .integer(300)]
            personFields = ["NSEntityName": archive.string("Person")]
            studentFields = ["NSEntityName": archive.string("Student"), "NSSuperentity": person]
        }

        /// The archive of the model as it stands.
        mutating func data() -> Data {
            let name = archive.object(nameClass, nameFields)
            let friends = archive.object("NSRelationshipDescription", friendsFields)
            let school = archive.object("NSAttributeDescription", schoolFields)
            var personFields = personFields
            if personFields["NSProperties"] == nil { personFields["NSProperties"] = archive.dictionary(["name": name, "friends": friends]) }
            personFields["NSSubentities"] = archive.dictionary(["Student": student])
            archive.fill(person, className: personClass, personFields)
            var studentFields = studentFields
            studentFields["NSProperties"] = archive.dictionary(["name": name, "friends": friends, "school": school])
            archive.fill(student, className: "NSEntityDescription", studentFields)
            let entities = archive.dictionary(["Person": person, "Student": student])
            var modelFields = modelFields
            modelFields["NSEntities"] = entities
            let root = archive.object(modelClass, modelFields)
            return archive.data(root: root)
        }

        /// The error reading the archive throws, `nil` when it reads.
        mutating func error() -> CompiledModelError? {
            do {
                _ = try CompiledModel.model(fromArchive: data())
                return nil
            } catch {
                return error
            }
        }
    }

    @Test("A hand-made model reads: inheritance, a relationship that is its own inverse, a default value")
    func readsHandMadeModel() throws {
        var people = People()
        let model = try CompiledModel.model(fromArchive: people.data())
        let student = try #require(model.entity(named: "Student"))
        #expect(student.superentityName == "Person")
        #expect(student.declaredProperties.map(\.name) == ["school"])
        #expect(student.attribute(named: "school")?.type == .integer64 && student.attribute(named: "school")?.isOptional == false)
        #expect(model.entity(named: "Person")?.attribute(named: "name")?.defaultValue == .string("Ann"))
        #expect(model.entity(named: "Person")?.relationship(named: "friends")?.inverseName == "friends")
        #expect(model.entity(named: "Person")?.subentityNames == ["Student"])
    }

    @Test("Entities that are each other's parents are an invalid model")
    func inheritanceCycle() {
        var people = People()
        people.personFields["NSSuperentity"] = people.student
        let error = people.error()
        guard case .invalidModel(let reason)? = error else { Issue.record("\(String(describing: error))"); return }
        #expect(reason.contains("Person") || reason.contains("Student"), "\(reason)")
    }

    @Test("An entity whose properties are itself is refused, not followed")
    func propertyCycle() {
        var people = People()
        people.personFields["NSProperties"] = people.archive.dictionary(["name": people.person])
        #expect(people.error() == .invalidObject(object: "property Person.name",
                                                 reason: "a NSEntityDescription where an NSPropertyDescription is expected"))
    }

    @Test("A root, entity or property of the wrong class names the object")
    func wrongClasses() {
        var people = People()
        people.modelClass = "NSArray"
        #expect(people.error() == .invalidObject(object: "model", reason: "a NSArray where an NSManagedObjectModel is expected"))
        people = People()
        people.personClass = "NSRelationshipDescription"
        #expect(people.error() == .invalidObject(object: "entity Person", reason: "a NSRelationshipDescription where an NSEntityDescription is expected"))
        people = People()
        people.nameClass = "NSSortDescriptor"
        #expect(people.error() == .invalidObject(object: "property Person.name", reason: "a NSSortDescriptor where an NSPropertyDescription is expected"))
    }

    @Test("Missing or wrong names, types, destinations and rules name the object and the key")
    func missingKeys() {
        var people = People()
        people.personFields["NSEntityName"] = nil
        #expect(people.error() == .invalidObject(object: "entity Person", reason: "it has no NSEntityName"))
        people = People()
        people.schoolFields["NSAttributeType"] = nil
        #expect(people.error() == .invalidObject(object: "attribute Student.school", reason: "it has no NSAttributeType"))
        people = People()
        people.schoolFields["NSAttributeType"] = .integer(2100)
        #expect(people.error() == .invalidObject(object: "attribute Student.school", reason: "attribute type 2100 is not one Strata supports"))
        people = People()
        people.schoolFields["NSAttributeType"] = people.archive.string("Integer 64")
        #expect(people.error() == .invalidObject(object: "attribute Student.school", reason: "NSAttributeType is not an integer"))
        people = People()
        people.friendsFields["_NSDestinationEntityName"] = nil
        #expect(people.error() == .invalidObject(object: "relationship Person.friends", reason: "no NSEntityDescription where one is expected"))
        people = People()
        people.friendsFields["_NSDestinationEntityName"] = people.archive.string("Nobody")
        #expect(people.error()?.description.contains("Nobody") == true)
        people = People()
        people.friendsFields["NSDeleteRule"] = .integer(9)
        #expect(people.error() == .invalidObject(object: "relationship Person.friends", reason: "delete rule 9 is none of Core Data's"))
        people = People()
        people.friendsFields["NSMinCount"] = .integer(-5)
        #expect(people.error()?.description.contains("friends") == true)
        people = People()
        people.personFields["NSEntityName"] = .reference(100_000)
        #expect(people.error()?.description.contains("reference 100000 points past") == true)
    }

    @Test("Fetch request templates with their predicates, configurations and version identifiers are read")
    func templatesAndConfigurations() throws {
        var people = People()
        var archive = people.archive
        func keyPath(_ path: String) -> HandMadeArchive.Value {
            let specifier = archive.object("NSKeyPathSpecifierExpression", ["NSKeyPath": archive.string(path)])
            let operand = archive.object("NSSelfExpression", [:])
            return archive.object("NSKeyPathExpression", ["NSOperand": operand, "NSArguments": archive.array([specifier]),
                                                          "NSSelectorName": archive.string("valueForKey:")])
        }
        func constant(_ text: String) -> HandMadeArchive.Value {
            archive.object("NSConstantValueExpression", ["NSConstantValue": archive.string(text)])
        }
        func comparison(_ path: String, _ type: Int, modifier: Int = 0, options: Int = 0, _ text: String) -> HandMadeArchive.Value {
            let operation = archive.object("NSStringPredicateOperator", ["NSOperatorType": .integer(type), "NSModifier": .integer(modifier),
                                                                         "NSFlags": .integer(options)])
            return archive.object("NSComparisonPredicate", ["NSLeftExpression": keyPath(path), "NSPredicateOperator": operation,
                                                            "NSRightExpression": constant(text)])
        }
        let beginsWith = comparison("name", 8, options: 3, "A")
        let anyFriend = comparison("friends.name", 4, modifier: 2, "Bo")
        let not = archive.object("NSCompoundPredicate", ["NSCompoundPredicateType": .integer(0), "NSSubpredicates": archive.array([anyFriend])])
        let both = archive.object("NSCompoundPredicate", ["NSCompoundPredicateType": .integer(1), "NSSubpredicates": archive.array([beginsWith, not])])
        let request = archive.object("NSFetchRequest", ["NSEntity": people.person, "NSPredicate": both])
        people.modelFields = [
            "NSFetchRequestTemplates": archive.dictionary(["namedA": request]),
            "NSConfigurations": archive.dictionary(["Everyone": archive.object("NSSet", ["NS.objects": .array([people.student, people.person])])]),
            "NSVersionIdentifiers": archive.object("NSSet", ["NS.objects": .array([archive.string("7")])]),
        ]
        people.archive = archive
        let model = try CompiledModel.model(fromArchive: people.data())
        let template = try #require(model.fetchRequestTemplates["namedA"])
        #expect(template.entityName == "Person")
        let format = try #require(template.predicateFormat)
        #expect(format == "name BEGINSWITH[cd] \"A\" AND (NOT ANY friends.name == \"Bo\")")
        // The format is the predicate language Strata parses.
        let parsed = try ObjectPredicate(format: format)
        #expect(try parsed.evaluate(with: ["name": "Ann", "friends": [["name": "Cy"]]]))
        #expect(model.configurations == ["Everyone": ["Person", "Student"]])
        #expect(model.versionIdentifiers == ["7"])
    }
}
