import Foundation
import Strata
import StrataTestSupport
import Testing

/// Classes written with `@Managed` (`MacroClasses/`), used as an app uses them, on every store
/// type: the model they describe, typed properties, inverses, to-many kinds, undo, and the one
/// error rule of typed properties.
@Suite("@Managed classes")
struct MacroClassTests {
    static let classes: [any EntityDescribing.Type] = [MacroCountry.self, MacroVisit.self, MacroStop.self]

    /// The model of ``classes``, written with the builder DSL.
    static func dslModel() throws -> ManagedObjectModel {
        try ManagedObjectModel {
            EntityDescription("MacroCountry", uniquenessConstraints: [["code"]]) {
                Attribute("code", .string, optional: false)
                Attribute("name", .string)
                Attribute("population", .integer64, optional: false, indexed: true, defaultValue: .integer(0), minimum: 0)
                Relationship("visits", toMany: "Visit", inverse: "country", deleteRule: .cascade)
            }
            EntityDescription("Visit") {
                Attribute("date", .date, optional: false)
                Attribute("rating", .integer16, optional: false, defaultValue: .integer(3))
                Attribute("note", .string)
                Attribute("favorite", .boolean, optional: false, defaultValue: .boolean(false))
                Attribute("score", .double)
                Attribute("photo", .binaryData)
                Relationship("country", to: "MacroCountry", inverse: "visits")
                Relationship("stops", toMany: "MacroStop", inverse: "visit", ordered: true)
            }
            EntityDescription("MacroStop") {
                Attribute("place", .string, optional: false, defaultValue: .string(""))
                Attribute("colors", .binaryData, optional: false, defaultValue: .binary(Data()))
                Attribute("mark", .binaryData)
                Relationship("visit", to: "Visit", inverse: "stops")
            }
        }
    }

    private func register(_ coordinator: PersistentStoreCoordinator) {
        for type in Self.classes { coordinator.register(type) }
    }

    private func makeContext(_ store: StoreUnderTest) throws -> ManagedObjectContext {
        let context = try store.makeContext(model: ManagedObjectModel(classes: Self.classes))
        register(context.persistentStoreCoordinator)
        return context
    }

    /// France with two visits (the second with two stops), saved.
    @discardableResult
    private func seed(_ context: ManagedObjectContext) throws -> MacroCountry {
        let france = try MacroCountry(context: context)
        france.code = "FR"
        france.name = "France"
        let first = try MacroVisit(context: context)
        first.date = Date(timeIntervalSince1970: 100)
        first.country = france
        let second = try MacroVisit(context: context)
        second.date = Date(timeIntervalSince1970: 200)
        second.rating = 5
        second.note = "sea"
        second.country = france
        second.stops = try ["Brest", "Nantes"].map { name in
            let stop = try MacroStop(context: context)
            stop.place = name
            return stop
        }
        try context.save()
        return france
    }

    @Test("The model built from the classes equals the DSL's: same entities, same version hashes")
    func modelFromClasses() throws {
        let fromClasses = try ManagedObjectModel(classes: Self.classes)
        let fromDSL = try Self.dslModel()
        #expect(fromClasses.entityVersionHashesByName == fromDSL.entityVersionHashesByName)
        #expect(fromClasses.entities.map(\.name) == ["MacroCountry", "Visit", "MacroStop"])
        let visit = try #require(fromClasses.entity(named: "Visit"))
        #expect(visit.attributesByName["rating"]?.defaultValue == .integer(3))
        #expect(visit.attributesByName["note"]?.isOptional == true && visit.attributesByName["date"]?.isOptional == false)
        #expect(visit.relationshipsByName["stops"]?.isOrdered == true)
        let country = try #require(fromClasses.entity(named: "MacroCountry"))
        #expect(country.attributesByName["population"]?.isIndexed == true)
        #expect(country.attributesByName["population"]?.minimum == 0)
        #expect(country.relationshipsByName["visits"]?.deleteRule == .cascade)
        #expect(country.attributesByName["scratch"] == nil && country.attributesByName["createdInSwift"] == nil)
        #expect(MacroVisit.entityName == "Visit" && MacroCountry.entityName == "MacroCountry")
    }

    @Test("Classes are checked against a model from a file, mismatches named")
    func checkAgainstFile() throws {
        let url = try #require(Bundle.module.url(forResource: "Moody", withExtension: "xcdatamodeld"))
        let model = try ModelBundle(at: url).currentModel
        try model.check(classes: [FittingContinent.self])
        #expect(throws: ModelClassMismatch.wrongType(class: "WideCodeContinent", property: "numericISO3166Code",
                                                      entity: "Continent", expected: .integer16, found: .integer32)) {
            try model.check(classes: [WideCodeContinent.self])
        }
        #expect(throws: ModelClassMismatch.optionality(class: "OptionalCodeContinent", property: "numericISO3166Code",
                                                        entity: "Continent", modelOptional: false)) {
            try model.check(classes: [OptionalCodeContinent.self])
        }
        #expect(throws: ModelClassMismatch.missingProperty(class: "NamedContinent", property: "name", entity: "Continent")) {
            try model.check(classes: [NamedContinent.self])
        }
        #expect(throws: ModelClassMismatch.toManyKind(class: "OrderedContinent", property: "countries", entity: "Continent",
                                                       expected: "unordered to-many", found: "ordered to-many")) {
            try model.check(classes: [OrderedContinent.self])
        }
        #expect(throws: ModelClassMismatch.wrongKind(class: "CountingContinent", property: "countries", entity: "Continent",
                                                      expected: "a relationship", found: "an attribute")) {
            try model.check(classes: [CountingContinent.self])
        }
        #expect(throws: ModelClassMismatch.wrongKind(class: "LinkedCodeContinent", property: "numericISO3166Code", entity: "Continent",
                                                      expected: "an attribute", found: "a relationship")) {
            try model.check(classes: [LinkedCodeContinent.self])
        }
        #expect(throws: ModelClassMismatch.wrongDestination(class: "MoodyContinent", property: "countries", entity: "Continent",
                                                             expected: "Country", found: "Mood")) {
            try model.check(classes: [MoodyContinent.self])
        }
        #expect(throws: ModelClassMismatch.missingEntity(class: "Planet", entity: "Planet")) {
            try model.check(classes: [Planet.self])
        }
        let error = ModelClassMismatch.wrongType(class: "WideCodeContinent", property: "numericISO3166Code",
                                                 entity: "Continent", expected: .integer16, found: .integer32)
        #expect(error.description == "class WideCodeContinent, property 'numericISO3166Code': entity 'Continent' stores Integer 16, the class Integer 32")
    }

    @Test("Typed properties save, reopen and fetch; inverses and to-many kinds kept",
          arguments: StoreUnderTest.fileBacked)
    func saveReopenFetch(store: StoreUnderTest) throws {
        let model = try ManagedObjectModel(classes: Self.classes)
        let (coordinator, _, url, context) = try store.makeFileStore(model: model)
        register(coordinator)
        try seed(context)

        let reopened = PersistentStoreCoordinator(managedObjectModel: model)
        try reopened.addPersistentStore(type: store.type, at: url)
        register(reopened)
        let reader = ManagedObjectContext(coordinator: reopened)
        let visits = try reader.fetch(FetchRequest<MacroVisit>(sortDescriptors: [try ObjectSortDescriptor(\MacroVisit.date)]))
        #expect(visits.map(\.rating) == [3, 5])
        #expect(visits.map(\.note) == [nil, "sea"])
        #expect(visits.map(\.favorite) == [false, false])
        #expect(visits[1].stops.map(\.place) == ["Brest", "Nantes"])
        #expect(visits[1].stops.allSatisfy { $0.visit === visits[1] })
        let france = try #require(visits[0].country)
        #expect(france.code == "FR" && france.population == 0 && france.visits == Set(visits))
        let sea = try reader.fetch(FetchRequest<MacroVisit>(predicate: #Predicate { $0.rating > 4 }))
        #expect(sea.map(\.note) == ["sea"])
    }

    @Test("Setters keep inverses, on every store type", arguments: StoreUnderTest.all)
    func inverses(store: StoreUnderTest) throws {
        let context = try makeContext(store)
        let france = try seed(context)
        let spain = try MacroCountry(context: context)
        spain.code = "ES"
        let visit = try #require(france.visits.first { $0.rating == 5 })
        // The to-one's setter moves the visit from France's set to Spain's.
        visit.country = spain
        #expect(spain.visits == [visit] && france.visits.count == 1)
        // The to-many's setter sets the other side's to-one.
        france.visits.insert(visit)
        #expect(visit.country === france && spain.visits.isEmpty)
        // Reordering the ordered to-many keeps every stop's visit.
        visit.stops.reverse()
        #expect(visit.stops.map(\.place) == ["Nantes", "Brest"])
        let stop = try MacroStop(context: context)
        stop.place = "Lyon"
        #expect(stop.colors == [] && stop.mark == nil)
        stop.colors = [255, 0, 128]
        stop.mark = [7]
        #expect(try stop.value(forKey: "colors", as: Data.self) == Data([255, 0, 128]))
        stop.visit = visit
        #expect(visit.stops.map(\.place) == ["Nantes", "Brest", "Lyon"])
        try context.save()
        let reader = context.freshContext()
        let saved = try reader.fetch(FetchRequest<MacroVisit>(predicate: try ObjectPredicate(format: "rating == 5")))
        #expect(saved.first?.stops.map(\.place) == ["Nantes", "Brest", "Lyon"])
        #expect(saved.first?.country?.code == "FR")
        #expect(saved.first?.stops.last?.colors == [255, 0, 128] && saved.first?.stops.last?.mark == [7])
        // The cascade rule from @Relationship: deleting France deletes its visits.
        let savedFrance = try #require(saved.first?.country)
        try reader.delete(savedFrance)
        try reader.save()
        #expect(try reader.count(for: FetchRequest<MacroVisit>()) == 0)
    }

    @Test("A change through a macro property is undone and redone", arguments: StoreUnderTest.all)
    func undo(store: StoreUnderTest) throws {
        let context = try makeContext(store)
        let france = try seed(context)
        let manager = ObjectUndoManager()
        context.undoManager = manager
        france.name = "République française"
        france.population = 68
        context.processPendingChanges()
        try context.undo()
        #expect(france.name == "France" && france.population == 0)
        try context.redo()
        #expect(france.name == "République française" && france.population == 68)
    }

    @Test("The unique attribute from @Attribute(.unique) refuses a second object with its value",
          arguments: StoreUnderTest.all)
    func unique(store: StoreUnderTest) throws {
        let context = try makeContext(store)
        try seed(context)
        let twin = try MacroCountry(context: context)
        twin.code = "FR"
        #expect(throws: (any Error).self) { try context.save() }
    }
}
