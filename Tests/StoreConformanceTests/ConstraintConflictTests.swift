import Foundation
import Strata
import StrataTestSupport
import Testing

/// Uniqueness conflicts under the merge policies: an error by default, an upsert under the
/// others, within one save and against saved rows.
@Suite("Constraint conflicts")
struct ConstraintConflictTests {
    static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel {
            EntityDescription("Author", uniquenessConstraints: [["name"]]) {
                Attribute("name", .string)
                Attribute("country", .string)
                Attribute("bio", .string)
                Relationship("books", toMany: "Book", inverse: "author", deleteRule: .nullify)
            }
            EntityDescription("Book") {
                Attribute("title", .string)
                Relationship("author", to: "Author", inverse: "books", deleteRule: .nullify)
            }
        }
    }

    /// A context whose store holds the author Ann (FR, bio "old") with one book.
    static func seeded(_ store: StoreUnderTest) throws -> (context: ManagedObjectContext, ann: ManagedObjectID) {
        let setup = try store.makeContext(model: model())
        let ann = try setup.insert("Author", ["name": "Ann", "country": "FR", "bio": "old"])
        let book = try setup.insert("Book", ["title": "First"])
        try book.setValue(ann, forKey: "author")
        try setup.save()
        return (setup.freshContext(), ann.objectID)
    }

    /// A new Ann (DE, no bio) with a new book, in `context`.
    static func insertNewAnn(_ context: ManagedObjectContext) throws -> ManagedObject {
        let ann = try context.insert("Author", ["name": "Ann", "country": "DE"])
        let book = try context.insert("Book", ["title": "Second"])
        try book.setValue(ann, forKey: "author")
        return ann
    }

    @Test("By default a conflict with a saved row fails the save, names the row and writes nothing", arguments: StoreUnderTest.all)
    func errorAgainstSavedRow(store: StoreUnderTest) throws {
        let (context, storedAnn) = try Self.seeded(store)
        let ann = try Self.insertNewAnn(context)
        let error = try #require(throws: StoreError.self) { try context.save() }
        guard case .constraintConflict(let conflicts) = error, let conflict = conflicts.first else {
            Issue.record("expected a constraint conflict, got \(error)")
            return
        }
        #expect(conflict.properties == ["name"])
        #expect(conflict.conflictingObjectIDs == [ann.objectID])
        #expect(conflict.databaseObjectID == storedAnn)
        #expect(conflict.databaseSnapshot?.attributes["country"] == .string("FR"))
        #expect(conflict.conflictingSnapshots == [nil])
        #expect(conflict.constraintValues == ["name": .string("Ann")])
        #expect(!conflict.isWithinSave)
        #expect(context.hasChanges && ann.objectID.isTemporaryID)
        let checker = context.freshContext()
        #expect(try checker.count("Author") == 1)
        #expect(try checker.count("Book") == 1)
    }

    @Test("By default a conflict within one save fails it and names both new objects", arguments: StoreUnderTest.all)
    func errorWithinSave(store: StoreUnderTest) throws {
        let context = try store.makeContext(model: Self.model())
        let first = try context.insert("Author", ["name": "Bo", "country": "A"])
        let second = try context.insert("Author", ["name": "Bo", "country": "B"])
        let error = try #require(throws: StoreError.self) { try context.save() }
        guard case .constraintConflict(let conflicts) = error else {
            Issue.record("expected a constraint conflict, got \(error)")
            return
        }
        #expect(conflicts.count == 1, "\(conflicts)")
        #expect(Set(conflicts.first?.conflictingObjectIDs ?? []) == [first.objectID, second.objectID])
        #expect(conflicts.first?.databaseObjectID == nil)
        #expect(conflicts.first?.isWithinSave == true)
        #expect(try context.freshContext().count("Author") == 0)
    }

    /// The merged author's country and bio under `type`, the new object's being `incoming` and
    /// the row's (or first object's) `held`, each (country, bio).
    static func merged(_ type: MergePolicyType, incoming: (String, String), held: (String, String)) -> [String] {
        switch type {
        case .mergeByPropertyObjectTrump: [incoming.0, incoming.1 == "<nil>" ? held.1 : incoming.1]
        case .mergeByPropertyStoreTrump: [held.0, held.1 == "<nil>" ? incoming.1 : held.1]
        case .overwrite: [incoming.0, incoming.1]
        case .rollback, .error: [held.0, held.1]
        }
    }

    static let merging: [MergePolicyType] = [.mergeByPropertyObjectTrump, .mergeByPropertyStoreTrump, .overwrite, .rollback]

    @Test("Against a saved row the merging policies upsert: the new object becomes the row",
          arguments: StoreUnderTest.all, merging)
    func upsertAgainstSavedRow(store: StoreUnderTest, type: MergePolicyType) throws {
        let (context, storedAnn) = try Self.seeded(store)
        context.mergePolicy = MergePolicy(type: type)
        let ann = try Self.insertNewAnn(context)
        try context.save()

        #expect(ann.objectID == storedAnn)
        #expect(!context.hasChanges)
        let checker = context.freshContext()
        let authors = try checker.fetch(FetchRequest(entityName: "Author"))
        #expect(authors.count == 1)
        let stored = try #require(authors.first)
        #expect(stored.objectID == storedAnn)
        // Object trump: the new object's values, the row's where it has none; store trump: the
        // row's, the new object's where it has none; overwrite: the new object's; rollback: the row's.
        #expect(try [stored.string("country"), stored.string("bio")] == Self.merged(type, incoming: ("DE", "<nil>"), held: ("FR", "old")))
        #expect(try stored.sortedNames("books", nameKey: "title") == ["First", "Second"])
        #expect(try checker.count("Book") == 2)
    }

    @Test("Within one save the merging policies merge the new objects into the first",
          arguments: StoreUnderTest.all, merging)
    func upsertWithinSave(store: StoreUnderTest, type: MergePolicyType) throws {
        let context = try store.makeContext(model: Self.model())
        context.mergePolicy = MergePolicy(type: type)
        let first = try context.insert("Author", ["name": "Bo", "country": "A", "bio": "x"])
        let second = try context.insert("Author", ["name": "Bo", "country": "B"])
        let book = try context.insert("Book", ["title": "Kept"])
        try book.setValue(second, forKey: "author")
        try context.save()

        #expect(first.managedObjectContext === context && !first.objectID.isTemporaryID)
        #expect(second.managedObjectContext == nil, "the merged-away object is forgotten")
        #expect(try book.value(forKey: "author") as? ManagedObject === first)
        let checker = context.freshContext()
        let authors = try checker.fetch(FetchRequest(entityName: "Author"))
        #expect(authors.count == 1)
        let author = try #require(authors.first)
        #expect(try [author.string("country"), author.string("bio")] == Self.merged(type, incoming: ("B", "<nil>"), held: ("A", "x")))
        #expect(try authors.first?.sortedNames("books", nameKey: "title") == ["Kept"])
    }

    @Test("An upsert into a row this context already holds merges into that object", arguments: StoreUnderTest.all)
    func upsertIntoRegisteredRow(store: StoreUnderTest) throws {
        let (context, storedAnn) = try Self.seeded(store)
        context.mergePolicy = .mergeByPropertyObjectTrump
        let held = try context.existingObject(with: storedAnn)
        let ann = try Self.insertNewAnn(context)
        try context.save()
        #expect(ann.managedObjectContext == nil)
        #expect(try held.string("country") == "DE")
        #expect(try held.sortedNames("books", nameKey: "title") == ["First", "Second"])
        let checker = context.freshContext()
        #expect(try checker.count("Author") == 1)
        #expect(try checker.existingObject(with: storedAnn).string("country") == "DE")
    }
}
