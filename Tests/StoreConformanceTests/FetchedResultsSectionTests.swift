import Foundation
import Strata
import StrataTestSupport
import Testing

/// The fetched results controller's sections on every store type: the rule that the first sort
/// key orders the objects by section (Core Data's, no stricter), sections through a to-one
/// relationship, and cascade deletes.
@Suite("Fetched results controller sections", .serialized)
struct FetchedResultsSectionTests {
    private func employee(_ context: ManagedObjectContext, _ name: String, level: Int32, height: Double,
                          section: String) throws -> ManagedObject {
        try context.insert("Employee", ["name": name, "level": level, "height": height, "sectionName": section])
    }

    private func controller(_ request: FetchRequest<ManagedObject>, _ context: ManagedObjectContext,
                            _ keyPath: String) -> FetchedResultsController<ManagedObject> {
        FetchedResultsController<ManagedObject>(fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: keyPath)
    }

    /// Employees by `level` then `height`, in sections by `sectionName`.
    private static let byLevel = FetchRequest(entityName: "Employee", sortDescriptors: [
        ObjectSortDescriptor(key: "level"), ObjectSortDescriptor(key: "height"),
    ])

    @Test("A request without sort descriptors, or whose first sort key does not order the objects by section, is refused",
          arguments: StoreUnderTest.all)
    func refusedRequests(store: StoreUnderTest) throws {
        let context = try store.makeContext(model: ResultsModel.model)
        let unsorted = controller(FetchRequest(entityName: "Employee"), context, "sectionName")
        #expect(throws: FetchedResultsError.missingSortDescriptors(entity: "Employee")) { try unsorted.performFetch() }
        _ = try employee(context, "ann", level: 0, height: 10, section: "1")
        _ = try employee(context, "bob", level: 0, height: 20, section: "2")
        _ = try employee(context, "cid", level: 0, height: 30, section: "1")
        try context.save()
        let byHeight = FetchRequest(entityName: "Employee", sortDescriptors: [ObjectSortDescriptor(key: "height")])
        let misordered = controller(byHeight, context, "sectionName")
        let error = FetchedResultsError.sectionsOutOfOrder(sectionNameKeyPath: "sectionName", firstSortKey: "height", sectionName: "1")
        #expect(throws: error) { try misordered.performFetch() }
        #expect(misordered.sections == nil)
        #expect(error.description.contains("'height'") && error.description.contains("'sectionName'"))
    }

    @Test("A first sort key other than the section key path is accepted when it orders the objects by section",
          arguments: StoreUnderTest.all)
    func firstSortKeyInSectionOrder(store: StoreUnderTest) throws {
        let context = try store.makeContext(model: ResultsModel.model)
        _ = try employee(context, "ann", level: 1, height: 10, section: "a")
        _ = try employee(context, "bob", level: 1, height: 20, section: "a")
        _ = try employee(context, "cid", level: 2, height: 5, section: "b")
        let dan = try employee(context, "dan", level: 5, height: 1, section: "e")
        try context.save()

        let controller = controller(Self.byLevel, context, "sectionName")
        let delegate = RecordingDelegate()
        controller.delegate = delegate
        try controller.performFetch()
        delegate.start(from: controller)
        #expect(controller.sections?.map(\.name) == ["a", "b", "e"])
        #expect(controller.sections?.map(\.numberOfObjects) == [2, 1, 1])

        // Into a new section between two, then into an existing one.
        _ = try employee(context, "eve", level: 3, height: 1, section: "c")
        context.processPendingChanges()
        #expect(delegate.takeCalls() == ["will", "section+ 2 c", "insert 2/0", "did"])
        _ = try employee(context, "fay", level: 2, height: 1, section: "b")
        context.processPendingChanges()
        #expect(delegate.takeCalls() == ["will", "insert 1/0", "did"])
        try context.save()
        _ = delegate.takeCalls()   // the permanent IDs

        // Both keys change together: a move across sections, the old one emptied.
        try dan.setValuesForKeys(["level": Int32(3), "height": 2.0, "sectionName": "c"])
        try context.save()
        #expect(delegate.takeCalls() == ["will", "section- 3 e", "move 3/0>2/1", "did"])
        try dan.setValue("dan 2", forKey: "name")
        try context.save()
        #expect(delegate.takeCalls() == ["will", "update 2/1", "did"])
        #expect(delegate.snapshot == controller.snapshot)
        let fresh = self.controller(Self.byLevel, context.freshContext(), "sectionName")
        try fresh.performFetch()
        #expect(fresh.snapshot == controller.snapshot)
        #expect(controller.sections?.map(\.name) == ["a", "b", "c"])

        // An object whose level puts it inside another section joins that section (the sections
        // stay runs of the order); a new fetch refuses the request from then on.
        let gus = try employee(context, "gus", level: 1, height: 0, section: "c")
        try context.save()
        #expect(controller.indexPath(forObject: gus) == IndexPath(indexes: [0, 0]))
        #expect(delegate.snapshot == controller.snapshot)
        let refused = self.controller(Self.byLevel, context.freshContext(), "sectionName")
        #expect(throws: FetchedResultsError.sectionsOutOfOrder(sectionNameKeyPath: "sectionName", firstSortKey: "level", sectionName: "c")) {
            try refused.performFetch()
        }
    }

    @Test("Employees by department name: deleting a department reports its cascade-deleted employees",
          arguments: StoreUnderTest.all)
    func cascadeDeletes(store: StoreUnderTest) throws {
        let context = try store.makeContext(model: ResultsModel.model)
        let engineering = try context.insert("Department", ["name": "Eng"])
        let operations = try context.insert("Department", ["name": "Ops"])
        for (name, department) in [("ann", engineering), ("bob", engineering), ("cid", operations), ("dan", operations)] {
            try context.insert("Employee", ["name": name, "department": department])
        }
        try context.save()
        let request = FetchRequest(entityName: "Employee", sortDescriptors: [
            ObjectSortDescriptor(key: "department.name"), ObjectSortDescriptor(key: "name"),
        ])

        // In the context itself.
        let controller = controller(request, context, "department.name")
        let delegate = RecordingDelegate()
        controller.delegate = delegate
        try controller.performFetch()
        delegate.start(from: controller)
        #expect(controller.sections?.map(\.name) == ["Eng", "Ops"])
        #expect(try controller.sections?[1].objects.map { try $0.string("name") } == ["cid", "dan"])

        // In a child context, which cascades when it processes its changes.
        let child = ManagedObjectContext(parent: context)
        let childController = self.controller(request, child, "department.name")
        let childDelegate = RecordingDelegate()
        childController.delegate = childDelegate
        try childController.performFetch()
        childDelegate.start(from: childController)
        try child.delete(try child.existingObject(with: operations.objectID))
        child.processPendingChanges()
        let childCalls = childDelegate.takeCalls()
        #expect(childCalls.first == "will" && childCalls.last == "did")
        #expect(Set(childCalls) == ["will", "section- 1 Ops", "delete 1/1", "delete 1/0", "did"])
        #expect(childController.sections?.map(\.name) == ["Eng"])
        #expect(childDelegate.snapshot == childController.snapshot)
        #expect(delegate.takeCalls().isEmpty)   // nothing saved to the parent yet

        try context.delete(engineering)
        try context.save()
        let calls = delegate.takeCalls()
        #expect(calls.first == "will" && calls.last == "did")
        #expect(Set(calls) == ["will", "section- 0 Eng", "delete 0/1", "delete 0/0", "did"])
        #expect(controller.sections?.map(\.name) == ["Ops"])
        #expect(delegate.snapshot == controller.snapshot)
        let fresh = self.controller(request, context.freshContext(), "department.name")
        try fresh.performFetch()
        #expect(fresh.snapshot == controller.snapshot)
        #expect(try context.count("Employee") == 2)
    }
}
