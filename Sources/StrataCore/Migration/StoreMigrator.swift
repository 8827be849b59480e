import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// How far a migration is.
public struct MigrationProgress: Sendable, Hashable {
    /// The step running, from 0.
    public var step: Int
    /// How many steps the plan has.
    public var stepCount: Int
    /// The running step's title.
    public var title: String
    /// How much of the running step is done (0…1).
    public var fractionOfStep: Double

    /// How much of the whole migration is done (0…1).
    public var fractionCompleted: Double {
        stepCount == 0 ? 1 : min(1, (Double(step) + fractionOfStep) / Double(stepCount))
    }
}

/// Runs a ``MigrationPlan`` on a store file, crash-safely.
///
/// A plan of one inferred step on a store type that migrates in place (SQLite) runs inside one
/// transaction of the store file: SQLite's journal leaves the old store or the new one. Any other
/// plan works on a copy beside the store (`.<name>.<pid>-<UUID>.strata-tmp`): the store file and
/// its journals stay byte for byte as they were until every step has run and the copy is
/// complete; then the copy replaces the store by a rename. A failure, or a kill, leaves the
/// store as it was (a killed run leaves its copy, which the next run of `strata` removes).
public struct StoreMigrator: Sendable {
    /// The store's file.
    public var url: URL
    /// The store's type.
    public var type: StoreType

    /// A migrator for the store of `type` at `url`.
    public init(storeAt url: URL, type: StoreType) {
        self.url = url
        self.type = type
    }

    /// Runs `plan` on the store, or writes the migrated store to `output` and leaves the store
    /// as it is.
    ///
    /// - Parameters:
    ///   - plan: the steps to run, from ``MigrationPlanner``.
    ///   - output: where to write the migrated store (replaced when it exists); nil migrates the
    ///     store itself.
    ///   - progress: called as the migration goes.
    /// - Throws: ``MigrationError``, or the ``StoreError`` of reading or writing a store; the
    ///   store is then as it was.
    public func migrate(_ plan: MigrationPlan, to output: URL? = nil,
                        progress: @escaping @Sendable (MigrationProgress) -> Void = { _ in }) throws {
        let count = plan.steps.count
        func reporter(_ index: Int) -> @Sendable (Double) -> Void {
            let title = plan.steps[index].title
            return { fraction in progress(MigrationProgress(step: index, stepCount: count, title: title, fractionOfStep: fraction)) }
        }
        let family = type.inPlaceMigratingFamily
        if output == nil, count == 1, let family, case .inferred(let mapping) = plan.steps[0].kind,
           plan.steps[0].willMigrate == nil, plan.steps[0].didMigrate == nil {
            try run(plan.steps[0]) { try family.migrateInPlace(at: url, with: mapping, progress: reporter(0)) }
            reporter(0)(1)
            return
        }
        guard count > 0 || output != nil else { return }
        let destination = output ?? url
        var working = temporaryURL(for: destination)
        var made = [working]
        defer { for each in made { removeStoreFiles(at: each) } }
        if let family { try family.copyStoreFile(at: url, to: working) } else { try copyFile(url, to: working) }
        for (index, step) in plan.steps.enumerated() {
            reporter(index)(0)
            if let willMigrate = step.willMigrate {
                try run(step) { try withStore(at: working, model: step.source.model, willMigrate) }
            }
            switch step.kind {
            case .inferred(let mapping):
                if let family {
                    try run(step) { try family.migrateInPlace(at: working, with: mapping, progress: reporter(index)) }
                } else {
                    let next = temporaryURL(for: destination)
                    made.append(next)
                    try run(step) { try rewrite(working, to: next, with: mapping) }
                    removeStoreFiles(at: working)
                    working = next
                }
            case .mapped(let mapped):
                let next = temporaryURL(for: destination)
                made.append(next)
                try run(step) {
                    try mapped.migrate(MappedMigrationRequest(
                        sourceURL: working, sourceType: type, sourceModel: step.source.model, destinationURL: next,
                        destinationType: type, destinationModel: step.destination.model, progress: reporter(index)))
                }
                removeStoreFiles(at: working)
                working = next
            }
            if let didMigrate = step.didMigrate {
                try run(step) { try withStore(at: working, model: step.destination.model, didMigrate) }
            }
            reporter(index)(1)
        }
        if output == nil { try family?.prepareForReplacement(at: url) }
        try move(working, to: destination)
        if output == nil {
            for suffix in type.sidecarSuffixes { unlink(url.path + suffix) }
        }
        syncFolder(of: destination)
    }

    /// Runs one step's work, turning a failure that is not a migration or store error into
    /// ``MigrationError/stepFailed(step:reason:)``.
    private func run(_ step: MigrationStep, _ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as MigrationError {
            throw error
        } catch let error as StoreError {
            throw MigrationError.stepFailed(step: step.title, reason: error.description)
        } catch {
            throw MigrationError.stepFailed(step: step.title, reason: "\(error)")
        }
    }

    /// Opens the store at `url` with `model`, hands a coordinator holding it to `body`, and
    /// closes it.
    private func withStore(at url: URL, model: ManagedObjectModel, _ body: (PersistentStoreCoordinator) throws -> Void) throws {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        let store = try coordinator.addPersistentStore(type: type, at: url)
        try body(coordinator)
        try coordinator.remove(store)
    }

    /// Reads the store at `source` with the mapping's source model and writes it, migrated, as a
    /// new store at `destination`.
    private func rewrite(_ source: URL, to destination: URL, with mapping: InferredMapping) throws {
        let image = try type.makeStore(StoreDescription(type: type, url: source, model: mapping.source,
                                                         options: [StoreOption.readOnly: .bool(true)])).contentsImage()
        let migrated = try mapping.migrate(image)
        try type.makeStore(StoreDescription(type: type, url: destination, model: mapping.destination)).replaceContents(with: migrated)
    }

    /// A new temporary path beside `destination`, in the form `strata`'s commands clean up after
    /// a killed run.
    private func temporaryURL(for destination: URL) -> URL {
        destination.deletingLastPathComponent().appendingPathComponent(
            ".\(destination.lastPathComponent).\(getpid())-\(UUID().uuidString).strata-tmp")
    }

    /// Copies the file at `source` to `destination`.
    private func copyFile(_ source: URL, to destination: URL) throws {
        do {
            try FileManager.default.copyItem(at: source, to: destination)
        } catch {
            throw StoreError.io(file: source.path, operation: "copy", reason: error.localizedDescription)
        }
    }

    /// Renames `source` over `destination`.
    private func move(_ source: URL, to destination: URL) throws {
        guard rename(source.path, destination.path) == 0 else {
            throw StoreError.io(file: destination.path, operation: "rename", reason: String(cString: strerror(errno)))
        }
    }

    /// Removes a temporary store and its sidecars, if they are there.
    private func removeStoreFiles(at url: URL) {
        for suffix in [""] + ["-wal", "-shm", "-journal"] { unlink(url.path + suffix) }
    }

    /// Flushes the folder of `url`, so that the rename outlives a power loss.
    private func syncFolder(of url: URL) {
        let descriptor = open(url.deletingLastPathComponent().path, O_RDONLY)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }
}
