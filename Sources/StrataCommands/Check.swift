import ArgumentParser
import Collections
import Foundation
import Strata
@_spi(StoreImplementation) import StrataCore
import StrataJSON

/// `strata check STORE [--model M] [--json]`: the store's integrity (its file format's own
/// checks, key bookkeeping, dangling references, inverses). Exit status 0 when clean, 1 when
/// problems are found (a damaged file among them), 2 for bad usage or a file that cannot be
/// read at all.
struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check a store's integrity: checksums or SQLite's integrity check, key bookkeeping, dangling references and inverses; exit status 1 when any problem is found."
    )

    @Argument(help: "The store to check.")
    var store: String

    @OptionGroup var modelOption: SourceModelOption

    @Flag(name: .long, help: "Print a JSON object instead of text.")
    var json = false

    func run() throws {
        let url = try StoreFiles.existingFile(store)
        let type = try StoreFiles.sourceType(of: url, named: nil)
        let problems = try Self.problems(url: url, type: type, store: store, modelPath: modelOption.model)
        if json {
            print(JSONWriter.pretty(report(type: type, problems: problems)))
        } else {
            for problem in problems { print(line(for: problem)) }
            print(problems.isEmpty
                  ? "\(store): no problems found"
                  : "\(store): \(problems.count) problem\(problems.count == 1 ? "" : "s") found")
        }
        if !problems.isEmpty { throw ExitCode(1) }
    }

    /// `<store>: <Entity> <URI>: what is wrong`, or `<store>: what is wrong` for the whole file.
    private func line(for problem: IntegrityProblem) -> String {
        "\(store): \(problem.message)"
    }

    /// Every problem of the store at `url`: a file that its reader refuses as damaged is one
    /// problem (`damaged-file`); a file that cannot be read at all, or a model that does not
    /// fit, is a ``CommandFailure`` (exit status 2).
    static func problems(url: URL, type: StoreType, store: String, modelPath: String?) throws -> [IntegrityProblem] {
        let file = url.path
        let metadata: [String: PropertyListValue]
        do {
            metadata = try PersistentStoreCoordinator.metadataForPersistentStore(ofType: type, at: url)
        } catch let error as StoreError {
            if case .corruptStore = error { return [damaged(error, file: file)] }
            throw CommandFailure(String(describing: error))
        } catch {
            throw CommandFailure("\(store): \(error)")
        }
        guard let found = try StoreModel.find(modelPath: modelPath, url: url, type: type, store: store, metadata: metadata) else {
            throw CommandFailure("\(store): \(type) stores keep no compiled model; pass --model with the model it was written with")
        }
        guard StoreType.registeredTypes.contains(type) else {
            throw CommandFailure("\(store): \(type) stores are not supported by this build of strata")
        }
        let opened: any PersistentStore
        do {
            opened = try type.makeStore(StoreFiles.readOnlyDescription(url, type: type, model: found.model,
                                                                       ignoringVersionHashes: found.ignoresVersionHashes))
        } catch let error as StoreError {
            if case .corruptStore = error { return [damaged(error, file: file)] }
            throw CommandFailure(String(describing: error))
        } catch {
            throw CommandFailure("\(store): \(error)")
        }
        guard let checking = opened as? any IntegrityCheckingStore else {
            throw CommandFailure("\(store): \(type) stores cannot be checked by this build of strata")
        }
        do {
            return try checking.integrityProblems()
        } catch let error as StoreError {
            if case .corruptStore = error { return [damaged(error, file: file)] }
            throw CommandFailure(String(describing: error))
        }
    }

    /// A store error that says the file is damaged, as one problem.
    private static func damaged(_ error: StoreError, file: String) -> IntegrityProblem {
        guard case let .corruptStore(_, offset, reason) = error else {
            return IntegrityProblem(file: file, kind: .damagedFile(String(describing: error)))
        }
        return IntegrityProblem(file: file, kind: .damagedFile((offset.map { "at offset \($0): " } ?? "") + reason))
    }

    /// The `--json` report: `store`, `type`, `problems` (each `kind`, `entity`, `object`,
    /// `message` and, for a dangling reference, `relationship` and `destination`), `clean`.
    private func report(type: StoreType, problems: [IntegrityProblem]) -> JSONValue {
        let items: [JSONValue] = problems.map { problem in
            var item: OrderedDictionary<String, JSONValue> = [
                "kind": .string(problem.kindName),
                "entity": problem.entityName.map(JSONValue.string) ?? .null,
                "object": problem.objectID.map { .string($0.description) } ?? .null,
            ]
            switch problem.kind {
            case .danglingReference(let reference):
                item["relationship"] = .string(reference.relationship)
                item["destination"] = .string(reference.destinationDescription)
            case let .brokenInverse(relationship, destination, inverse):
                item["relationship"] = .string(relationship)
                item["destination"] = .string(destination.description)
                item["inverse"] = .string(inverse)
            case .damagedFile, .inconsistentBookkeeping:
                break
            }
            item["message"] = .string(problem.message)
            return .object(item)
        }
        return .object([
            "store": .string(store),
            "type": .string(type.rawValue),
            "problems": .array(items),
            "clean": .bool(problems.isEmpty),
        ])
    }
}
