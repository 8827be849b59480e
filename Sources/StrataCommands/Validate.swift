import ArgumentParser
import Foundation
import Strata
@_spi(StoreImplementation) import StrataCore

/// `strata validate STORE [--model M]`.
struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run every validation rule of the model on every object and report dangling references; exit status 1 when any fails."
    )

    @Argument(help: "The store to check.")
    var store: String

    @OptionGroup var modelOption: SourceModelOption

    func run() throws {
        let url = try StoreFiles.existingFile(store)
        let type = try StoreFiles.sourceType(of: url, named: nil)
        let (opened, model) = try StoreFiles.openForReading(url, type: type, modelPath: modelOption.model, store: store)
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        do {
            try coordinator.addPersistentStore(opened)
        } catch let failure as CommandFailure {
            throw failure
        } catch {
            throw CommandFailure(store, error)
        }
        let context = ManagedObjectContext(coordinator: coordinator)
        var failures: [ValidationFailure] = []
        var checked = 0
        let progress = ProgressBar("validating")
        defer { progress.finish() }
        do {
            let entities = model.entities.filter { !$0.isAbstract }.sorted { $0.name < $1.name }
            let total = try entities.reduce(0) { $0 + (try opened.matchingCount(StoreFetchRequest(entityNames: [$1.name]))) }
            progress.update(0, of: total)
            for entity in entities {
                var request = FetchRequest(entityName: entity.name)
                request.includesSubentities = false
                let objects = try context.fetch(request)
                for object in objects.sorted(by: { ($0.objectID.primaryKey ?? 0) < ($1.objectID.primaryKey ?? 0) }) {
                    do {
                        try object.validateForUpdate()
                    } catch let error as StrataCore.ValidationError {
                        failures += error.failures
                    }
                    checked += 1
                    progress.update(checked, of: total)
                }
                context.reset()
            }
        } catch {
            throw CommandFailure(store, error)
        }
        progress.finish()
        // Reading keeps going past a reference to a missing object (it reads as nil); each is a failure here.
        let dangling: [DanglingReference]
        do {
            dangling = try (opened as? any IntegrityCheckingStore)?.danglingReferences() ?? []
        } catch {
            throw CommandFailure("\(store): \(error)")
        }
        for failure in failures { print(failure.description) }
        for reference in dangling { print("\(reference.source.entityName) \(reference.source).\(reference.relationship) is a dangling reference: it names \(reference.destinationDescription), which the store does not hold") }
        var summary = "\(checked) objects checked, \(failures.count) validation failure\(failures.count == 1 ? "" : "s")"
        if !dangling.isEmpty { summary += ", \(dangling.count) dangling reference\(dangling.count == 1 ? "" : "s")" }
        print(summary)
        if !failures.isEmpty || !dangling.isEmpty { throw ExitCode(1) }
    }
}
