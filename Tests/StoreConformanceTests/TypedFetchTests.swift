import Foundation
import Strata
import StrataTestSupport
import Testing

/// The typed classes of the mood model: typed accessors over the object's storage, and the
/// model key of each property for key-path sorts and `#Predicate`s.
final class TypedMood: ManagedObject, ModelKeyPaths {
    override class var entityName: String { "Mood" }

    var name: String? {
        get { self[typed: "name"] }
        set { setTyped(newValue, forKey: "name") }
    }
    var score: Int64 {
        get { self[typed: "score"] ?? 0 }
        set { setTyped(newValue, forKey: "score") }
    }
    var date: Date? {
        get { self[typed: "date"] }
        set { setTyped(newValue, forKey: "date") }
    }
    var isFavorite: Bool {
        get { self[typed: "favorite"] ?? false }
        set { setTyped(newValue, forKey: "favorite") }
    }
    var note: String? {
        get { self[typed: "note"] }
        set { setTyped(newValue, forKey: "note") }
    }
    var country: TypedCountry? {
        get { self[typed: "country"] }
        set { setTyped(newValue, forKey: "country") }
    }

    static var modelKeyPaths: [AnyKeyPath: String] {
        [\TypedMood.name: "name", \TypedMood.score: "score", \TypedMood.date: "date",
         \TypedMood.isFavorite: "favorite", \TypedMood.note: "note", \TypedMood.country: "country"]
    }
}

/// A country, with a to-many of moods.
final class TypedCountry: ManagedObject, ModelKeyPaths {
    override class var entityName: String { "Country" }

    var name: String? {
        get { self[typed: "name"] }
        set { setTyped(newValue, forKey: "name") }
    }
    var moods: Set<TypedMood> { self[typed: "moods"] ?? [] }

    static var modelKeyPaths: [AnyKeyPath: String] {
        [\TypedCountry.name: "name", \TypedCountry.moods: "moods"]
    }
}

/// A class with no registration, to see a typed fetch refuse objects of another class.
final class UnregisteredMood: ManagedObject {
    override class var entityName: String { "Mood" }
}

enum TypedMoodModel {
    static let model: ManagedObjectModel = {
        do {
            return try ManagedObjectModel {
                EntityDescription("Mood") {
                    Attribute("name", .string)
                    Attribute("score", .integer64, optional: false, defaultValue: .integer(0))
                    Attribute("date", .date)
                    Attribute("favorite", .boolean, optional: false, defaultValue: .boolean(false))
                    Attribute("note", .string)
                    Relationship("country", to: "Country", inverse: "moods")
                }
                EntityDescription("SadMood", parent: "Mood")
                EntityDescription("Country") {
                    Attribute("name", .string)
                    Relationship("moods", toMany: "Mood", inverse: "country")
                }
            }
        } catch {
            fatalError("the typed mood model does not build: \(error)")
        }
    }()

    /// A context on a fresh store with the typed classes registered and six moods saved.
    static func context(_ store: StoreUnderTest) throws -> ManagedObjectContext {
        let (coordinator, _) = try store.makeCoordinator(model: model)
        coordinator.register(TypedMood.self)
        coordinator.register(TypedCountry.self)
        let context = ManagedObjectContext(coordinator: coordinator)
        let france = try TypedCountry(context: context)
        france.name = "France"
        let peru = try TypedCountry(context: context)
        peru.name = "Peru"
        let chile = try TypedCountry(context: context)
        chile.name = "Chile"
        let rows: [(String, Int64, Double, Bool, String?, TypedCountry?)] = [
            ("calm", 3, 100, true, "by the sea", france),
            ("glad", 7, 400, false, nil, france),
            ("tired", 1, 200, false, "long day", peru),
            ("bright", 9, 300, true, nil, peru),
            ("blue", 5, 500, false, "rain", nil),
            ("Calmer", 4, 600, true, "Sea breeze", france),
        ]
        for (name, score, seconds, favorite, note, country) in rows {
            let mood = try TypedMood(context: context)
            mood.name = name
            mood.score = score
            mood.date = Date(timeIntervalSince1970: seconds)
            mood.isFavorite = favorite
            mood.note = note
            mood.country = country
        }
        let sad = try context.insertNewObject(forEntityName: "SadMood")
        try sad.setValuesForKeys(["name": "gloomy", "score": Int64(2), "date": Date(timeIntervalSince1970: 50)])
        try context.save()
        return ManagedObjectContext(coordinator: coordinator)
    }
}

@Suite("Typed fetches")
struct TypedFetchTests {
    @Test("a typed request returns instances of its class, sorted by key paths", arguments: StoreUnderTest.all)
    func typedFetch(_ store: StoreUnderTest) throws {
        let context = try TypedMoodModel.context(store)
        let request = FetchRequest<TypedMood>(sortDescriptors: [try ObjectSortDescriptor(\TypedMood.date, order: .reverse)])
        let moods: [TypedMood] = try context.fetch(request)
        #expect(moods.map(\.name) == ["Calmer", "blue", "glad", "bright", "tired", "calm", "gloomy"])
        #expect(moods.first?.country?.name == "France")

        var favorites = FetchRequest<TypedMood>(predicate: .equal("favorite", true))
        favorites.sortDescriptors = [try ObjectSortDescriptor(\TypedMood.score)]
        #expect(try context.fetch(favorites).map(\.score) == [3, 4, 9])
    }

    @Test("object ID, count and dictionary forms take typed requests", arguments: StoreUnderTest.all)
    func otherResultTypes(_ store: StoreUnderTest) throws {
        let context = try TypedMoodModel.context(store)
        var request = FetchRequest<TypedMood>(sortDescriptors: [try ObjectSortDescriptor(\TypedMood.score)])
        request.fetchLimit = 3
        #expect(try context.count(for: request) == 3)
        #expect(try context.fetchObjectIDs(request).count == 3)
        request.propertiesToFetch = ["name"]
        #expect(try context.fetchDictionaries(request).map { $0["name"] as? String } == ["tired", "gloomy", "calm"])
        #expect(try context.execute(request).resultCount == 3)
        #expect(try context.fetchBatched(request).count == 3)
        let untyped = try context.fetch(FetchRequest(entityName: "Mood"))
        #expect(untyped.count == 7)
        #expect(untyped.allSatisfy { $0 is TypedMood })
    }

    @Test("a result of another class throws rather than being left out", arguments: StoreUnderTest.all)
    func mismatch(_ store: StoreUnderTest) throws {
        let context = try TypedMoodModel.context(store)
        #expect(throws: FetchRequestError.resultClassMismatch(entity: "Mood", expected: "UnregisteredMood", found: "TypedMood")) {
            try context.fetch(FetchRequest<UnregisteredMood>(predicate: .equal("name", "calm")))
        }
        #expect(throws: FetchRequestError.self) {
            try context.fetch(FetchRequest(entityName: "Country"), as: TypedMood.self)
        }
        // A sub-entity without a class of its own is made with its parent's class.
        let sad = try context.fetch(FetchRequest<TypedMood>(entityName: "SadMood"))
        #expect(sad.map(\.name) == ["gloomy"])
    }

    @Test("a key path the class does not name is refused")
    func unnamedKeyPath() throws {
        let error = #expect(throws: FetchRequestError.self) { try ObjectSortDescriptor(\TypedCountry.objectID) }
        guard case .unnamedKeyPath(let type, _) = error else {
            Issue.record("expected unnamedKeyPath, got \(String(describing: error))")
            return
        }
        #expect(type == "TypedCountry")
    }
}
