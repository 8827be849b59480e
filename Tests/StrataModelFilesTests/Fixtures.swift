import Foundation

/// Where the copied fixture models are: test resources, so CI needs no `/work/shared`.
/// `Fixtures/SOURCES.tsv` names the repository, commit and licence of every file.
enum Fixtures {
    /// The `Fixtures` folder among the test bundle's resources.
    static var root: URL {
        guard let url = Bundle.module.url(forResource: "Fixtures", withExtension: nil) else {
            fatalError("the Fixtures resource folder is missing from the test bundle")
        }
        return url
    }

    /// A path under `Fixtures/`.
    static func url(_ relativePath: String) -> URL {
        root.appendingPathComponent(relativePath)
    }

    /// The path of `url` under `Fixtures/`, for test names and messages.
    static func relativePath(_ url: URL) -> String {
        let base = root.standardizedFileURL.path + "/"
        let path = url.standardizedFileURL.path
        return path.hasPrefix(base) ? String(path.dropFirst(base.count)) : path
    }

    /// Every model bundle (`.xcdatamodeld`) and every `.xcdatamodel` folder outside a bundle,
    /// found by enumerating the fixtures, as paths relative to `Fixtures/`, sorted.
    static let modelPaths: [String] = {
        var found: [String] = []
        guard let enumerator = FileManager.default.enumerator(
            at: root, includingPropertiesForKeys: [.isDirectoryKey], options: []
        ) else { return [] }
        for case let url as URL in enumerator {
            switch url.pathExtension {
            case "xcdatamodeld":
                found.append(relativePath(url))
                enumerator.skipDescendants()
            case "xcdatamodel":
                found.append(relativePath(url))
                enumerator.skipDescendants()
            default:
                break
            }
        }
        return found.sorted()
    }()

    /// The pre-Xcode-4 bundle, whose versions are binary property list `elements` files.
    static let legacyBundle = "magicalpanda__MagicalRecord/Samples/iOS/Application/Models/Recipes.xcdatamodeld"

    /// Every `contents` file of the fixtures (inside version folders), plus the two MomXML
    /// `contents` files saved under other names, relative to `Fixtures/`, sorted.
    static let contentsPaths: [String] = {
        var found: [String] = []
        guard let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { return [] }
        for case let url as URL in enumerator where url.lastPathComponent == "contents" {
            found.append(relativePath(url))
        }
        return (found + ["phimage__MomXML/Tests/model.xml", "phimage__MomXML/Tests/model2.xml"]).sorted()
    }()
}
