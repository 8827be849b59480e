import Foundation
import Strata
import StrataTestSupport
import Testing

/// Both sides of a relationship agree the moment either side changes, and after a save.
@Suite("Inverse relationships")
struct InverseRelationshipTests {
    @Test("Setting a to-one adds to the to-many inverse; moving removes from the old one",
          arguments: StoreUnderTest.all)
    func toOneSide(store: StoreUnderTest) throws {
        let context = try store.makeContext(model: SampleModels.company())
        let acme = try context.insert("Employer", ["name": "Acme"])
        let bolt = try context.insert("Employer", ["name": "Bolt"])
        let alice = try context.insert("Employee", ["name": "Alice"])
        let bob = try context.insert("Employee", ["name": "Bob"])

        try alice.setValue(acme, forKey: "whereIWork")
        try bob.setValue(acme, forKey: "whereIWork")
        #expect(try acme.objects("employees") == [alice, bob])
        #expect(try bolt.objects("employees").isEmpty)

        try context.save()
        try alice.setValue(bolt, forKey: "whereIWork")
        #expect(try acme.objects("employees") == [bob])
        #expect(try bolt.objects("employees") == [alice])
        #expect(Set(context.updatedObjects) == [alice, acme, bolt])

        try bob.setValue(nil, forKey: "whereIWork")
        #expect(try acme.objects("employees").isEmpty)

        try context.save()
        let fresh = context.freshContext()
        let storedAcme = try fresh.existingObject(with: acme.objectID)
        let storedBolt = try fresh.existingObject(with: bolt.objectID)
        #expect(try storedAcme.objects("employees").isEmpty)
        #expect(try storedBolt.sortedNames("employees") == ["Alice"])
        #expect(try fresh.existingObject(with: alice.objectID).value(forKey: "whereIWork") as? ManagedObject === storedBolt)
        #expect(try fresh.existingObject(with: bob.objectID).value(forKey: "whereIWork") == nil)
    }

    @Test("Adding to and removing from a to-many updates the to-one inverse", arguments: StoreUnderTest.all)
    func toManySide(store: StoreUnderTest) throws {
        let context = try store.makeContext(model: SampleModels.company())
        let acme = try context.insert("Employer", ["name": "Acme"])
        let bolt = try context.insert("Employer", ["name": "Bolt"])
        let alice = try context.insert("Employee", ["name": "Alice"])
        let bob = try context.insert("Employee", ["name": "Bob"])
        let carol = try context.insert("Employee", ["name": "Carol"])
        try context.save()

        try acme.add(alice, to: "employees")
        try acme.add(bob, to: "employees")
        #expect(try alice.value(forKey: "whereIWork") as? ManagedObject === acme)
        #expect(try bob.value(forKey: "whereIWork") as? ManagedObject === acme)

        // Adding to another employer's to-many takes the employee from the first.
        try bolt.add(alice, to: "employees")
        #expect(try alice.value(forKey: "whereIWork") as? ManagedObject === bolt)
        #expect(try acme.objects("employees") == [bob])

        try acme.remove(bob, from: "employees")
        #expect(try bob.value(forKey: "whereIWork") == nil)

        // Replacing the whole set unlinks those left out and links the new ones.
        try bolt.setValue(Set([bob, carol]), forKey: "employees")
        #expect(try alice.value(forKey: "whereIWork") == nil)
        #expect(try bob.value(forKey: "whereIWork") as? ManagedObject === bolt)
        #expect(try carol.value(forKey: "whereIWork") as? ManagedObject === bolt)

        try context.save()
        let fresh = context.freshContext()
        #expect(try fresh.existingObject(with: bolt.objectID).sortedNames("employees") == ["Bob", "Carol"])
        #expect(try fresh.existingObject(with: acme.objectID).objects("employees").isEmpty)
        #expect(try fresh.existingObject(with: alice.objectID).value(forKey: "whereIWork") == nil)
        #expect(try fresh.existingObject(with: carol.objectID).value(forKeyPath: "whereIWork.name") as? String == "Bolt")
    }

    @Test("Many-to-many with an ordered side keeps the order and both sides", arguments: StoreUnderTest.all)
    func orderedManyToMany(store: StoreUnderTest) throws {
        let context = try store.makeContext(model: SampleModels.library())
        let ann = try context.insert("Author", ["name": "Ann"])
        let ben = try context.insert("Author", ["name": "Ben"])
        let b1 = try context.insert("Book", ["title": "b1"])
        let b2 = try context.insert("Book", ["title": "b2"])
        let m1 = try context.insert("Magazine", ["title": "m1"])
        let m2 = try context.insert("Magazine", ["title": "m2"])
        func titles(_ author: ManagedObject) throws -> [String] { try author.list("publications").map { try $0.string("title") } }

        try ann.add(b1, to: "publications")
        try ann.add(m1, to: "publications")
        try ann.add(b2, to: "publications")
        #expect(try titles(ann) == ["b1", "m1", "b2"])
        #expect(try b1.objects("authors") == [ann])
        #expect(try m1.objects("authors") == [ann])

        try ben.add(b1, to: "publications")
        #expect(try b1.objects("authors") == [ann, ben])
        try ann.insert(m2, at: 0, in: "publications")
        #expect(try titles(ann) == ["m2", "b1", "m1", "b2"])
        #expect(try m2.objects("authors") == [ann])

        try context.save()
        let saved = context.freshContext()
        #expect(try titles(saved.existingObject(with: ann.objectID)) == ["m2", "b1", "m1", "b2"])

        // Changes from either side.
        try ann.remove(b1, from: "publications")
        #expect(try b1.objects("authors") == [ben])
        #expect(try titles(ann) == ["m2", "m1", "b2"])
        try b2.setValue(Set<ManagedObject>(), forKey: "authors")
        #expect(try titles(ann) == ["m2", "m1"])
        try m1.add(ben, to: "authors")
        #expect(try titles(ben) == ["b1", "m1"])
        #expect(try m1.objects("authors") == [ann, ben])
        // Moving an element of the ordered side.
        try ann.insert(m1, at: 0, in: "publications")
        #expect(try titles(ann) == ["m1", "m2"])
        #expect(try m1.objects("authors") == [ann, ben])

        try context.save()
        let fresh = context.freshContext()
        #expect(try titles(fresh.existingObject(with: ann.objectID)) == ["m1", "m2"])
        #expect(try titles(fresh.existingObject(with: ben.objectID)) == ["b1", "m1"])
        #expect(try fresh.existingObject(with: b1.objectID).sortedNames("authors") == ["Ben"])
        #expect(try fresh.existingObject(with: b2.objectID).objects("authors").isEmpty)
        #expect(try fresh.existingObject(with: m1.objectID).sortedNames("authors") == ["Ann", "Ben"])
    }
}
