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

    /// A merging policy that records each call of the entry point a save makes, then resolves
    /// as its built-in type does.
    final class RecordingPolicy: MergePolicy {
        private(set) var calls: [(merge: Int, constraint: Int)] = []

        override func resolve(mergeConflicts: [MergeConflict], constraintConflicts: [ConstraintConflict],
                              in context: ManagedObjectContext) throws {
            calls.append((mergeConflicts.count, constraintConflicts.count))
            try super.resolve(mergeConflicts: mergeConflicts, constraintConflicts: constraintConflicts, in: context)
        }
    }

    @Test("A save of many conflicting objects meets them all in one try, on every store", arguments: StoreUnderTest.all)
    func manyConflictsAtOnce(store: StoreUnderTest) throws {
        let setup = try store.makeContext(model: Self.model())
        let names = (0..<40).map { "A\($0)" }
        for name in names { try setup.insert("Author", ["name": name, "country": "old"]) }
        try setup.save()

        // Under the error policy, the one error lists every conflict.
        let failing = setup.freshContext()
        for name in names { try failing.insert("Author", ["name": name, "country": "new"]) }
        try failing.insert("Author", ["name": "Z", "country": "new"])
        let error = try #require(throws: StoreError.self) { try failing.save() }
        guard case .constraintConflict(let conflicts) = error else {
            Issue.record("expected a constraint conflict, got \(error)")
            return
        }
        #expect(conflicts.count == names.count)
        #expect(Set(conflicts.compactMap { $0.constraintValues["name"] }) == Set(names.map { AttributeValue.string($0) }))
        #expect(conflicts.allSatisfy { $0.databaseObjectID != nil && !$0.isWithinSave })
        #expect(try failing.freshContext().count("Author") == names.count)

        // Under a merging policy, the save resolves them all at once and tries once more.
        let upserting = setup.freshContext()
        let policy = RecordingPolicy(type: .mergeByPropertyObjectTrump)
        upserting.mergePolicy = policy
        for name in names { try upserting.insert("Author", ["name": name, "country": "new"]) }
        // Two new objects that meet each other, too.
        try upserting.insert("Author", ["name": "Z", "country": "first"])
        try upserting.insert("Author", ["name": "Z", "country": "second"])
        try upserting.save()
        #expect(policy.calls.count == 1, "\(policy.calls)")
        #expect(policy.calls.first?.merge == 0)
        #expect(policy.calls.first?.constraint == names.count + 1)
        let checker = setup.freshContext()
        let authors = try checker.fetch(FetchRequest(entityName: "Author"))
        #expect(authors.count == names.count + 1)
        #expect(try authors.filter { try $0.string("name") != "Z" }.allSatisfy { try $0.string("country") == "new" })
    }

    @Test("The entry point a save calls gets optimistic-locking conflicts too", arguments: StoreUnderTest.all)
    func entryPointGetsMergeConflicts(store: StoreUnderTest) throws {
        let (setup, annID) = try Self.seeded(store)
        let mine = setup.freshContext()
        let policy = RecordingPolicy(type: .mergeByPropertyObjectTrump)
        mine.mergePolicy = policy
        try mine.existingObject(with: annID).setValue("mine", forKey: "bio")
        let other = setup.freshContext()
        try other.existingObject(with: annID).setValue("SE", forKey: "country")
        try other.save()
        try mine.save()
        #expect(policy.calls.count == 1)
        #expect(policy.calls.first?.merge == 1 && policy.calls.first?.constraint == 0)
        let checker = setup.freshContext()   // kept: objects hold their context weakly
        let stored = try checker.existingObject(with: annID)
        #expect(try [stored.string("country"), stored.string("bio")] == ["SE", "mine"])
    }

    /// A context holding the stored authors Ann (FR, "old", book First) and Bo (UK, "b", book
    /// Bo's), with Bo renamed to Ann and moved to SE: a changed object that meets another row.
    static func renamedBo(_ store: StoreUnderTest) throws -> (context: ManagedObjectContext, ann: ManagedObjectID, bo: ManagedObject) {
        let (context, annID) = try seeded(store)
        let setup = context.freshContext()
        let bo = try setup.insert("Author", ["name": "Bo", "country": "UK", "bio": "b"])
        let book = try setup.insert("Book", ["title": "Bo's"])
        try book.setValue(bo, forKey: "author")
        try setup.save()
        let mine = context.freshContext()
        let changed = try mine.existingObject(with: bo.objectID)
        try changed.setValue("Ann", forKey: "name")
        try changed.setValue("SE", forKey: "country")
        return (mine, annID, changed)
    }

    @Test("A changed object that meets another row fails the save under the error policy", arguments: StoreUnderTest.all)
    func changedObjectError(store: StoreUnderTest) throws {
        let (context, annID, bo) = try Self.renamedBo(store)
        let error = try #require(throws: StoreError.self) { try context.save() }
        guard case .constraintConflict(let conflicts) = error else {
            Issue.record("expected a constraint conflict, got \(error)")
            return
        }
        #expect(conflicts.map(\.objectID) == [bo.objectID])
        #expect(conflicts.map(\.databaseObjectID) == [annID])
        #expect(conflicts.first?.conflictingSnapshots.first??.attributes["name"] == .string("Bo"))
        #expect(try context.freshContext().count("Author") == 2)
    }

    @Test("A changed object that meets another row is merged into that row, as a new one is; rollback drops its changes",
          arguments: StoreUnderTest.all, merging)
    func changedObjectMerged(store: StoreUnderTest, type: MergePolicyType) throws {
        let (context, annID, bo) = try Self.renamedBo(store)
        let boID = bo.objectID
        context.mergePolicy = MergePolicy(type: type)
        try context.save()
        #expect(!context.hasChanges)

        let checker = context.freshContext()
        let authors = try checker.fetch(sortedRequest("Author"))
        if type == .rollback {
            #expect(try authors.map { try $0.string("name") } == ["Ann", "Bo"])
            #expect(try checker.existingObject(with: boID).string("country") == "UK")
            #expect(try checker.existingObject(with: annID).string("country") == "FR")
            return
        }
        // The row keeps its ID and takes the changed object's values as the policy says; the
        // changed object's row is gone, and its books went with the merge.
        #expect(authors.map(\.objectID) == [annID])
        #expect(bo.managedObjectContext == nil, "the merged-away object's delete was saved")
        let ann = try checker.existingObject(with: annID)
        #expect(try [ann.string("country"), ann.string("bio")] == Self.merged(type, incoming: ("SE", "b"), held: ("FR", "old")))
        #expect(try ann.sortedNames("books", nameKey: "title") == ["Bo's", "First"])
        #expect(throws: ObjectError.objectNotFound(boID)) { try checker.existingObject(with: boID) }
        #expect(try checker.count("Book") == 2)
    }
}
