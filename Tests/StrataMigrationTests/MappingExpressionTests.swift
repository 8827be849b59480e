import Foundation
import StrataMigration
import Testing

@Suite("Mapping expressions and entity mapping types")
struct MappingExpressionTests {
    @Test("Key paths as Xcode's relationship mapping inspector takes them")
    func keyPaths() {
        #expect(MappingExpression.parseKeyPath("$source") == .variable("source"))
        #expect(MappingExpression.parseKeyPath("$source.country.continent") == .keyPath(.variable("source"), "country.continent"))
        #expect(MappingExpression.parseKeyPath(" $source.countries.@distinctUnionOfSets.moods ")
                == .keyPath(.variable("source"), "countries.@distinctUnionOfSets.moods"))
        #expect(MappingExpression.parseKeyPath("country") == .keyPath(.evaluatedObject, "country"))
        #expect(MappingExpression.parseKeyPath("_private9.x") == .keyPath(.evaluatedObject, "_private9.x"))
        for bad in ["", "$", "$source.", "$source..a", "a b", "$source.a-b", "\"x\"", "$@x", "9lives", "a.@", "FUNCTION($manager)"] {
            #expect(MappingExpression.parseKeyPath(bad) == nil, "\(bad)")
        }
    }

    @Test("Formats: constants, variables, key paths, functions")
    func formats() {
        #expect(MappingExpression.constant(.string("say \"hi\" \\ bye")).format == #""say \"hi\" \\ bye""#)
        #expect(MappingExpression.constant(.integer(-42)).format == "-42")
        #expect(MappingExpression.constant(.double(1.5)).format == "1.5")
        #expect(MappingExpression.constant(.bool(false)).format == "NO")
        #expect(MappingExpression.constant(.null).format == "nil")
        #expect(MappingExpression.constant(.date(Date(timeIntervalSinceReferenceDate: 10))).format == "CAST(10.0, \"NSDate\")")
        #expect(MappingExpression.evaluatedObject.format == "SELF")
        #expect(MappingExpression.keyPath(.evaluatedObject, "name").format == "name")
        #expect(MappingExpression.variable("entityPolicy").format == "$entityPolicy")
        let policy = MappingExpression.function(receiver: .variable("entityPolicy"), selector: "fullName:",
                                                arguments: [.keyPath(.variable("source"), "name")])
        #expect(policy.format == "FUNCTION($entityPolicy, \"fullName:\", $source.name)")
        #expect(policy.description == policy.format)
        #expect(policy.sourceKeyPath == nil && policy.destinationInstances == nil)
        #expect(MappingExpression.builtInFunction(name: "now", arguments: []).format == "now()")
        #expect(MappingExpression.unsupported(className: "NSSubqueryExpression").format == "<NSSubqueryExpression>")
    }

    @Test("The usual relationship expression, taken apart and put together")
    func destinationInstances() {
        let reference = MappingExpression.DestinationInstances(entityMappingName: "MoodToMood",
                                                               sourceInstances: .keyPath(.variable("source"), "moods"))
        #expect(reference.expression.format
                == "FUNCTION($manager, \"destinationInstancesForEntityMappingNamed:sourceInstances:\", \"MoodToMood\", $source.moods)")
        #expect(reference.expression.destinationInstances == reference)
        #expect(MappingExpression.keyPath(.variable("source"), "moods").sourceKeyPath == "moods")
        #expect(MappingExpression.variable("source").sourceKeyPath == "")
        #expect(MappingExpression.keyPath(.variable("destination"), "moods").sourceKeyPath == nil)
    }

    @Test("Entity mapping types: Core Data's raw values and Xcode's names")
    func types() {
        #expect(EntityMappingType.allCases.map(\.rawValue) == [0, 1, 2, 3, 4, 5])
        #expect(EntityMappingType(xcodeName: "Undefined") == .undefined)
        #expect(EntityMappingType(xcodeName: "copy") == .copy)
        #expect(EntityMappingType(xcodeName: "NSTransformEntityMappingType") == .transform)
        #expect(EntityMappingType(xcodeName: "Sideways") == nil)
        for type in EntityMappingType.allCases { #expect(EntityMappingType(xcodeName: type.xcodeName) == type) }
        #expect(EntityMapping.defaultName(source: "Mood", destination: "Mood") == "MoodToMood")
        #expect(EntityMapping.defaultName(source: nil, destination: "Continent") == "Continent")
        #expect(EntityMapping.defaultName(source: "Continent", destination: nil) == "Continent")
    }
}
