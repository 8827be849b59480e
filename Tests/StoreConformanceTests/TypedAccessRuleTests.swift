import Foundation
import Strata
import StrataTestSupport
import Testing

/// The one error rule of typed properties: nil means only "no value"; every other failure stops
/// the program (checked in exit tests, each in a child process), while the throwing
/// `value(forKey:as:)` and `setValue(_:forKey:)` report the same failures as errors.
@Suite("Typed access error rule")
struct TypedAccessRuleTests {
    /// A context on the `@Managed` classes' model, with their classes registered (`registered`).
    static func context(registered: Bool = true) throws -> ManagedObjectContext {
        let context = try StoreUnderTest.all[0].makeContext(model: ManagedObjectModel(classes: MacroClassTests.classes))
        if registered {
            for type in MacroClassTests.classes { context.persistentStoreCoordinator.register(type) }
        }
        return context
    }

    @Test("nil is the answer for a property without a value, on every store type", arguments: StoreUnderTest.all)
    func nilMeansNoValue(store: StoreUnderTest) throws {
        let context = try store.makeContext(model: ManagedObjectModel(classes: MacroClassTests.classes))
        for type in MacroClassTests.classes { context.persistentStoreCoordinator.register(type) }
        let visit = try MacroVisit(context: context)
        #expect(visit.note == nil && visit.country == nil && visit.score == nil && visit.stops.isEmpty)
        #expect(visit[typed: "note", as: String.self] == nil)
        visit.date = Date(timeIntervalSince1970: 0)
        try context.save()
        let reader = context.freshContext()
        let saved = try #require(try reader.fetch(FetchRequest<MacroVisit>()).first)
        #expect(saved.note == nil && saved.country == nil && saved.rating == 3)
    }

    @Test("The throwing forms report what the typed properties stop at")
    func throwingForms() throws {
        let context = try Self.context(registered: false)
        let visit = try context.insertNewObject(forEntityName: "Visit")
        try visit.setValue("sea", forKey: "note")
        #expect(try visit.value(forKey: "note", as: Int16.self) == nil)
        #expect(throws: ObjectError.unknownKey(entity: "Visit", key: "nope")) { try visit.value(forKey: "nope", as: String.self) }
        let stop = try context.insertNewObject(forEntityName: "MacroStop")
        #expect(throws: ObjectError.self) { try visit.setValue(stop, forKey: "country") }
    }

    @Test("A value of another type stops the program")
    func wrongType() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let context = try TypedAccessRuleTests.context()
            let visit = try MacroVisit(context: context)
            visit.note = "sea"
            _ = visit[typed: "note", as: Int16.self]
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("Visit.note: typed property of type Int16 found a value of type String"))
    }

    @Test("An unknown key stops the program")
    func unknownKey() async {
        await #expect(processExitsWith: .failure) {
            let visit = try MacroVisit(context: TypedAccessRuleTests.context())
            _ = visit[typed: "nope", as: String.self]
        }
    }

    @Test("nil read through a non-optional property stops the program")
    func nilThroughNonOptional() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let context = try TypedAccessRuleTests.context()
            let visit = try MacroVisit(context: context)
            _ = visit.date
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("Visit.date: typed property of type Date found no value (nil read through a non-optional property)"))
    }

    @Test("A destination of another class stops the program (to-one and to-many)")
    func wrongClass() async {
        await #expect(processExitsWith: .failure) {
            // MacroCountry is not registered: the destination is a plain ManagedObject.
            let context = try TypedAccessRuleTests.context(registered: false)
            context.persistentStoreCoordinator.register(MacroVisit.self)
            let visit = try MacroVisit(context: context)
            try visit.setValue(try context.insertNewObject(forEntityName: "MacroCountry"), forKey: "country")
            _ = visit.country
        }
        await #expect(processExitsWith: .failure) {
            let context = try TypedAccessRuleTests.context(registered: false)
            context.persistentStoreCoordinator.register(MacroCountry.self)
            let country = try MacroCountry(context: context)
            let visit = try context.insertNewObject(forEntityName: "Visit")
            try visit.setValue(country, forKey: "country")
            _ = country.visits
        }
    }

    @Test("Setting a destination of the wrong entity stops the program")
    func wrongEntitySet() async {
        await #expect(processExitsWith: .failure) {
            let context = try TypedAccessRuleTests.context()
            let visit = try MacroVisit(context: context)
            visit.setTyped(try MacroStop(context: context), forKey: "country")
        }
    }

    @Test("An object whose context went, or that was deleted, stops the program")
    func unusableObject() async {
        await #expect(processExitsWith: .failure) {
            let visit = try { () throws -> MacroVisit in
                let context = try TypedAccessRuleTests.context()
                let visit = try MacroVisit(context: context)
                visit.note = "sea"
                return visit
            }()
            visit.note = "lake"
        }
        await #expect(processExitsWith: .failure) {
            let context = try TypedAccessRuleTests.context()
            let visit = try MacroVisit(context: context)
            visit.date = Date()
            try context.save()
            try context.delete(visit)
            try context.save()
            _ = visit.note
        }
    }
}
