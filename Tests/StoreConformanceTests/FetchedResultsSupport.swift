import Foundation
import Strata

// What the fetched results controller suites share: the seeds' models and a delegate that
// records every report and applies each batch to the sections it saw before. No tests live here.

/// The seeds' models: `Employee` in sections by `sectionName` (or by `department.name`, each
/// department cascading to its employees), `Event` by `timeStamp`.
enum ResultsModel {
    static let model: ManagedObjectModel = {
        do {
            return try ManagedObjectModel {
                EntityDescription("Employee") {
                    Attribute("name", .string)
                    Attribute("height", .double)
                    Attribute("birthday", .date)
                    Attribute("sectionName", .string)
                    Attribute("level", .integer32)
                    Relationship("department", to: "Department", inverse: "employees", deleteRule: .nullify)
                }
                EntityDescription("Department") {
                    Attribute("name", .string)
                    Relationship("employees", toMany: "Employee", inverse: "department", deleteRule: .cascade)
                }
                EntityDescription("Event") {
                    Attribute("timeStamp", .date)
                }
            }
        } catch {
            preconditionFailure("the results model is valid: \(error)")
        }
    }()

    /// Employees sorted by section name then height, as seed 18 asks.
    static var employees: FetchRequest<ManagedObject> {
        FetchRequest(entityName: "Employee", sortDescriptors: [
            ObjectSortDescriptor(key: "sectionName"), ObjectSortDescriptor(key: "height"),
        ])
    }
}

/// Records a controller's reports and keeps its own copy of the sections, changed only by
/// applying the reported changes as a table view applies batch updates: removals at old index
/// paths (last first), then insertions at new ones (first first).
final class RecordingDelegate: FetchedResultsControllerDelegate {
    /// Every call, as a line: `will`, `did`, `insert 0/1`, `delete 0/1`, `move 0/1>1/0`,
    /// `update 0/1`, `section+ 2 name`, `section- 2 name`.
    var calls: [String] = []
    /// The sections as the reports build them: names and object IDs.
    var sections: [(name: String, ids: [ManagedObjectID])] = []
    var snapshots: [ResultsSnapshot] = []
    var differences: [ResultsDifference] = []
    var titles: [String: String] = [:]
    /// Whether the controller sends the snapshot call (``FetchedResultsControllerDelegate/receivesSnapshots``).
    var receivesSnapshots = true

    private var removals: [IndexPath] = []
    private var insertions: [(IndexPath, ManagedObjectID)] = []
    private var sectionRemovals: [Int] = []
    private var sectionInsertions: [(Int, String)] = []
    private var inBatch = false

    /// Starts from the controller's sections.
    func start(from controller: any FetchedResultsControlling) {
        sections = controller.snapshot.sections.map { ($0.name, $0.objectIDs) }
    }

    func controllerWillChangeContent(_ controller: any FetchedResultsControlling) {
        precondition(!inBatch, "will-change twice")
        inBatch = true
        calls.append("will")
    }

    func controller(_ controller: any FetchedResultsControlling, didChange object: ManagedObject,
                    at indexPath: IndexPath?, for type: FetchedResultsChangeType, newIndexPath: IndexPath?) {
        func text(_ path: IndexPath?) -> String { path.map { "\($0[0])/\($0[1])" } ?? "-" }
        switch type {
        case .insert:
            calls.append("insert \(text(newIndexPath))")
            insertions.append((newIndexPath!, object.objectID))
        case .delete:
            calls.append("delete \(text(indexPath))")
            removals.append(indexPath!)
        case .move:
            calls.append("move \(text(indexPath))>\(text(newIndexPath))")
            removals.append(indexPath!)
            insertions.append((newIndexPath!, object.objectID))
        case .update:
            calls.append("update \(text(indexPath))")
        }
    }

    func controller(_ controller: any FetchedResultsControlling, didChange sectionInfo: FetchedResultsSectionInfo,
                    atSectionIndex sectionIndex: Int, for type: FetchedResultsChangeType) {
        switch type {
        case .insert:
            calls.append("section+ \(sectionIndex) \(sectionInfo.name)")
            sectionInsertions.append((sectionIndex, sectionInfo.name))
        case .delete:
            calls.append("section- \(sectionIndex) \(sectionInfo.name)")
            sectionRemovals.append(sectionIndex)
        default:
            calls.append("section? \(type)")
        }
    }

    func controllerDidChangeContent(_ controller: any FetchedResultsControlling) {
        precondition(inBatch, "did-change without will-change")
        inBatch = false
        calls.append("did")
        for path in removals.sorted(by: { ($0[0], $0[1]) > ($1[0], $1[1]) }) { sections[path[0]].ids.remove(at: path[1]) }
        for index in sectionRemovals.sorted(by: >) {
            precondition(sections[index].ids.isEmpty, "a deleted section still holds rows")
            sections.remove(at: index)
        }
        for (index, name) in sectionInsertions.sorted(by: { $0.0 < $1.0 }) { sections.insert((name, []), at: index) }
        for (path, id) in insertions.sorted(by: { ($0.0[0], $0.0[1]) < ($1.0[0], $1.0[1]) }) {
            sections[path[0]].ids.insert(id, at: path[1])
        }
        removals = []; insertions = []; sectionRemovals = []; sectionInsertions = []
    }

    func controller(_ controller: any FetchedResultsControlling, didChangeContentWith snapshot: ResultsSnapshot,
                    difference: ResultsDifference) {
        snapshots.append(snapshot)
        differences.append(difference)
    }

    func controller(_ controller: any FetchedResultsControlling, sectionIndexTitleForSectionName sectionName: String) -> String? {
        titles[sectionName]
    }

    /// The calls recorded since the last time, emptied.
    func takeCalls() -> [String] {
        defer { calls = [] }
        return calls
    }

    /// The recorded sections as a snapshot.
    var snapshot: ResultsSnapshot {
        ResultsSnapshot(sections: sections.map { .init(name: $0.name, objectIDs: $0.ids) })
    }
}
