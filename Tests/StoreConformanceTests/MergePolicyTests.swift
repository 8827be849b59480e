import Foundation
import Strata
import StrataTestSupport
import Testing

/// The merge policies on optimistic-locking conflicts, between two root contexts and between a
/// child and its parent: each side changes the conflicting property `title` and one property
/// of its own (`body` here, `color` there).
@Suite("Merge policies")
struct MergePolicyTests {
    static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel {
            EntityDescription("Card") {
                Attribute("title", .string)
                Attribute("body", .string)
                Attribute("color", .string)
            }
        }
    }

    /// The card's values after a save under `type`, in the order title, body, color.
    static func expected(_ type: MergePolicyType, other: String) -> [String] {
        switch type {
        case .error: ["T-\(other)", "B0", "C-\(other)"]   // what the other side saved; nothing of ours
        case .mergeByPropertyStoreTrump: ["T-\(other)", "B-mine", "C-\(other)"]
        case .mergeByPropertyObjectTrump: ["T-mine", "B-mine", "C-\(other)"]
        case .overwrite: ["T-mine", "B-mine", "C0"]
        case .rollback: ["T-\(other)", "B0", "C-\(other)"]
        }
    }

    static func values(_ card: ManagedObject) throws -> [String] {
        try ["title", "body", "color"].map { try card.string($0) }
    }

    /// A stored card and two root contexts that read it; `other` changed title and color and saved.
    static func storeConflict(_ store: StoreUnderTest) throws -> (setup: ManagedObjectContext, mine: ManagedObjectContext, card: ManagedObject) {
        let setup = try store.makeContext(model: model())
        let original = try setup.insert("Card", ["title": "T0", "body": "B0", "color": "C0"])
        try setup.save()
        let mine = setup.freshContext()
        let card = try mine.existingObject(with: original.objectID)
        let other = setup.freshContext()
        let theirs = try other.existingObject(with: original.objectID)
        try theirs.setValue("T-store", forKey: "title")
        try theirs.setValue("C-store", forKey: "color")
        try other.save()
        try card.setValue("T-mine", forKey: "title")
        try card.setValue("B-mine", forKey: "body")
        return (setup, mine, card)
    }

    @Test("Between two root contexts, each policy keeps the properties it should",
          arguments: StoreUnderTest.all, MergePolicyType.allCases)
    func betweenRootContexts(store: StoreUnderTest, type: MergePolicyType) throws {
        let (setup, mine, card) = try Self.storeConflict(store)
        mine.mergePolicy = MergePolicy(type: type)
        if type == .error {
            let error = try #require(throws: StoreError.self) { try mine.save() }
            guard case .mergeConflict(let conflicts) = error else {
                Issue.record("expected a merge conflict, got \(error)")
                return
            }
            #expect(conflicts.map(\.objectID) == [card.objectID])
            #expect(mine.hasChanges)
        } else {
            try mine.save()
            #expect(!mine.hasChanges)
            #expect(try Self.values(card) == Self.expected(type, other: "store"))
        }
        let checker = setup.freshContext()
        let stored = try checker.existingObject(with: card.objectID)
        #expect(try Self.values(stored) == Self.expected(type, other: "store"))

        // The object is at the stored version now: a later change saves without a conflict.
        guard type != .error else { return }
        try card.setValue("Later", forKey: "body")
        try mine.save()
        checker.reset()
        #expect(try checker.existingObject(with: card.objectID).string("body") == "Later")
    }

    @Test("Between a child and its parent, each policy keeps the properties it should",
          arguments: StoreUnderTest.all, MergePolicyType.allCases)
    func betweenChildAndParent(store: StoreUnderTest, type: MergePolicyType) throws {
        for parentSaves in [false, true] {
            let parent = try store.makeContext(model: Self.model())
            let original = try parent.insert("Card", ["title": "T0", "body": "B0", "color": "C0"])
            try parent.save()
            let child = ManagedObjectContext(parent: parent)
            child.mergePolicy = MergePolicy(type: type)
            let card = try child.existingObject(with: original.objectID)
            try original.setValue("T-parent", forKey: "title")
            try original.setValue("C-parent", forKey: "color")
            if parentSaves { try parent.save() }
            try card.setValue("T-mine", forKey: "title")
            try card.setValue("B-mine", forKey: "body")

            if type == .error {
                let error = try #require(throws: StoreError.self) { try child.save() }
                guard case .mergeConflict(let conflicts) = error else {
                    Issue.record("expected a merge conflict, got \(error)")
                    continue
                }
                #expect(conflicts.map(\.objectID) == [card.objectID])
            } else {
                try child.save()
                #expect(try Self.values(card) == Self.expected(type, other: "parent"))
            }
            #expect(try Self.values(original) == Self.expected(type, other: "parent"), "parent saved first: \(parentSaves)")
            try parent.save()
            let checker = parent.freshContext()
            let stored = try checker.existingObject(with: original.objectID)
            #expect(try Self.values(stored) == Self.expected(type, other: "parent"), "parent saved first: \(parentSaves)")
        }
    }

    @Test("A child's save of objects its parent did not change meanwhile is no conflict", arguments: StoreUnderTest.all)
    func childWithoutConflict(store: StoreUnderTest) throws {
        let parent = try store.makeContext(model: Self.model())
        let original = try parent.insert("Card", ["title": "T0", "body": "B0"])
        try parent.save()
        let child = ManagedObjectContext(parent: parent)
        let card = try child.existingObject(with: original.objectID)
        try card.setValue("T1", forKey: "title")
        try child.save()
        try parent.save()
        // The parent saved (a new version) values the child already has: still no conflict.
        try card.setValue("T2", forKey: "title")
        try child.save()
        #expect(try original.string("title") == "T2")
    }

    @Test("A conflict with the store carries the store's row, the state read, and both versions", arguments: StoreUnderTest.all)
    func snapshotsAgainstStore(store: StoreUnderTest) throws {
        let (_, mine, card) = try Self.storeConflict(store)
        let error = try #require(throws: StoreError.self) { try mine.save() }
        guard case .mergeConflict(let conflicts) = error, let conflict = conflicts.first else {
            Issue.record("expected a merge conflict, got \(error)")
            return
        }
        #expect(conflict.oldVersion == 1)
        #expect(conflict.newVersion == 2)
        #expect(conflict.objectSnapshot?.attributes["title"] == .string("T0"))
        #expect(conflict.objectSnapshot?.attributes["body"] == .string("B0"))
        #expect(conflict.persistedSnapshot?.attributes["title"] == .string("T-store"))
        #expect(conflict.persistedSnapshot?.version == 2)
        // The coordinator knew no newer row: its state is the one the context read.
        #expect(conflict.cachedSnapshot?.attributes["title"] == .string("T0"))
        #expect(conflict.currentSnapshot?.attributes["color"] == .string("C-store"))
        #expect(mine.registeredObject(for: conflict.objectID) === card)
    }

    @Test("A conflict with a row the coordinator already holds has a cached snapshot and no persisted one",
          arguments: StoreUnderTest.all)
    func snapshotsAgainstCoordinator(store: StoreUnderTest) throws {
        let (setup, mine, card) = try Self.storeConflict(store)
        // A third context reads the row through the coordinator: its cache holds version 2.
        let reader = setup.freshContext()
        _ = try reader.existingObject(with: card.objectID).value(forKey: "title")
        let error = try #require(throws: StoreError.self) { try mine.save() }
        guard case .mergeConflict(let conflicts) = error, let conflict = conflicts.first else {
            Issue.record("expected a merge conflict, got \(error)")
            return
        }
        #expect(conflict.persistedSnapshot == nil)
        #expect(conflict.cachedSnapshot?.version == 2)
        #expect(conflict.cachedSnapshot?.attributes["title"] == .string("T-store"))
        #expect(conflict.objectSnapshot?.attributes["title"] == .string("T0"))
        #expect((conflict.oldVersion, conflict.newVersion) == (1, 2))
    }

    @Test("A conflict with the parent carries the parent's state as the cached snapshot", arguments: StoreUnderTest.all)
    func snapshotsAgainstParent(store: StoreUnderTest) throws {
        let parent = try store.makeContext(model: Self.model())
        let original = try parent.insert("Card", ["title": "T0", "body": "B0"])
        try parent.save()
        let child = ManagedObjectContext(parent: parent)
        let card = try child.existingObject(with: original.objectID)
        try original.setValue("T-parent", forKey: "title")
        try card.setValue("T-mine", forKey: "title")
        let error = try #require(throws: StoreError.self) { try child.save() }
        guard case .mergeConflict(let conflicts) = error, let conflict = conflicts.first else {
            Issue.record("expected a merge conflict, got \(error)")
            return
        }
        #expect(conflict.persistedSnapshot == nil)
        #expect(conflict.cachedSnapshot?.attributes["title"] == .string("T-parent"))
        #expect(conflict.objectSnapshot?.attributes["title"] == .string("T0"))
        #expect(try original.string("title") == "T-parent", "nothing was pushed")
    }

    @Test("An object deleted elsewhere: version 0, no current snapshot; the policies drop the change",
          arguments: StoreUnderTest.all)
    func deletedElsewhere(store: StoreUnderTest) throws {
        let setup = try store.makeContext(model: Self.model())
        let original = try setup.insert("Card", ["title": "T0"])
        let kept = try setup.insert("Card", ["title": "K0"])
        try setup.save()
        let mine = setup.freshContext()
        let card = try mine.existingObject(with: original.objectID)
        let other = try mine.existingObject(with: kept.objectID)
        try setup.delete(original)
        try setup.save()
        try card.setValue("T-mine", forKey: "title")
        try other.setValue("K-mine", forKey: "title")

        let error = try #require(throws: StoreError.self) { try mine.save() }
        guard case .mergeConflict(let conflicts) = error, let conflict = conflicts.first else {
            Issue.record("expected a merge conflict, got \(error)")
            return
        }
        #expect(conflict.isDeletion && conflict.newVersion == 0 && conflict.currentSnapshot == nil)

        mine.mergePolicy = .mergeByPropertyObjectTrump
        try mine.save()
        #expect(try setup.freshContext().strings(sortedRequest("Card", by: "title"), key: "title") == ["K-mine"])
        #expect(mine.registeredObject(for: original.objectID) == nil)
    }

    @Test("Rollback undoes a delete of an object changed elsewhere; the other policies save the delete",
          arguments: StoreUnderTest.all)
    func deleteOfChangedObject(store: StoreUnderTest) throws {
        for type in [MergePolicyType.rollback, .mergeByPropertyObjectTrump] {
            let setup = try store.makeContext(model: Self.model())
            let original = try setup.insert("Card", ["title": "T0"])
            try setup.save()
            let mine = setup.freshContext()
            mine.mergePolicy = MergePolicy(type: type)
            try mine.delete(try mine.existingObject(with: original.objectID))
            try original.setValue("T-store", forKey: "title")
            try setup.save()
            try mine.save()
            let titles = try setup.freshContext().strings(sortedRequest("Card", by: "title"), key: "title")
            #expect(titles == (type == .rollback ? ["T-store"] : []), "\(type)")
        }
    }

    /// Joins the stored title and this context's, and leaves every other property as it stands.
    final class JoiningPolicy: MergePolicy {
        init() { super.init(type: .error) }

        override func resolve(optimisticLockingConflicts conflicts: [MergeConflict], in context: ManagedObjectContext) throws {
            for conflict in conflicts {
                guard let object = context.registeredObject(for: conflict.objectID),
                      case .string(let stored)? = conflict.currentSnapshot?.attributes["title"] else { continue }
                try object.setValue(stored + "+" + (try object.string("title")), forKey: "title")
            }
        }
    }

    /// Fails every save with a conflict, with an error of its own.
    final class RefusingPolicy: MergePolicy {
        struct Refused: Error {}
        init() { super.init(type: .overwrite) }
        override func resolve(optimisticLockingConflicts conflicts: [MergeConflict], in context: ManagedObjectContext) throws {
            throw Refused()
        }
    }

    @Test("A policy of one's own resolves conflicts itself, or fails the save", arguments: StoreUnderTest.all)
    func customPolicy(store: StoreUnderTest) throws {
        let (setup, mine, card) = try Self.storeConflict(store)
        mine.mergePolicy = RefusingPolicy()
        #expect(throws: RefusingPolicy.Refused.self) { try mine.save() }
        let checker = setup.freshContext()
        #expect(try checker.existingObject(with: card.objectID).string("title") == "T-store")

        mine.mergePolicy = JoiningPolicy()
        try mine.save()
        // The object is saved as the policy left it, whole, on top of the stored row.
        checker.reset()
        let stored = try checker.existingObject(with: card.objectID)
        #expect(try Self.values(stored) == ["T-store+T-mine", "B-mine", "C0"])
        #expect(!mine.hasChanges)
    }
}
