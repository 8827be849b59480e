// Strata live list: a fetched results controller on the main context shows employees in
// sections by department; a background context inserts, moves and deletes employees and saves;
// the main context merges each save, and the controller reports exactly which rows and sections
// changed. The list is drawn again after every batch.
//
//   swift run --package-path Samples/LiveList
import Foundation
import Strata

/// Prints each reported change and counts the batches.
final class Printer: FetchedResultsControllerDelegate {
    var batches = 0

    func controllerWillChangeContent(_ controller: any FetchedResultsControlling) {
        batches += 1
        print("-- batch \(batches)")
    }

    func controller(_ controller: any FetchedResultsControlling, didChange sectionInfo: FetchedResultsSectionInfo,
                    atSectionIndex sectionIndex: Int, for type: FetchedResultsChangeType) {
        print("   section \(type) at \(sectionIndex): \(sectionInfo.name)")
    }

    func controller(_ controller: any FetchedResultsControlling, didChange object: ManagedObject,
                    at indexPath: IndexPath?, for type: FetchedResultsChangeType, newIndexPath: IndexPath?) {
        func path(_ path: IndexPath?) -> String { path.map { "[\($0[0]), \($0[1])]" } ?? "-" }
        let name = (try? object.value(forKey: "name") as? String) ?? "?"
        switch type {
        case .insert: print("   insert \(name) at \(path(newIndexPath))")
        case .delete: print("   delete row \(path(indexPath))")
        case .move: print("   move \(name) \(path(indexPath)) -> \(path(newIndexPath))")
        case .update: print("   update \(name) at \(path(newIndexPath))")
        }
    }
}

/// Draws the list: each section and its employees.
func draw(_ controller: FetchedResultsController<ManagedObject>) {
    for section in controller.sections ?? [] {
        print("  [\(section.indexTitle ?? "")] \(section.name)")
        for employee in section.objects {
            let name = (try? employee.value(forKey: "name") as? String) ?? "?"
            let height = (try? employee.value(forKey: "height") as? Double) ?? 0
            print("      \(name)  \(Int(height)) cm")
        }
    }
}

do {
    let model = try ManagedObjectModel {
        EntityDescription("Employee") {
            Attribute("name", .string, optional: false)
            Attribute("height", .double)
            Attribute("sectionName", .string, optional: false)
        }
    }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("LiveList-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
    try coordinator.addPersistentStore(type: .sqlite, at: folder.appendingPathComponent("staff.sqlite"))

    // The main context and its controller: sections by department, the section key first.
    let context = ManagedObjectContext(coordinator: coordinator)
    for (name, height, section) in [("Ada", 170.0, "Design"), ("Grace", 165.0, "Engineering"), ("Linus", 180.0, "Engineering")] {
        let employee = try context.insertNewObject(forEntityName: "Employee")
        try employee.setValuesForKeys(["name": name, "height": height, "sectionName": section])
    }
    try context.save()
    let request = FetchRequest(entityName: "Employee", sortDescriptors: [
        ObjectSortDescriptor(key: "sectionName"), ObjectSortDescriptor(key: "height"),
    ])
    let controller = FetchedResultsController<ManagedObject>(
        fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: "sectionName")
    let printer = Printer()
    controller.delegate = printer
    try controller.performFetch()
    print("Staff:")
    draw(controller)

    // The background context's work, one step a round: it returns the IDs its save touched.
    let background = BackgroundContext(coordinator: coordinator, name: "writer")
    let steps: [@Sendable (ManagedObjectContext) throws -> Void] = [
        { try $0.insertEmployee("Margaret", 160, "Engineering") },
        { try $0.insertEmployee("Alan", 175, "Research") },
        { try $0.employee(named: "Linus")?.setValue(150.0, forKey: "height") },          // a move in its section
        { try $0.employee(named: "Ada")?.setValue("Research", forKey: "sectionName") },   // across sections; Design empties
        { if let grace = try $0.employee(named: "Grace") { try $0.delete(grace) } },
        { try $0.insertEmployee("Barbara", 168, "Design") },                              // a new section
    ]
    for step in steps {
        let saved = try background.performAndWait { context -> [String: [ManagedObjectID]] in
            try step(context)
            context.processPendingChanges()
            let updated = context.updatedObjects.map(\.objectID)
            let deleted = context.deletedObjects.map(\.objectID)
            let inserted = Array(context.insertedObjects)
            try context.save()
            return [ManagedObjectContext.insertedObjectsKey: inserted.map(\.objectID),
                    ManagedObjectContext.updatedObjectsKey: updated,
                    ManagedObjectContext.deletedObjectsKey: deleted]
        }
        try ManagedObjectContext.mergeChanges(fromRemoteContextSave: saved, into: [context])
        draw(controller)
        Thread.sleep(forTimeInterval: 0.4)
    }
    print("\(printer.batches) batches reported; \(controller.fetchedObjectIDs?.count ?? 0) employees in \(controller.sections?.count ?? 0) sections")
} catch {
    print("error: \(error)")
    exit(1)
}

extension ManagedObjectContext {
    func insertEmployee(_ name: String, _ height: Double, _ section: String) throws {
        let employee = try insertNewObject(forEntityName: "Employee")
        try employee.setValuesForKeys(["name": name, "height": height, "sectionName": section])
    }

    func employee(named name: String) throws -> ManagedObject? {
        try fetch(FetchRequest(entityName: "Employee", predicate: try ObjectPredicate(format: "name == %@", name))).first
    }
}
