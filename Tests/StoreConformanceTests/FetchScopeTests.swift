import Foundation
import Strata
import StrataTestSupport
import Testing

/// What a fetch sees, for every result type: the context's unsaved changes, objects spread over
/// two stores, and sub-entities.
@Suite("Fetch scope")
struct FetchScopeTests {
    @Test("Unsaved inserts, changes and deletes count for IDs, counts, dictionaries and aggregates, unless left out",
          arguments: StoreUnderTest.all)
    func pendingChanges(store: StoreUnderTest) throws {
        let (context, objects) = try Payroll.seed(store)
        let object = { (name: String) in try #require(objects[name]) }
        // Unsaved: Zoe joins Globex, Ann gets a raise, Cat moves to Initech, Ian leaves.
        let zoe = try context.insert("Employee", ["name": "Zoe", "salary": 1000.0])
        try zoe.setValue(try object("Globex"), forKey: "whereIWork")
        try object("Ann").setValue(150.0, forKey: "salary")
        try object("Cat").setValue(try object("Initech"), forKey: "whereIWork")
        try context.delete(try object("Ian"))

        var wellPaid = sortedRequest("Employee", by: "salary", predicate: try ObjectPredicate(format: "salary >= 100"))
        #expect(try context.fetchObjectIDs(wellPaid) == [object("Ann"), object("Ben"), object("Eva"), zoe].map(\.objectID))
        #expect(try context.count(for: wellPaid) == 4)
        wellPaid.propertiesToFetch = ["name", "salary"]
        #expect(try context.fetchDictionaries(wellPaid).map { $0["name"] as? String } == ["Ann", "Ben", "Eva", "Zoe"])
        #expect(try context.fetchDictionaries(wellPaid).first?["salary"] as? Double == 150)

        // Groups by employer: Acme 150 + 200 + 300; Globex Gus (nil) + Zoe; Initech only Cat now.
        #expect(try context.fetchDictionaries(Payroll.byEmployer()).map(\.storedValues) == [
            Payroll.group(nil, headcount: 1, paid: 1, payroll: 40, mean: 40, lowest: 40, highest: 40),
            Payroll.group("Acme", headcount: 3, paid: 3, payroll: 650, mean: 650.0 / 3.0, lowest: 150, highest: 300),
            Payroll.group("Globex", headcount: 2, paid: 1, payroll: 1000, mean: 1000, lowest: 1000, highest: 1000),
            Payroll.group("Initech", headcount: 1, paid: 1, payroll: 50, mean: 50, lowest: 50, highest: 50),
        ])

        // Left out, the stores' state: Ann at 100, Cat at Globex, Ian at Initech, no Zoe.
        wellPaid.includesPendingChanges = false
        #expect(try context.fetchObjectIDs(wellPaid) == [object("Ann"), object("Ben"), object("Eva")].map(\.objectID))
        #expect(try context.count(for: wellPaid) == 3)
        #expect(try context.fetchDictionaries(wellPaid).first?["salary"] as? Double == 100)
        var stored = Payroll.byEmployer()
        stored.includesPendingChanges = false
        #expect(try context.fetchDictionaries(stored).map(\.storedValues) == [
            Payroll.group(nil, headcount: 1, paid: 1, payroll: 40, mean: 40, lowest: 40, highest: 40),
            Payroll.group("Acme", headcount: 3, paid: 3, payroll: 600, mean: 200, lowest: 100, highest: 300),
            Payroll.group("Globex", headcount: 2, paid: 1, payroll: 50, mean: 50, lowest: 50, highest: 50),
            Payroll.group("Initech", headcount: 1, paid: 1, payroll: 80, mean: 80, lowest: 80, highest: 80),
        ])

        // An unsaved rename of an employer shows through key paths, unless pending changes are left out.
        try object("Acme").setValue("Acme Corp", forKey: "name")
        var names = sortedRequest("Employee", by: "whereIWork.name", predicate: try ObjectPredicate(format: "whereIWork != nil"))
        names.propertiesToFetch = ["whereIWork.name"]
        names.returnsDistinctResults = true
        #expect(try context.fetchDictionaries(names).map { $0["whereIWork.name"] as? String } == ["Acme Corp", "Globex", "Initech"])
        names.includesPendingChanges = false
        #expect(try context.fetchDictionaries(names).map { $0["whereIWork.name"] as? String } == ["Acme", "Globex", "Initech"])

        // A child context sees its parent's unsaved state, and its own.
        let child = ManagedObjectContext(parent: context)
        try child.insert("Employee", ["name": "Kim", "salary": 500.0])
        var childRequest = sortedRequest("Employee", by: "salary", predicate: try ObjectPredicate(format: "salary >= 300"))
        #expect(try child.strings(childRequest) == ["Eva", "Kim", "Zoe"])
        #expect(try child.count(for: childRequest) == 3)
        childRequest.propertiesToFetch = [Payroll.expression("total", .sum("salary"), .double)]
        #expect(try child.fetchDictionaries(childRequest).map(\.storedValues) == [["total": .double(1800)]])
        #expect(try context.count(for: childRequest) == 2)
    }

    /// A coordinator with two stores of `store`'s type that both hold publications: Books A, C,
    /// E, G in the first; Magazines B, D, F and Book H in the second.
    private func twoStores(_ store: StoreUnderTest) throws -> (ManagedObjectContext, first: String, second: String) {
        let folder = try TemporaryFolder.make()
        let model = try SampleModels.library()
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        let first = try coordinator.addPersistentStore(type: store.type, at: store.hasFile ? try store.storeURL(in: folder) : nil)
        let second = try coordinator.addPersistentStore(type: store.type, at: store.hasFile ? try store.storeURL(in: folder) : nil)
        // A coordinator with only the second store puts objects there.
        let secondOnly = PersistentStoreCoordinator(managedObjectModel: model)
        try secondOnly.addPersistentStore(second)
        let context = ManagedObjectContext(coordinator: coordinator)
        for (title, year) in [("A", 2000), ("C", 2001), ("E", 2000), ("G", 2002)] {
            try context.insert("Book", ["title": title, "year": year])
        }
        try context.save()
        let other = ManagedObjectContext(coordinator: secondOnly)
        for (title, year) in [("B", 2001), ("D", 2000), ("F", 2002)] {
            try other.insert("Magazine", ["title": title, "year": year])
        }
        try other.insert("Book", ["title": "H", "year": 2000])
        try other.save()
        return (ManagedObjectContext(coordinator: coordinator), first.identifier, second.identifier)
    }

    @Test("Two stores: IDs, counts and dictionaries merge with sort, offset and limit; aggregates span both",
          arguments: StoreUnderTest.all)
    func twoStoresEveryResultType(store: StoreUnderTest) throws {
        let (context, first, second) = try twoStores(store)
        let page = sortedRequest("Publication", by: "title", offset: 3, limit: 3)
        let ids = try context.fetchObjectIDs(page)
        #expect(ids.map(\.entityName) == ["Magazine", "Book", "Magazine"])
        #expect(ids.map(\.storeIdentifier) == [second, first, second])
        #expect(try context.count(for: page) == 3)
        #expect(try context.count(for: FetchRequest(entityName: "Publication", predicate: try ObjectPredicate(format: "year == 2000"))) == 4)

        var dictionaries = sortedRequest("Publication", by: "year", offset: 2, limit: 4)
        dictionaries.sortDescriptors.append(ObjectSortDescriptor(key: "title", ascending: false))
        dictionaries.propertiesToFetch = ["title", "year"]
        // By year, then title descending: 2000 H E D A, 2001 C B, 2002 G F.
        #expect(try context.fetchDictionaries(dictionaries).map { "\($0["title"] ?? "") \($0["year"] ?? "")" }
            == ["D 2000", "A 2000", "C 2001", "B 2001"])

        var byYear = sortedRequest("Publication", by: "year")
        byYear.propertiesToFetch = ["year", Payroll.expression("n", .count(), .integer64),
                                    Payroll.expression("first", .min("title"), .string),
                                    Payroll.expression("last", .max("title"), .string)]
        byYear.propertiesToGroupBy = ["year"]
        let expected: [[String: AttributeValue]] = [
            ["year": .integer(2000), "n": .integer(4), "first": .string("A"), "last": .string("H")],
            ["year": .integer(2001), "n": .integer(2), "first": .string("B"), "last": .string("C")],
            ["year": .integer(2002), "n": .integer(2), "first": .string("F"), "last": .string("G")],
        ]
        #expect(try context.fetchDictionaries(byYear).map(\.storedValues) == expected)
        #expect(try context.fetchDictionaries(byYear).first?["year"] as? Int32 == 2000)

        var total = FetchRequest(entityName: "Publication")
        total.propertiesToFetch = [Payroll.expression("years", .sum("year"), .integer64),
                                   Payroll.expression("mean", .average("year"), .double)]
        // 4 × 2000 + 2 × 2001 + 2 × 2002 = 16,006 over 8 publications.
        #expect(try context.fetchDictionaries(total).map(\.storedValues)
            == [["years": .integer(16_006), "mean": .double(16_006.0 / 8.0)]])

        // An unsaved magazine joins the merge.
        try context.insert("Magazine", ["title": "Ca", "year": 2001])
        #expect(try context.fetchDictionaries(byYear).map { $0["n"] as? Int64 } == [4, 3, 2])
        #expect(try context.fetchObjectIDs(page).map(\.entityName) == ["Magazine", "Magazine", "Book"])

        // Restricted to one store.
        var onlyFirst = byYear
        onlyFirst.affectedStoreIdentifiers = [first]
        onlyFirst.includesPendingChanges = false
        #expect(try context.fetchDictionaries(onlyFirst).map { $0["n"] as? Int64 } == [2, 1, 1])
        var onlySecond = sortedRequest("Publication", by: "title")
        onlySecond.setAffectedStores(context.persistentStoreCoordinator.persistentStores.filter { $0.identifier == second })
        onlySecond.includesPendingChanges = false
        #expect(try context.strings(onlySecond, key: "title") == ["B", "D", "F", "H"])
    }

    @Test("Sub-entities: the parent's request spans its sub-entities for every result type; includesSubentities false does not",
          arguments: StoreUnderTest.all)
    func subentities(store: StoreUnderTest) throws {
        let context = try store.makeContext(model: SampleModels.school())
        try context.insert("Person", ["name": "Pat"])
        try context.insert("Teacher", ["name": "Tess", "subject": "Maths"])
        try context.insert("Pupil", ["name": "Pip", "grade": 3])
        try context.insert("Pupil", ["name": "Pia", "grade": 4])
        try context.insert("Person", ["name": "Per"])
        for checked in [context, context.freshContext()] {
            if checked !== context { try context.save() }
            var everyone = sortedRequest("Person")
            var ownOnly = everyone
            ownOnly.includesSubentities = false
            #expect(try checked.fetchObjectIDs(everyone).map(\.entityName) == ["Person", "Person", "Pupil", "Pupil", "Teacher"])
            #expect(try checked.fetchObjectIDs(ownOnly).map(\.entityName) == ["Person", "Person"])
            #expect(try checked.count(for: everyone) == 5)
            #expect(try checked.count(for: ownOnly) == 2)

            everyone.propertiesToFetch = ["name", Payroll.expression("id", .evaluatedObject, .objectID)]
            let rows = try checked.fetchDictionaries(everyone)
            #expect(rows.map { $0["name"] as? String } == ["Pat", "Per", "Pia", "Pip", "Tess"])
            #expect(rows.map { ($0["id"] as? ManagedObjectID)?.entityName } == ["Person", "Person", "Pupil", "Pupil", "Teacher"])
            ownOnly.propertiesToFetch = [Payroll.expression("n", .count(), .integer64)]
            #expect(try checked.fetchDictionaries(ownOnly).first?["n"] as? Int64 == 2)

            // A sub-entity's own request, with an aggregate of its own attribute.
            var pupils = FetchRequest(entityName: "Pupil")
            pupils.propertiesToFetch = [Payroll.expression("grades", .sum("grade"), .integer64)]
            #expect(try checked.fetchDictionaries(pupils).first?["grades"] as? Int64 == 7)
        }

        // An attribute of a sub-entity is not a property of the parent's request.
        var parent = FetchRequest(entityName: "Person")
        parent.propertiesToFetch = ["grade"]
        #expect(throws: FetchRequestError.invalidProperty(entity: "Person", property: "grade",
                                                          reason: "entity 'Person' has no property 'grade'")) {
            try context.fetchDictionaries(parent)
        }

        // An abstract parent (library): its request gathers books and magazines.
        let library = try store.makeContext(model: SampleModels.library())
        try library.insert("Book", ["title": "Dune", "year": 1965])
        try library.insert("Magazine", ["title": "Byte", "year": 1975, "issue": 1])
        try library.save()
        var titles = sortedRequest("Publication", by: "title")
        titles.propertiesToFetch = ["title"]
        #expect(try library.freshContext().fetchDictionaries(titles).map { $0["title"] as? String } == ["Byte", "Dune"])
        titles.includesSubentities = false
        #expect(try library.freshContext().fetchDictionaries(titles).isEmpty)
    }
}
