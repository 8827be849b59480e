import Foundation
import Strata
import StrataTestSupport
import Testing

/// A cascade that reaches a controller through a merged save, on every store type: another
/// context deletes a department, which cascades to its employees in the controller's results;
/// the controller reports each cascaded row's delete at its old index path.
@Suite("Fetched results controller, cascades merged from another context", .serialized)
struct FetchedResultsMergedCascadeTests {
    /// Employees by department name, then name, in sections by department.
    private static let byDepartment = FetchRequest(entityName: "Employee", sortDescriptors: [
        ObjectSortDescriptor(key: "department.name"), ObjectSortDescriptor(key: "name"),
    ])
    /// Employees by name alone, one section: the cascaded rows are interleaved with the others.
    private static let byName = FetchRequest(entityName: "Employee", sortDescriptors: [ObjectSortDescriptor(key: "name")])

    /// Two departments, saved: Eng (ann, cid, eve) and Ops (bob, dan, fay); returns Ops's ID.
    private func seed(_ context: ManagedObjectContext) throws -> ManagedObjectID {
        let engineering = try context.insert("Department", ["name": "Eng"])
        let operations = try context.insert("Department", ["name": "Ops"])
        for (name, department) in [("ann", engineering), ("bob", operations), ("cid", engineering),
                                   ("dan", operations), ("eve", engineering), ("fay", operations)] {
            _ = try context.insert("Employee", ["name": name, "department": department])
        }
        try context.save()
        return operations.objectID
    }

    /// A controller on `context` with a recording delegate, fetched.
    private func follow(_ request: FetchRequest<ManagedObject>, _ context: ManagedObjectContext,
                        sections keyPath: String?) throws -> (FetchedResultsController<ManagedObject>, RecordingDelegate) {
        let controller = FetchedResultsController<ManagedObject>(fetchRequest: request, managedObjectContext: context,
                                                                 sectionNameKeyPath: keyPath)
        let delegate = RecordingDelegate()
        controller.delegate = delegate
        try controller.performFetch()
        delegate.start(from: controller)
        return (controller, delegate)
    }

    /// Checks both controllers after the merge: the deletes at the old index paths, and sections
    /// equal to a fresh fetch's.
    private func expectCascadeReported(sectioned: (FetchedResultsController<ManagedObject>, RecordingDelegate),
                                       flat: (FetchedResultsController<ManagedObject>, RecordingDelegate),
                                       in context: ManagedObjectContext) throws {
        let sectionCalls = sectioned.1.takeCalls()
        #expect(sectionCalls.first == "will" && sectionCalls.last == "did")
        #expect(Set(sectionCalls) == ["will", "section- 1 Ops", "delete 1/0", "delete 1/1", "delete 1/2", "did"])
        #expect(sectionCalls.count == 6)
        #expect(sectioned.0.sections?.map(\.name) == ["Eng"])
        #expect(sectioned.1.snapshot == sectioned.0.snapshot)

        let flatCalls = flat.1.takeCalls()
        #expect(flatCalls.first == "will" && flatCalls.last == "did")
        #expect(Set(flatCalls) == ["will", "delete 0/1", "delete 0/3", "delete 0/5", "did"])
        #expect(flatCalls.count == 5)
        #expect(flat.1.snapshot == flat.0.snapshot)

        let fresh = context.freshContext()
        let freshSectioned = try follow(Self.byDepartment, fresh, sections: "department.name").0
        let freshFlat = try follow(Self.byName, fresh, sections: nil).0
        #expect(sectioned.0.snapshot == freshSectioned.snapshot)
        #expect(flat.0.snapshot == freshFlat.snapshot)
        #expect(try flat.0.fetchedObjects?.map { try $0.string("name") } == ["ann", "cid", "eve"])
    }

    @Test("Merged with mergeChanges(fromContextDidSave:)", arguments: StoreUnderTest.all)
    func mergedDidSave(store: StoreUnderTest) throws {
        let writer = try store.makeContext(model: ResultsModel.model)
        let operations = try seed(writer)
        let reader = writer.freshContext()
        let sectioned = try follow(Self.byDepartment, reader, sections: "department.name")
        let flat = try follow(Self.byName, reader, sections: nil)
        #expect(sectioned.0.sections?.map(\.numberOfObjects) == [3, 3])

        let recorder = NotificationRecorder(writer)
        try writer.delete(try writer.existingObject(with: operations))
        try writer.save()
        let changes = try #require(recorder.notifications.last { $0.name == ManagedObjectContext.didSaveNotification }?.changes)
        #expect(sectioned.1.calls.isEmpty && flat.1.calls.isEmpty)   // nothing until the merge
        let note = Notification(name: ManagedObjectContext.didSaveNotification, object: nil,
                                userInfo: [ManagedObjectContext.changesUserInfoKey: changes])
        try reader.mergeChanges(fromContextDidSave: note)
        try expectCascadeReported(sectioned: sectioned, flat: flat, in: writer)
    }

    @Test("Merged by a sibling root context that merges automatically", arguments: StoreUnderTest.all)
    func mergedAutomatically(store: StoreUnderTest) throws {
        let writer = try store.makeContext(model: ResultsModel.model)
        let operations = try seed(writer)
        let reader = writer.freshContext()
        reader.automaticallyMergesChangesFromParent = true
        let sectioned = try follow(Self.byDepartment, reader, sections: "department.name")
        let flat = try follow(Self.byName, reader, sections: nil)

        try writer.delete(try writer.existingObject(with: operations))
        try writer.save()
        // A confined context merges the saves that arrived when it is next used.
        reader.processPendingChanges()
        try expectCascadeReported(sectioned: sectioned, flat: flat, in: writer)
    }
}
