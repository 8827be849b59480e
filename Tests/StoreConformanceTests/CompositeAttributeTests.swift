import Foundation
import Strata
import StrataTestSupport
import Testing

/// Composite attributes: a dictionary value stored element by element, queried by
/// `composite.element` key paths, on every store type.
@Suite("Composite attributes")
struct CompositeAttributeTests {
    /// `Quake` with a composite `magnitude` (`richter`, `scale`) and an optional `place` composite
    /// that nests a `geo` composite.
    static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel {
            EntityDescription("Quake") {
                Attribute("code", .string, optional: false)
                Composite("magnitude", optional: false) {
                    Attribute("richter", .double, optional: false)
                    Attribute("scale", .string)
                }
                Composite("place") {
                    Attribute("name", .string)
                    Composite("geo") {
                        Attribute("latitude", .double)
                        Attribute("longitude", .double)
                    }
                }
            }
        }
    }

    private func seed(_ context: ManagedObjectContext) throws {
        try context.insert("Quake", ["code": "a", "magnitude": ["richter": 4.6, "scale": "ML"],
                                     "place": ["name": "Reykjanes", "geo": ["latitude": 63.9, "longitude": -22.4]]])
        try context.insert("Quake", ["code": "b", "magnitude": ["richter": 6.1]])
        try context.insert("Quake", ["code": "c", "magnitude": ["richter": 2.0, "scale": "Mw"]])
        try context.save()
    }

    private func quake(_ code: String, in context: ManagedObjectContext) throws -> ManagedObject {
        try #require(try context.fetch(FetchRequest(
            entityName: "Quake", predicate: try ObjectPredicate(format: "code == %@", code))).first)
    }

    private func codes(_ context: ManagedObjectContext, _ format: String, sortedBy key: String = "code",
                       ascending: Bool = true) throws -> [String] {
        let request = FetchRequest<ManagedObject>(
            entityName: "Quake", predicate: try ObjectPredicate(format: format),
            sortDescriptors: [ObjectSortDescriptor(key: key, ascending: ascending)])
        return try context.fetch(request).map { try $0.string("code") }
    }

    @Test("A composite's dictionary is saved and read back, nested composites included", arguments: StoreUnderTest.all)
    func roundTrip(store: StoreUnderTest) throws {
        let context = try store.makeContext(model: Self.model())
        try seed(context)
        let fresh = context.freshContext()
        let a = try quake("a", in: fresh)
        let magnitude = try #require(try a.value(forKey: "magnitude") as? [String: Any])
        #expect(magnitude["richter"] as? Double == 4.6)
        #expect(magnitude["scale"] as? String == "ML")
        let place = try #require(try a.value(forKey: "place") as? [String: Any])
        #expect(place["name"] as? String == "Reykjanes")
        #expect((place["geo"] as? [String: Any])?["longitude"] as? Double == -22.4)
        #expect(try a.value(forKeyPath: "magnitude.richter") as? Double == 4.6)
        #expect(try a.value(forKeyPath: "place.geo.latitude") as? Double == 63.9)
        let b = try quake("b", in: fresh)
        #expect(try b.value(forKey: "place") == nil)
        #expect((try b.value(forKey: "magnitude") as? [String: Any])?.keys.sorted() == ["richter"])
    }

    @Test("Predicates and sort descriptors use composite.element key paths", arguments: StoreUnderTest.all)
    func predicatesAndSorts(store: StoreUnderTest) throws {
        let context = try store.makeContext(model: Self.model())
        try seed(context)
        let fresh = context.freshContext()
        #expect(try codes(fresh, "magnitude.richter > 4.5") == ["a", "b"])
        #expect(try codes(fresh, "magnitude.scale == nil") == ["b"])
        #expect(try codes(fresh, "place.geo.latitude > 60") == ["a"])
        #expect(try codes(fresh, "magnitude.richter > 0", sortedBy: "magnitude.richter", ascending: false) == ["b", "a", "c"])
        #expect(try codes(fresh, "TRUEPREDICATE", sortedBy: "magnitude.scale") == ["b", "a", "c"])
        // Unsaved changes answer the same way.
        try quake("c", in: fresh).setValue(["richter": 9.0], forKey: "magnitude")
        #expect(try codes(fresh, "magnitude.richter > 4.5") == ["a", "b", "c"])
    }

    @Test("Changing a composite is tracked element by element and undone by rollback", arguments: StoreUnderTest.all)
    func changeTracking(store: StoreUnderTest) throws {
        let context = try store.makeContext(model: Self.model())
        try seed(context)
        let a = try quake("a", in: context)
        try a.setValue(["richter": 5.0, "scale": "ML"], forKey: "magnitude")
        #expect(a.hasChanges)
        #expect(Set(a.changedValues().keys) == ["magnitude.richter"])
        try a.setValue(4.9, forKey: "magnitude.richter")
        context.rollback()
        #expect(try a.value(forKeyPath: "magnitude.richter") as? Double == 4.6)
        try a.setValue(nil, forKey: "place")
        try context.save()
        let fresh = context.freshContext()
        #expect(try quake("a", in: fresh).value(forKey: "place") == nil)
    }

    @Test("Bad composite values are typed errors naming the attribute and element", arguments: StoreUnderTest.all)
    func badValues(store: StoreUnderTest) throws {
        let context = try store.makeContext(model: Self.model())
        try seed(context)
        let a = try quake("a", in: context)
        #expect(throws: ObjectError.unknownCompositeElement(entity: "Quake", attribute: "magnitude", element: "depth")) {
            try a.setValue(["richter": 1.0, "depth": 3], forKey: "magnitude")
        }
        #expect(throws: ObjectError.unknownCompositeElement(entity: "Quake", attribute: "place.geo", element: "height")) {
            try a.setValue(["geo": ["height": 1.0]], forKey: "place")
        }
        #expect(throws: ObjectError.wrongCompositeValue(entity: "Quake", attribute: "magnitude", found: "String")) {
            try a.setValue("big", forKey: "magnitude")
        }
        let wrongType = try #require(throws: ObjectError.self) {
            try a.setValue(["richter": "high"], forKey: "magnitude")
        }
        guard case let .wrongValueType(entity, key, expected, _) = wrongType else {
            Issue.record("unexpected error \(wrongType)")
            return
        }
        #expect(entity == "Quake" && key == "magnitude.richter" && expected == .double)
        // Nothing was changed by the refused values.
        #expect(!a.hasChanges)
        // A required element of a required composite is checked on save.
        try context.insert("Quake", ["code": "d", "magnitude": ["scale": "ML"]])
        #expect(throws: (any Error).self) { try context.save() }
    }

    @Test("A file store reopened holds the composite values, by a coordinator with the model", arguments: StoreUnderTest.fileBacked)
    func reopened(store: StoreUnderTest) throws {
        let (coordinator, _, url, context) = try store.makeFileStore(model: Self.model())
        try seed(context)
        let reopened = PersistentStoreCoordinator(managedObjectModel: coordinator.managedObjectModel)
        _ = try reopened.addPersistentStore(type: store.type, at: url)
        let reader = ManagedObjectContext(coordinator: reopened)
        let a = try quake("a", in: reader)
        #expect(try a.value(forKeyPath: "place.geo.latitude") as? Double == 63.9)
        #expect(try codes(reader, "magnitude.richter < 5") == ["a", "c"])
    }

    @Test("Adding a composite attribute migrates by inference; elements take their defaults", arguments: StoreUnderTest.fileBacked)
    func addedByMigration(store: StoreUnderTest) throws {
        let v1 = try ManagedObjectModel { EntityDescription("Quake") { Attribute("code", .string, optional: false) } }
        let v2 = try ManagedObjectModel {
            EntityDescription("Quake") {
                Attribute("code", .string, optional: false)
                Composite("magnitude") {
                    Attribute("richter", .double, defaultValue: .double(1.5))
                    Attribute("scale", .string)
                }
            }
        }
        let (_, _, url, context) = try store.makeFileStore(model: v1)
        try context.insert("Quake", ["code": "old"])
        try context.save()
        let coordinator = PersistentStoreCoordinator(managedObjectModel: v2)
        try coordinator.addPersistentStore(type: store.type, at: url, options: MigrationTests.migrating)
        let migrated = ManagedObjectContext(coordinator: coordinator)
        let old = try quake("old", in: migrated)
        #expect(try old.value(forKey: "magnitude") as? [String: Double] == ["richter": 1.5])
        #expect(try codes(migrated, "magnitude.richter == 1.5") == ["old"])
    }

    @Test("A uniqueness constraint and an index name an element by its path", arguments: StoreUnderTest.all)
    func constraintAndIndex(store: StoreUnderTest) throws {
        let model = try ManagedObjectModel {
            EntityDescription("Station", uniquenessConstraints: [["position.grid"]],
                              indexes: [FetchIndexDescription(name: "byGrid", elements: [.init(property: "position.grid")])]) {
                Attribute("name", .string)
                Composite("position") {
                    Attribute("grid", .string)
                    Attribute("height", .double)
                }
            }
        }
        let context = try store.makeContext(model: model)
        try context.insert("Station", ["name": "one", "position": ["grid": "A1", "height": 10.0]])
        try context.save()
        try context.insert("Station", ["name": "two", "position": ["grid": "A1"]])
        #expect(throws: (any Error).self) { try context.save() }
        context.rollback()
        try context.insert("Station", ["name": "three", "position": ["grid": "B2"]])
        try context.save()
        #expect(try context.count("Station") == 2)
    }
}
