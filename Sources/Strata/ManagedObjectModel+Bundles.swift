import Foundation
import StrataCore
import StrataModelFiles

/// Why a model could not be found or loaded from bundles' resources.
public enum ModelResourceError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No bundle holds `name.momd`, `name.mom` or `name.xcdatamodeld`; `searched` lists the
    /// resource folders looked in.
    case modelNotFound(name: String, searched: [String])
    /// A compiled model folder (`.momd`) names a current version it does not hold, or holds
    /// none.
    case missingCompiledVersion(folder: String, version: String)
    /// Two models merged define an entity of the same name (Core Data refuses it too).
    case duplicateEntity(name: String, models: [String])
    /// The file at `file` is not a model: `reason` says what reading it found.
    case unreadable(file: String, reason: String)

    /// One line that says what is wrong and where.
    public var description: String {
        switch self {
        case let .modelNotFound(name, searched):
            "no model named '\(name)' (.momd, .mom or .xcdatamodeld) in \(searched.isEmpty ? "no bundle" : searched.joined(separator: ", "))"
        case let .missingCompiledVersion(folder, version):
            "\(folder): the current version '\(version)' is not among its .mom files"
        case let .duplicateEntity(name, models):
            "cannot merge models \(models.joined(separator: ", ")): both define an entity '\(name)'"
        case let .unreadable(file, reason): "\(file): \(reason)"
        }
    }
}

extension ManagedObjectModel {
    /// The extensions of model resources, in the order a name is looked up: Xcode's compiled
    /// model folder and file first (what Core Data reads), then the model source that SwiftPM
    /// copies as it is on Linux.
    public static let resourceExtensions = ["momd", "mom", "xcdatamodeld", "xcdatamodel"]

    /// Reads the model at `url`: a compiled `.momd` folder (its current version, named by its
    /// `VersionInfo.plist`) or `.mom` file, or an Xcode `.xcdatamodeld` bundle (its current
    /// version, as Xcode chooses it: `ModelBundle.currentVersionName`) or `.xcdatamodel`.
    ///
    /// - Throws: ``ModelResourceError``, `ModelFileError` or `CompiledModelError` naming
    ///   the file at fault.
    public static func model(contentsOf url: URL) throws -> ManagedObjectModel {
        switch url.pathExtension {
        case "momd": return try compiledModel(inFolder: url)
        case "mom":
            let data: Data
            do {
                data = try Data(contentsOf: url)
            } catch {
                throw ModelResourceError.unreadable(file: url.path, reason: "\(error)")
            }
            return try CompiledModel.model(fromArchive: data)
        case "xcdatamodeld": return try ModelBundle(at: url).currentModel
        default: return try ModelFile.read(at: url).model
        }
    }

    /// The model named `name` in the first of `bundles` whose resources hold one (Core Data's
    /// lookup for `NSPersistentContainer(name:)`): `name.momd`, `name.mom`, `name.xcdatamodeld`
    /// or `name.xcdatamodel`, in that order.
    ///
    /// ```swift
    /// let model = try ManagedObjectModel.named("Moody", in: [.module])   // SwiftPM resources
    /// ```
    ///
    /// - Throws: ``ModelResourceError/modelNotFound(name:searched:)``, or what reading it throws.
    public static func named(_ name: String, in bundles: [Bundle] = [.main]) throws -> ManagedObjectModel {
        for bundle in bundles {
            for ext in resourceExtensions {
                if let url = bundle.url(forResource: name, withExtension: ext) {
                    return try model(contentsOf: url)
                }
            }
        }
        throw ModelResourceError.modelNotFound(name: name, searched: bundles.map { $0.resourceURL?.path ?? $0.bundlePath })
    }

    /// Every model among the resources of `bundles` merged into one (Core Data's
    /// `mergedModel(from:)`): each model once, by name, its compiled form preferred to its
    /// source; the current version of a versioned one.
    ///
    /// - Throws: ``ModelResourceError/duplicateEntity(name:models:)`` when two models define
    ///   an entity of the same name, or what reading one throws.
    public static func mergedModel(from bundles: [Bundle]) throws -> ManagedObjectModel {
        var found: [(name: String, url: URL)] = []
        for bundle in bundles {
            guard let folder = bundle.resourceURL,
                  let items = try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            else { continue }
            var byName: [String: URL] = [:]
            for item in items where resourceExtensions.contains(item.pathExtension) {
                let name = item.deletingPathExtension().lastPathComponent
                let rank = resourceExtensions.firstIndex(of: item.pathExtension) ?? resourceExtensions.count
                if let known = byName[name], (resourceExtensions.firstIndex(of: known.pathExtension) ?? 0) <= rank { continue }
                byName[name] = item
            }
            found += byName.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        }
        return try merged(found.map { ($0.name, try model(contentsOf: $0.url)) })
    }

    /// `models` merged into one: every entity, configuration and fetch request template.
    ///
    /// - Throws: ``ModelResourceError/duplicateEntity(name:models:)``.
    public static func merged(_ models: [(name: String, model: ManagedObjectModel)]) throws -> ManagedObjectModel {
        var owners: [String: String] = [:]
        var entities: [EntityDescription] = []
        var configurations: [String: [String]] = [:]
        var templates: [String: FetchRequestTemplate] = [:]
        for (name, model) in models {
            for entity in model.entities {
                if let owner = owners[entity.name] {
                    throw ModelResourceError.duplicateEntity(name: entity.name, models: [owner, name])
                }
                owners[entity.name] = name
                entities.append(entity)
            }
            for (configuration, members) in model.configurations { configurations[configuration, default: []] += members }
            templates.merge(model.fetchRequestTemplates) { first, _ in first }
        }
        return try ManagedObjectModel(entities: entities, configurations: configurations, fetchRequestTemplates: templates)
    }

    /// The current version of a compiled model folder: `VersionInfo.plist` names it
    /// (`NSManagedObjectModel_CurrentVersionName`); a folder without one holds a single `.mom`.
    private static func compiledModel(inFolder folder: URL) throws -> ManagedObjectModel {
        let info = folder.appendingPathComponent("VersionInfo.plist")
        var current: String?
        if let data = try? Data(contentsOf: info) {
            let plist = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any]
            current = plist?["NSManagedObjectModel_CurrentVersionName"] as? String
        }
        if current == nil {
            let moms = (try? FileManager.default.contentsOfDirectory(atPath: folder.path))?.filter { $0.hasSuffix(".mom") } ?? []
            guard moms.count == 1 else {
                throw ModelResourceError.missingCompiledVersion(folder: folder.path, version: "(no VersionInfo.plist)")
            }
            current = String(moms[0].dropLast(4))
        }
        let version = current ?? ""
        let file = folder.appendingPathComponent(version + ".mom")
        guard FileManager.default.fileExists(atPath: file.path) else {
            throw ModelResourceError.missingCompiledVersion(folder: folder.path, version: version)
        }
        return try model(contentsOf: file)
    }
}

extension PersistentContainer {
    /// Creates a container whose model is the one named `name` among the resources of
    /// `bundles` (``ManagedObjectModel/named(_:in:)``), as Core Data's `init(name:)` does with
    /// the main bundle; a SwiftPM package passes its resource bundle:
    ///
    /// ```swift
    /// let container = try PersistentContainer(name: "Moody", bundles: [.module])
    /// try container.loadPersistentStores()
    /// ```
    ///
    /// - Throws: ``ModelResourceError/modelNotFound(name:searched:)`` or what reading the
    ///   model throws.
    public convenience init(name: String, bundles: [Bundle] = [.main]) throws {
        self.init(name: name, managedObjectModel: try ManagedObjectModel.named(name, in: bundles))
    }
}
