import Foundation
import StrataCore
import StrataModelFiles
import Testing

/// The mapping models and model bundles copied from `../shared/fixtures` into this target's
/// resources (attribution in `Fixtures/SOURCES.tsv`).
enum MappingFixtures {
    /// The `Fixtures` folder of the test bundle.
    static func root() throws -> URL {
        let resources = try #require(Bundle.module.resourceURL)
        return resources.appending(path: "Fixtures")
    }

    /// Every `.xcmappingmodel` bundle, by its path below `Fixtures`.
    static func mappingModelPaths() throws -> [String] {
        let root = try root()
        let enumerator = try #require(FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil))
        var paths: [String] = []
        for case let url as URL in enumerator where url.pathExtension == "xcmappingmodel" {
            paths.append(String(url.standardizedFileURL.path.dropFirst(root.standardizedFileURL.path.count + 1)))
        }
        return paths.sorted()
    }

    /// The bundle at `path` below `Fixtures`.
    static func url(_ path: String) throws -> URL {
        try root().appending(path: path)
    }

    /// The model version a mapping model records (`Migrations/Moody.xcdatamodeld/Moody 2.xcdatamodel`),
    /// found by its bundle and version name in the fixture project the mapping model is in.
    static func model(recordedPath: String, besideMappingModel mappingPath: String) throws -> ManagedObjectModel {
        let components = recordedPath.split(separator: "/").map(String.init)
        let bundleName = try #require(components.dropLast().last)
        let versionName = try #require(components.last).replacingOccurrences(of: ".xcdatamodel", with: "")
        let project = try root().appending(path: String(try #require(mappingPath.split(separator: "/").first)))
        let enumerator = try #require(FileManager.default.enumerator(at: project, includingPropertiesForKeys: nil))
        for case let url as URL in enumerator where url.lastPathComponent == bundleName {
            let bundle = try ModelBundle(at: url)
            return try #require(bundle.versions[versionName], "\(bundleName) has no version \(versionName)")
        }
        Issue.record("no bundle \(bundleName) in \(project.path)")
        throw CancellationError()
    }
}
