import Foundation
import Strata
import StrataTestSupport
import Testing

/// The controller against a model of it: random inserts, updates of the sort key, the section
/// key, the predicate's key and other keys, and deletes, over many saves; after each batch the
/// sections built by applying the reported changes are exactly a fresh fetch's.
@Suite("Fetched results controller, randomized")
struct FetchedResultsModelTests {
    /// A small seeded generator (SplitMix64), so a failure replays.
    struct SeededGenerator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    struct Configuration: Sendable, CustomStringConvertible {
        var sectioned: Bool
        var batchSize: Int
        var seed: UInt64
        var description: String { "sectioned: \(sectioned), batch: \(batchSize), seed: \(seed)" }
    }

    static let configurations = [
        Configuration(sectioned: true, batchSize: 0, seed: 1),
        Configuration(sectioned: false, batchSize: 7, seed: 2),
        Configuration(sectioned: true, batchSize: 5, seed: 3),
    ]

    private func request(_ configuration: Configuration) throws -> FetchRequest<ManagedObject> {
        var request = FetchRequest(entityName: "Employee")
        request.sortDescriptors = configuration.sectioned
            ? [ObjectSortDescriptor(key: "sectionName"), ObjectSortDescriptor(key: "height", ascending: false)]
            : [ObjectSortDescriptor(key: "height")]
        request.predicate = try ObjectPredicate(format: "level < 3")
        request.fetchBatchSize = configuration.batchSize
        return request
    }

    @Test("Applying each reported batch to the previous sections gives a fresh fetch's sections",
          arguments: StoreUnderTest.all, configurations)
    func randomChanges(store: StoreUnderTest, configuration: Configuration) throws {
        var random = SeededGenerator(state: configuration.seed)
        let context = try store.makeContext(model: ResultsModel.model)
        let request = try request(configuration)
        let keyPath = configuration.sectioned ? "sectionName" : nil
        let sections = ["a", "b", "c", "d", "e"]
        var live: [ManagedObject] = []
        var counter = 0
        func insert() throws {
            counter += 1
            live.append(try context.insert("Employee", [
                "name": "e\(counter)", "height": Double(Int.random(in: 0..<8, using: &random)),
                "sectionName": sections.randomElement(using: &random)!, "level": Int32.random(in: 0..<4, using: &random),
            ]))
        }
        for _ in 0..<12 { try insert() }
        try context.save()

        let controller = FetchedResultsController<ManagedObject>(
            fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: keyPath)
        let delegate = RecordingDelegate()
        controller.delegate = delegate
        try controller.performFetch()
        delegate.start(from: controller)
        var previous = controller.snapshot

        for round in 0..<40 {
            for _ in 0..<Int.random(in: 1...6, using: &random) {
                let choice = Int.random(in: 0..<6, using: &random)
                if choice == 0 || live.isEmpty { try insert(); continue }
                let index = Int.random(in: 0..<live.count, using: &random)
                let object = live[index]
                switch choice {
                case 1: try object.setValue(Double(Int.random(in: 0..<8, using: &random)), forKey: "height")
                case 2: try object.setValue(sections.randomElement(using: &random)!, forKey: "sectionName")
                case 3: try object.setValue(Int32.random(in: 0..<4, using: &random), forKey: "level")
                case 4: try object.setValue("renamed \(round)", forKey: "name")
                default:
                    try context.delete(object)
                    live.remove(at: index)
                }
            }
            if Bool.random(using: &random) {
                context.processPendingChanges()
                try check(controller, delegate, &previous, context, request, keyPath, "\(store) \(configuration) round \(round) processed")
            }
            try context.save()
            try check(controller, delegate, &previous, context, request, keyPath, "\(store) \(configuration) round \(round) saved")
        }
    }

    private func check(_ controller: FetchedResultsController<ManagedObject>, _ delegate: RecordingDelegate,
                       _ previous: inout ResultsSnapshot, _ context: ManagedObjectContext, _ request: FetchRequest<ManagedObject>,
                       _ keyPath: String?, _ label: String) throws {
        let fresh = FetchedResultsController<ManagedObject>(fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: keyPath)
        try fresh.performFetch()
        #expect(delegate.snapshot == fresh.snapshot, "\(label): reports applied")
        #expect(controller.snapshot == fresh.snapshot, "\(label): controller")
        // The differences of the batches since the last check, applied in turn.
        let applied = delegate.differences.reduce(previous) { $1.applied(to: $0) }
        #expect(applied == controller.snapshot, "\(label): differences")
        delegate.differences = []
        // In order, as a plain fetch gives it (equal keys aside).
        let fetched = try context.fetch(request)
        #expect(fetched.count == controller.fetchedObjectIDs?.count, "\(label): count")
        let ids = controller.fetchedObjectIDs ?? []
        for (position, id) in ids.enumerated() {
            let path = controller.indexPath(forObject: try context.existingObject(with: id))
            #expect(path.map { controller.object(at: $0).objectID } == id, "\(label): index path of \(position)")
        }
        previous = controller.snapshot
        _ = delegate.takeCalls()
    }
}
