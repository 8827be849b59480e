import Foundation
import Strata
import StrataTestSupport
import Testing

/// Entity inheritance: fetches of a parent entity, sub-entities, primary keys per inheritance root.
@Suite("Inheritance")
struct InheritanceTests {
    @Test("A fetch of abstract Publication returns Books and Magazines", arguments: StoreUnderTest.all)
    func abstractParentFetch(store: StoreUnderTest) throws {
        let context = try store.makeContext(model: SampleModels.library())
        try context.insert("Book", ["title": "Dune", "year": 1965, "isbn": "0-441-17271-7"])
        try context.insert("Magazine", ["title": "Byte", "year": 1975, "issue": 1])
        try context.insert("Book", ["title": "Solaris", "year": 1961])
        try context.insert("Magazine", ["title": "Wired", "year": 1993, "issue": 7])
        try context.insert("Author", ["name": "Frank"])
        #expect(throws: ObjectError.abstractEntity("Publication")) { try context.insertNewObject(forEntityName: "Publication") }

        // Unsaved, then saved.
        #expect(try context.strings(sortedRequest("Publication", by: "title"), key: "title")
            == ["Byte", "Dune", "Solaris", "Wired"])
        try context.save()
        let fresh = context.freshContext()
        let all = try fresh.fetch(sortedRequest("Publication", by: "title"))
        #expect(all.map(\.entity.name) == ["Magazine", "Book", "Book", "Magazine"])
        #expect(all.map(\.objectID.entityName) == ["Magazine", "Book", "Book", "Magazine"])
        #expect(try all.map { try $0.string("title") } == ["Byte", "Dune", "Solaris", "Wired"])
        #expect(try all[1].value(forKey: "isbn") as? String == "0-441-17271-7")
        #expect(try all[3].value(forKey: "issue") as? Int32 == 7)
        #expect(try fresh.count("Publication") == 4)
        #expect(try fresh.count("Book") == 2)

        // A predicate on the parent's attribute spans both sub-entities.
        let modern = sortedRequest("Publication", by: "year", predicate: try ObjectPredicate(format: "year > 1962"))
        #expect(try fresh.strings(modern, key: "title") == ["Dune", "Byte", "Wired"])
        #expect(try fresh.count(for: modern) == 3)

        // The abstract entity itself has no instances of its own.
        var own = FetchRequest(entityName: "Publication")
        own.includesSubentities = false
        #expect(try fresh.fetch(own).isEmpty)
        #expect(try fresh.count(for: own) == 0)
    }

    @Test("includesSubentities false on a concrete parent leaves sub-entities out", arguments: StoreUnderTest.all)
    func concreteParent(store: StoreUnderTest) throws {
        let context = try store.makeContext(model: SampleModels.school())
        try context.insert("Person", ["name": "Pat"])
        try context.insert("Teacher", ["name": "Tess", "subject": "Maths"])
        try context.insert("Pupil", ["name": "Pip", "grade": 3])
        try context.insert("Person", ["name": "Per"])

        var onlyPersons = sortedRequest("Person")
        onlyPersons.includesSubentities = false
        #expect(try context.strings(sortedRequest("Person")) == ["Pat", "Per", "Pip", "Tess"])
        #expect(try context.strings(onlyPersons) == ["Pat", "Per"])

        try context.save()
        let fresh = context.freshContext()
        #expect(try fresh.strings(sortedRequest("Person")) == ["Pat", "Per", "Pip", "Tess"])
        #expect(try fresh.strings(onlyPersons) == ["Pat", "Per"])
        #expect(try fresh.count(for: onlyPersons) == 2)
        #expect(try fresh.count("Person") == 4)
        #expect(try fresh.strings(sortedRequest("Teacher")) == ["Tess"])

        // A predicate naming the parent's attribute, with and without sub-entities.
        var startsWithP = sortedRequest("Person", predicate: try ObjectPredicate(format: "name BEGINSWITH 'P'"))
        #expect(try fresh.strings(startsWithP) == ["Pat", "Per", "Pip"])
        startsWithP.includesSubentities = false
        #expect(try fresh.strings(startsWithP) == ["Pat", "Per"])
    }

    @Test("Primary keys are numbered per inheritance root", arguments: StoreUnderTest.all)
    func primaryKeysPerRoot(store: StoreUnderTest) throws {
        let context = try store.makeContext(model: SampleModels.library())
        var publications: [ManagedObject] = []
        var authors: [ManagedObject] = []
        for index in 0..<3 {
            publications.append(try context.insert("Book", ["title": "Book \(index)"]))
            publications.append(try context.insert("Magazine", ["title": "Magazine \(index)"]))
            authors.append(try context.insert("Author", ["name": "Author \(index)"]))
        }
        try context.save()
        // A second save allocates more keys under the same roots.
        publications.append(try context.insert("Magazine", ["title": "Magazine 3"]))
        publications.append(try context.insert("Book", ["title": "Book 3"]))
        authors.append(try context.insert("Author", ["name": "Author 3"]))
        try context.save()

        let publicationKeys = publications.compactMap(\.objectID.primaryKey)
        let authorKeys = authors.compactMap(\.objectID.primaryKey)
        #expect(publicationKeys.count == 8)
        #expect(authorKeys.count == 4)
        // Book and Magazine share the root Publication: no key is used twice under it.
        #expect(Set(publicationKeys).count == 8)
        #expect(Set(authorKeys).count == 4)
        // Author is a root of its own: its keys are numbered independently, so they overlap.
        #expect(!Set(authorKeys).isDisjoint(with: publicationKeys))
        #expect((publicationKeys + authorKeys).allSatisfy { $0 > 0 })

        // Each URI resolves to its own object.
        let fresh = context.freshContext()
        for object in publications + authors {
            let id = try #require(context.persistentStoreCoordinator.managedObjectID(
                forURIRepresentation: object.objectID.uriRepresentation))
            #expect(id == object.objectID)
            let stored = try fresh.existingObject(with: id)
            #expect(try stored.value(forKey: object.entity.name == "Author" ? "name" : "title") as? String
                == (try object.value(forKey: object.entity.name == "Author" ? "name" : "title") as? String))
        }
    }
}
