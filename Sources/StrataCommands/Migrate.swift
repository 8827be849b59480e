import ArgumentParser
import Foundation
import Strata
@_spi(StoreImplementation) import StrataCore
import StrataMigration

/// `strata migrate STORE --model BUNDLE [--to-version V] [--mapping M …] [--output DST] [--force] [--dry-run] [--allow-loss]`.
struct Migrate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Bring a store written with an older version of a model to a newer one, step by step through the bundle's versions."
    )

    @Argument(help: "The store to migrate (in place unless --output is given).")
    var store: String

    @Option(name: .long, help: "The model: an .xcdatamodeld bundle (its versions are the chain), an .xcdatamodel folder or its contents file.")
    var model: String

    @Option(name: .customLong("to-version"), help: "The bundle's version to migrate to (default: its current version).")
    var toVersion: String?

    @Option(name: .long, help: ArgumentHelp(
        "A mapping model (.xcmappingmodel or compiled .cdm) or a folder of them; repeatable. A step whose two versions a mapping model connects runs it, the others are inferred.",
        valueName: "mapping"))
    var mapping: [String] = []

    @Option(name: .long, help: "Write the migrated store here and leave STORE as it is.")
    var output: String?

    @Flag(name: .long, help: "Replace the --output file if it exists.")
    var force = false

    @Flag(name: .customLong("dry-run"), help: "Print the plan (each step, inferred or mapped, and what it changes) and change nothing.")
    var dryRun = false

    @Flag(name: .customLong("allow-loss"), help: "Go on although a step drops stored data (a removed entity or property); each is listed first.")
    var allowLoss = false

    func run() throws {
        let url = try StoreFiles.existingFile(store)
        let type = try StoreFiles.sourceType(of: url, named: nil)
        let metadata = try StoreFiles.metadata(of: url, type: type)
        let (versions, target) = try Self.versions(model, toVersion: toVersion)
        let storedModel = type.storedModel(at: url, metadata: metadata)
        var planner = MigrationPlanner(versions: versions)
        if !mapping.isEmpty {
            do {
                planner.mappingProviders = [try MappingModelProvider(contentsOf: mapping.map { URL(fileURLWithPath: $0) })]
            } catch {
                throw CommandFailure(error.description)
            }
        }
        let plan: MigrationPlan
        do {
            plan = try planner.plan(storeMetadata: metadata, storedModel: storedModel, to: target.model, file: store)
        } catch {
            throw CommandFailure(error.description)
        }
        let dropped = plan.steps.flatMap(\.droppedData)
        if dryRun {
            print("\(store): \(type) store of version \(plan.storeVersion.name); migrating to \(target.name)")
            print(plan.description)
            if !dropped.isEmpty { print("drops stored data (needs --allow-loss): " + dropped.map(\.description).joined(separator: "; ")) }
            return
        }
        guard !plan.steps.isEmpty else {
            print("\(store): already of version \(target.name); nothing to migrate")
            return
        }
        if !dropped.isEmpty {
            guard allowLoss else {
                throw CommandFailure(lines: ["\(store): the migration would drop stored data; nothing written (pass --allow-loss to go on):"]
                                     + dropped.map { "  " + $0.description })
            }
            for change in dropped { Diagnostics.warning("\(store): \(change)") }
        }
        let progress = ProgressBar("migrating", unit: "%")
        defer { progress.finish() }
        let report: @Sendable (MigrationProgress) -> Void = { step in
            progress.update(Int(step.fractionCompleted * 100), of: 100, label: "step \(step.step + 1)/\(step.stepCount) \(step.title)")
        }
        let migrator = StoreMigrator(storeAt: url, type: type)
        do {
            if let output {
                let destination = URL(fileURLWithPath: output)
                try StoreFiles.requireDistinct(url, destination)
                try OutputFile(output, force: force).place(replacingSidecars: true) { temporary in
                    try migrator.migrate(plan, to: temporary, progress: report)
                }
            } else {
                try migrator.migrate(plan, progress: report)
            }
        } catch let failure as CommandFailure {
            throw failure
        } catch {
            throw CommandFailure(store, error)
        }
        progress.finish()
        print("\(output ?? store): migrated from \(plan.storeVersion.name) to \(target.name) in \(plan.steps.count) step(s)")
    }

    /// The versions of the model at `path`, oldest first, up to the target version, and the
    /// target.
    static func versions(_ path: String, toVersion: String?) throws -> (versions: [ModelVersion], target: ModelVersion) {
        let url = URL(fileURLWithPath: path)
        guard (try? ModelFile.kind(of: url)) == .bundle else {
            if let toVersion { throw CommandFailure("--to-version \(toVersion): \(path) is a single model, not a bundle of versions") }
            let single = ModelVersion(name: url.deletingPathExtension().lastPathComponent, model: try ModelOption.load(path))
            return ([single], single)
        }
        let bundle: ModelBundle
        do {
            bundle = try ModelBundle(at: url)
        } catch {
            throw CommandFailure(error.description)
        }
        let all = bundle.versionNames.compactMap { name in bundle.versions[name].map { ModelVersion(name: name, model: $0) } }
        let targetName = toVersion ?? bundle.currentVersionName
        guard let end = all.firstIndex(where: { $0.name == targetName }) else {
            throw CommandFailure("--to-version \(targetName): \(path) has no such version (it has \(bundle.versionNames.joined(separator: ", ")))")
        }
        return (Array(all[...end]), all[end])
    }
}
