import Foundation
import Strata
import StrataTestSupport
import Testing

/// A context with an undo manager undoes and redoes what it records, saved or not.
@Suite("Undo in contexts")
struct UndoTests {
    /// A context on `model` with an undo manager.
    private func undoableContext(_ store: StoreUnderTest, model: ManagedObjectModel) throws
        -> (ManagedObjectContext, ObjectUndoManager) {
        let context = try store.makeContext(model: model)
        let manager = ObjectUndoManager()
        context.undoManager = manager
        return (context, manager)
    }

    /// A shelf "Top" with the books "A" and "B", saved, in a context with an undo manager and
    /// nothing to undo.
    private func savedShelf(_ store: StoreUnderTest) throws
        -> (ManagedObjectContext, ObjectUndoManager, shelf: ManagedObject, books: [ManagedObject]) {
        let context = try store.makeContext(model: SampleModels.shelves())
        let shelf = try context.insert("Shelf", ["label": "Top"])
        let books = try ["A", "B"].map { try context.insert("Book", ["title": $0, "shelf": shelf]) }
        try context.save()
        let manager = ObjectUndoManager()
        context.undoManager = manager
        return (context, manager, shelf, books)
    }

    @Test("Without an undo manager, undo() and redo() do nothing", arguments: StoreUnderTest.all)
    func noManager(store: StoreUnderTest) throws {
        let context = try store.makeContext(model: SampleModels.shelves())
        #expect(context.undoManager == nil)
        let book = try context.insert("Book", ["title": "A"])
        context.processPendingChanges()
        try context.undo()
        try context.redo()
        #expect(context.insertedObjects == [book])
        #expect(try book.string("title") == "A")
    }

    @Test("Undoing an insert takes the object out; redo brings it back, ready to save",
          arguments: StoreUnderTest.all)
    func undoInsert(store: StoreUnderTest) throws {
        let (context, manager) = try undoableContext(store, model: SampleModels.shelves())
        let book = try context.insert("Book", ["title": "Dune", "score": 4.5])
        context.processPendingChanges()
        #expect(manager.canUndo)

        try context.undo()
        #expect(context.insertedObjects.isEmpty)
        #expect(!context.hasChanges)
        #expect(try context.count("Book") == 0)
        #expect(try context.fetch(FetchRequest(entityName: "Book")).isEmpty)
        #expect(manager.canRedo)

        try context.redo()
        #expect(context.insertedObjects == [book])
        #expect(try context.fetch(FetchRequest(entityName: "Book")) == [book])
        #expect(try book.string("title") == "Dune")
        #expect(try book.value(forKey: "score") as? Double == 4.5)
        try context.save()
        let fresh = context.freshContext()
        #expect(try fresh.strings(sortedRequest("Book", by: "title"), key: "title") == ["Dune"])
    }

    @Test("Undoing an unsaved delete restores the object and its relationships",
          arguments: StoreUnderTest.all)
    func undoUnsavedDelete(store: StoreUnderTest) throws {
        let (context, _, shelf, books) = try savedShelf(store)
        try context.delete(shelf)
        #expect(try books.allSatisfy { try $0.value(forKey: "shelf") == nil })
        context.processPendingChanges()

        try context.undo()
        #expect(!shelf.isDeleted)
        #expect(context.deletedObjects.isEmpty)
        #expect(try shelf.objects("books") == Set(books))
        #expect(try books.allSatisfy { try $0.value(forKey: "shelf") as? ManagedObject === shelf })
        #expect(try context.strings(sortedRequest("Shelf", by: "label"), key: "label") == ["Top"])

        try context.save()
        let fresh = context.freshContext()
        #expect(try fresh.existingObject(with: shelf.objectID).sortedNames("books", nameKey: "title") == ["A", "B"])
    }

    @Test("Undoing the delete of an unsaved insert brings it back with its values and links",
          arguments: StoreUnderTest.all)
    func undoDeleteOfInsert(store: StoreUnderTest) throws {
        let (context, _) = try undoableContext(store, model: SampleModels.shelves())
        let shelf = try context.insert("Shelf", ["label": "New"])
        let book = try context.insert("Book", ["title": "A", "shelf": shelf])
        context.processPendingChanges()
        try context.delete(shelf)
        #expect(!context.insertedObjects.contains(shelf))
        context.processPendingChanges()

        try context.undo()
        #expect(Set(context.insertedObjects) == [shelf, book])
        #expect(try shelf.string("label") == "New")
        #expect(try shelf.objects("books") == [book])
        #expect(try book.value(forKey: "shelf") as? ManagedObject === shelf)

        try context.save()
        let fresh = context.freshContext()
        #expect(try fresh.existingObject(with: shelf.objectID).sortedNames("books", nameKey: "title") == ["A"])
    }

    @Test("Undo after a save makes the saved change pending again for the next save",
          arguments: StoreUnderTest.all)
    func undoSavedChange(store: StoreUnderTest) throws {
        let (context, _, _, books) = try savedShelf(store)
        try books[0].setValue("Changed", forKey: "title")
        try context.save()

        try context.undo()
        #expect(try books[0].string("title") == "A")
        #expect(context.updatedObjects == [books[0]])
        try context.save()
        let fresh = context.freshContext()
        #expect(try fresh.existingObject(with: books[0].objectID).string("title") == "A")

        try context.redo()
        #expect(try books[0].string("title") == "Changed")
        try context.save()
        let later = context.freshContext()
        #expect(try later.existingObject(with: books[0].objectID).string("title") == "Changed")
    }

    @Test("Undoing a saved insert deletes the object at the next save", arguments: StoreUnderTest.all)
    func undoSavedInsert(store: StoreUnderTest) throws {
        let (context, _) = try undoableContext(store, model: SampleModels.shelves())
        let book = try context.insert("Book", ["title": "A"])
        try context.save()

        try context.undo()
        #expect(book.isDeleted)
        try context.save()
        #expect(try context.freshContext().count("Book") == 0)

        try context.redo()
        #expect(context.insertedObjects == [book])
        #expect(try book.string("title") == "A")
        try context.save()
        #expect(try context.freshContext().strings(sortedRequest("Book", by: "title"), key: "title") == ["A"])
    }

    @Test("A saved delete undone comes back as an insert with its values and relationships",
          arguments: StoreUnderTest.all)
    func undoSavedDelete(store: StoreUnderTest) throws {
        let (context, _, shelf, books) = try savedShelf(store)
        let shelfID = shelf.objectID
        try context.delete(shelf)
        try context.save()
        #expect(try context.freshContext().count("Shelf") == 0)

        try context.undo()
        #expect(context.insertedObjects == [shelf])
        #expect(shelf.objectID == shelfID)
        #expect(try shelf.string("label") == "Top")
        #expect(try shelf.objects("books") == Set(books))
        #expect(try books.allSatisfy { try $0.value(forKey: "shelf") as? ManagedObject === shelf })
        try context.save()

        let fresh = context.freshContext()
        let stored = try fresh.existingObject(with: shelfID)
        #expect(try stored.string("label") == "Top")
        #expect(try stored.sortedNames("books", nameKey: "title") == ["A", "B"])

        try context.redo()
        #expect(shelf.isDeleted)
        try context.save()
        let later = context.freshContext()
        #expect(try later.count("Shelf") == 0)
        #expect(try later.count("Book") == 2)
    }

    @Test("Firing faults registers nothing", arguments: StoreUnderTest.all)
    func faultsRegisterNothing(store: StoreUnderTest) throws {
        let (saved, _, shelf, _) = try savedShelf(store)
        let context = saved.freshContext()
        let manager = ObjectUndoManager()
        context.undoManager = manager
        let loaded = try context.object(with: shelf.objectID)
        #expect(loaded.isFault)
        #expect(try loaded.sortedNames("books", nameKey: "title") == ["A", "B"])
        for book in try context.fetch(FetchRequest(entityName: "Book")) {
            _ = try book.value(forKey: "shelf")
        }
        context.processPendingChanges()
        #expect(!manager.canUndo)
        #expect(!context.hasChanges)
    }

    @Test("Merging another context's save and refreshing register nothing", arguments: StoreUnderTest.all)
    func mergesRegisterNothing(store: StoreUnderTest) throws {
        let (context, manager, shelf, books) = try savedShelf(store)
        try books[1].setValue(2.0, forKey: "score")   // a change of its own, undoable
        context.processPendingChanges()

        let other = context.freshContext()
        try other.existingObject(with: books[0].objectID).setValue("Merged", forKey: "title")
        try other.delete(other.existingObject(with: shelf.objectID))
        try other.save()
        try ManagedObjectContext.mergeChanges(fromRemoteContextSave: [
            ManagedObjectContext.updatedObjectsKey: books.map(\.objectID),
            ManagedObjectContext.deletedObjectsKey: [shelf.objectID],
        ], into: [context])
        try context.refresh(books[1], mergeChanges: true)
        #expect(try books[0].string("title") == "Merged")
        #expect(try books[1].value(forKey: "score") as? Double == 2.0)

        // One undo reverses the context's own change only; nothing else is left to undo.
        try context.undo()
        #expect(try books[1].value(forKey: "score") == nil)
        #expect(try books[0].string("title") == "Merged")
        #expect(!manager.canUndo)
    }

    @Test("rollback() and reset() empty both stacks", arguments: StoreUnderTest.all)
    func rollbackAndResetClear(store: StoreUnderTest) throws {
        let (context, manager, _, books) = try savedShelf(store)
        for clear in [{ context.rollback() }, { context.reset() }] {
            let book = try context.existingObject(with: books[0].objectID)
            try book.setValue("X", forKey: "title")
            context.processPendingChanges()
            try book.setValue("Y", forKey: "title")
            try context.undo()
            #expect(manager.canUndo && manager.canRedo)
            clear()
            #expect(!manager.canUndo && !manager.canRedo)
            try context.undo()   // nothing to undo: does nothing
            #expect(try context.existingObject(with: books[0].objectID).string("title") == "A")
        }
    }

    @Test("A change made after a rollback in the same event is undoable", arguments: StoreUnderTest.all)
    func changeAfterRollback(store: StoreUnderTest) throws {
        let (context, manager, _, books) = try savedShelf(store)
        try books[0].setValue("X", forKey: "title")
        context.rollback()
        try books[0].setValue("Y", forKey: "title")
        context.processPendingChanges()
        #expect(manager.canUndo)
        try context.undo()
        #expect(try books[0].string("title") == "A")
    }

    @Test("Undo and redo of a to-one change restore both sides", arguments: StoreUnderTest.all)
    func toOneBothSides(store: StoreUnderTest) throws {
        let context = try store.makeContext(model: SampleModels.couples())
        let husband = try context.insert("Husband", ["name": "H"])
        let first = try context.insert("Wife", ["name": "W1", "husband": husband])
        let second = try context.insert("Wife", ["name": "W2"])
        try context.save()
        context.undoManager = ObjectUndoManager()

        try husband.setValue(second, forKey: "wife")
        #expect(try first.value(forKey: "husband") == nil)
        context.processPendingChanges()

        try context.undo()
        #expect(try husband.value(forKey: "wife") as? ManagedObject === first)
        #expect(try first.value(forKey: "husband") as? ManagedObject === husband)
        #expect(try second.value(forKey: "husband") == nil)

        try context.redo()
        #expect(try husband.value(forKey: "wife") as? ManagedObject === second)
        #expect(try second.value(forKey: "husband") as? ManagedObject === husband)
        #expect(try first.value(forKey: "husband") == nil)
        try context.save()
        let fresh = context.freshContext()
        #expect(try fresh.existingObject(with: second.objectID).value(forKey: "husband") as? ManagedObject
                === fresh.existingObject(with: husband.objectID))
    }

    @Test("Undo through to-many changes made with add, remove and insert(at:)", arguments: StoreUnderTest.all)
    func toManyChanges(store: StoreUnderTest) throws {
        let (context, _, shelf, books) = try savedShelf(store)
        let other = try context.insert("Shelf", ["label": "Low"])
        context.processPendingChanges()

        try other.add(books[0], to: "books")
        try shelf.remove(books[1], from: "books")
        #expect(try shelf.objects("books").isEmpty)
        context.processPendingChanges()
        try context.undo()
        #expect(try shelf.objects("books") == Set(books))
        #expect(try other.objects("books").isEmpty)
        #expect(try books.allSatisfy { try $0.value(forKey: "shelf") as? ManagedObject === shelf })
        try context.redo()
        #expect(try other.objects("books") == [books[0]])
        #expect(try books[1].value(forKey: "shelf") == nil)

        // An ordered to-many keeps its order through undo and redo.
        let library = try store.makeContext(model: SampleModels.library())
        library.undoManager = ObjectUndoManager()
        let author = try library.insert("Author", ["name": "Le Guin"])
        let titles = ["One", "Two", "Three"]
        let books2 = try titles.map { try library.insert("Book", ["title": $0]) }
        for book in books2 { try author.add(book, to: "publications") }
        try library.save()
        try author.insert(books2[2], at: 0, in: "publications")
        try author.remove(books2[1], from: "publications")
        #expect(try author.list("publications") == [books2[2], books2[0]])
        try library.undo()
        #expect(try author.list("publications") == books2)
        #expect(try books2[1].objects("authors") == [author])
        try library.redo()
        #expect(try author.list("publications") == [books2[2], books2[0]])
        #expect(try books2[1].objects("authors").isEmpty)
    }

    @Test("Undo of a to-many replaced whole, through setValue with a set", arguments: StoreUnderTest.all)
    func toManyReplacedWhole(store: StoreUnderTest) throws {
        let (context, _, shelf, books) = try savedShelf(store)
        let other = try context.insert("Shelf", ["label": "Low"])
        let extra = try context.insert("Book", ["title": "C", "shelf": other])
        try context.save()

        // The whole set at once: one book stays, one leaves, one comes from the other shelf.
        try shelf.setValue(Set([books[0], extra]), forKey: "books")
        #expect(try extra.value(forKey: "shelf") as? ManagedObject === shelf)
        #expect(try other.objects("books").isEmpty)
        #expect(try books[1].value(forKey: "shelf") == nil)
        try shelf.setValue(nil, forKey: "books")   // and emptied, in the same event
        context.processPendingChanges()

        try context.undo()
        #expect(try shelf.objects("books") == Set(books))
        #expect(try other.objects("books") == [extra])
        #expect(try extra.value(forKey: "shelf") as? ManagedObject === other)
        #expect(try books.allSatisfy { try $0.value(forKey: "shelf") as? ManagedObject === shelf })
        try context.save()
        let fresh = context.freshContext()
        #expect(try fresh.existingObject(with: shelf.objectID).sortedNames("books", nameKey: "title") == ["A", "B"])

        try context.redo()
        #expect(try shelf.objects("books").isEmpty)
        #expect(try extra.value(forKey: "shelf") == nil)
        #expect(try other.objects("books").isEmpty)
    }

    @Test("A cascade delete is undone whole, before and after a save", arguments: StoreUnderTest.all)
    func cascadeUndone(store: StoreUnderTest) throws {
        let context = try store.makeContext(model: SampleModels.moody())
        let europe = try context.insert("Continent", ["name": "Europe"])
        let france = try context.insert("Country", ["name": "France", "continent": europe])
        let germany = try context.insert("Country", ["name": "Germany", "continent": europe])
        let moods = try [france, france, germany].enumerated().map { index, country in
            try context.insert("Mood", ["date": Date(timeIntervalSinceReferenceDate: Double(index)), "country": country])
        }
        try context.save()
        context.undoManager = ObjectUndoManager()

        for saving in [false, true] {
            try context.delete(europe)
            #expect(context.deletedObjects.count == 6)
            if saving {
                try context.save()
                #expect(try context.freshContext().count("Region") == 0)
            }
            context.processPendingChanges()
            try context.undo()
            #expect(context.deletedObjects.isEmpty)
            #expect(try europe.objects("countries") == [france, germany])
            #expect(try france.objects("moods") == [moods[0], moods[1]])
            #expect(try germany.objects("moods") == [moods[2]])
            #expect(try moods[2].value(forKey: "country") as? ManagedObject === germany)
            #expect(try context.count("Mood") == 3)
            try context.save()
            let fresh = context.freshContext()
            #expect(try fresh.count("Region") == 3)
            #expect(try fresh.count("Mood") == 3)
            #expect(try fresh.existingObject(with: europe.objectID).sortedNames("countries") == ["France", "Germany"])
        }
    }

    @Test("The changes of one event undo together; a key changed twice goes back to its start",
          arguments: StoreUnderTest.all)
    func oneEvent(store: StoreUnderTest) throws {
        let (context, manager, shelf, books) = try savedShelf(store)
        try books[0].setValue("X", forKey: "title")
        try books[0].setValue("Y", forKey: "title")
        try shelf.setValue("Middle", forKey: "label")
        try books[1].setValue(nil, forKey: "shelf")
        try books[1].setValue(shelf, forKey: "shelf")
        try books[1].setValue(nil, forKey: "shelf")
        context.processPendingChanges()
        try context.undo()
        #expect(try books[0].string("title") == "A")
        #expect(try shelf.string("label") == "Top")
        #expect(try shelf.objects("books") == Set(books))
        #expect(!manager.canUndo)
    }

    @Test("levelsOfUndo drops the oldest steps", arguments: StoreUnderTest.all)
    func levels(store: StoreUnderTest) throws {
        let (context, manager, _, books) = try savedShelf(store)
        manager.levelsOfUndo = 2
        for title in ["B", "C", "D"] {
            try books[0].setValue(title, forKey: "title")
            context.processPendingChanges()
        }
        try context.undo()
        try context.undo()
        #expect(try books[0].string("title") == "B")
        #expect(!manager.canUndo)
        try context.undo()
        #expect(try books[0].string("title") == "B")
    }

    @Test("A child's undo of a delete it saved into the parent brings the object back there",
          arguments: StoreUnderTest.all, ["parent unsaved", "parent saved", "parent's insert"])
    func childUndoesSavedDelete(store: StoreUnderTest, variant: String) throws {
        let parent = try store.makeContext(model: SampleModels.shelves())
        var shelf = try parent.insert("Shelf", ["label": "Top"])
        var books = try ["A", "B"].map { try parent.insert("Book", ["title": $0, "shelf": shelf]) }
        if variant != "parent's insert" { try parent.save() }
        let child = ManagedObjectContext(parent: parent)
        child.undoManager = ObjectUndoManager()
        let childShelf = try child.existingObject(with: shelf.objectID)
        let childBooks = try books.map { try child.existingObject(with: $0.objectID) }
        #expect(try childShelf.objects("books") == Set(childBooks))

        try child.delete(childShelf)
        try child.save()
        #expect(try parent.count("Shelf") == 0)
        if variant == "parent saved" {
            try parent.save()
            #expect(try parent.freshContext().count("Shelf") == 0)
        }

        try child.undo()
        #expect(child.insertedObjects == [childShelf])
        #expect(try childShelf.string("label") == "Top")
        #expect(try childShelf.objects("books") == Set(childBooks))
        try child.save()
        #expect(!child.hasChanges)

        // The parent has the shelf again, with its label and both sides of its books.
        #expect(parent.deletedObjects.isEmpty)
        #expect(try parent.strings(sortedRequest("Shelf", by: "label"), key: "label") == ["Top"])
        shelf = try parent.existingObject(with: childShelf.objectID)
        books = try childBooks.map { try parent.existingObject(with: $0.objectID) }
        #expect(!shelf.isDeleted)
        #expect(try shelf.string("label") == "Top")
        #expect(try shelf.objects("books") == Set(books))
        #expect(try books.allSatisfy { try $0.value(forKey: "shelf") as? ManagedObject === shelf })
        try parent.save()
        let fresh = parent.freshContext()
        #expect(try fresh.strings(sortedRequest("Shelf", by: "label"), key: "label") == ["Top"])
        let stored = try #require(try fresh.fetch(FetchRequest(entityName: "Shelf")).first)
        #expect(try stored.sortedNames("books", nameKey: "title") == ["A", "B"])

        // Redo deletes it again, through the parent into the store. (Not for objects the parent
        // inserted: once the parent saved them, the child still names them by the temporary IDs
        // that save replaced, and its next save finds them gone.)
        guard variant != "parent's insert" else { return }
        try child.redo()
        #expect(childShelf.isDeleted)
        try child.save()
        #expect(try parent.count("Shelf") == 0)
        try parent.save()
        let later = parent.freshContext()
        #expect(try later.count("Shelf") == 0)
        #expect(try later.count("Book") == 2)
    }
}
