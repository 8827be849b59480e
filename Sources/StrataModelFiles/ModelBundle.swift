import Foundation
import StrataCore

/// A versioned model: Xcode's `.xcdatamodeld` bundle, which holds one `.xcdatamodel` folder per
/// version and an `.xccurrentversion` property list naming the current one.
///
/// ```swift
/// let bundle = try ModelBundle(at: URL(filePath: "BookmarksModel.xcdatamodeld"))
/// bundle.versionNames        // ["BookmarksModel", "BookmarksModel 2", …]
/// bundle.currentVersionName  // "BookmarksModel 6"
/// let model = bundle.currentModel
/// ```
///
/// Version names are the folder names without `.xcdatamodel`.
public struct ModelBundle: Sendable {
    /// The file extension of one version folder, with its dot.
    public static let versionExtension = ".xcdatamodel"
    /// The name of the property list naming the current version.
    public static let currentVersionFileName = ".xccurrentversion"
    /// The key of ``currentVersionFileName`` that names the current version folder.
    public static let currentVersionKey = "_XCCurrentVersionName"

    /// Every version by name.
    public let versions: [String: ManagedObjectModel]
    /// The name of the current version.
    public let currentVersionName: String
    /// The current version's model.
    public let currentModel: ManagedObjectModel
    /// What was skipped while reading the versions (empty for a bundle made in code).
    public let warnings: [ModelFileWarning]

    /// The version names, in natural order (`Model`, `Model 2`, `Model 10`).
    public var versionNames: [String] {
        versions.keys.sorted(by: Self.naturalOrder)
    }

    /// Reads every version of the bundle at `url`.
    ///
    /// The current version is the one `.xccurrentversion` names; without that file (or with one
    /// that names none, as Xcode leaves it for a bundle whose current version was never set), the
    /// only version, or the last in natural order.
    ///
    /// - Throws: ``ModelFileError``: ``ModelFileError/noVersions(bundle:)``,
    ///   ``ModelFileError/missingCurrentVersion(bundle:name:)``,
    ///   ``ModelFileError/invalidCurrentVersionFile(file:reason:)``,
    ///   ``ModelFileError/legacyFormat(file:)`` for a pre-Xcode-4 version, or any error reading
    ///   one version's `contents`.
    public init(at url: URL) throws(ModelFileError) {
        let names = try Self.versionNames(in: url)
        let current = try Self.currentVersionName(in: url, versionNames: names)
        var versions: [String: ManagedObjectModel] = [:]
        var warnings: [ModelFileWarning] = []
        for name in names {
            let loaded = try ModelFile.read(at: url.appendingPathComponent(name + Self.versionExtension, isDirectory: true))
            versions[name] = loaded.model
            warnings += loaded.warnings
        }
        try self.init(versions: versions, currentVersionName: current, warnings: warnings)
    }

    /// A bundle made in code, to write with ``write(to:using:)``.
    ///
    /// - Throws: ``ModelFileError/noVersions(bundle:)`` for no versions,
    ///   ``ModelFileError/missingCurrentVersion(bundle:name:)`` when `currentVersionName` is not
    ///   one of them.
    public init(versions: [String: ManagedObjectModel], currentVersionName: String) throws(ModelFileError) {
        try self.init(versions: versions, currentVersionName: currentVersionName, warnings: [])
    }

    private init(
        versions: [String: ManagedObjectModel], currentVersionName: String, warnings: [ModelFileWarning]
    ) throws(ModelFileError) {
        guard !versions.isEmpty else { throw .noVersions(bundle: "(model bundle)") }
        guard let current = versions[currentVersionName] else {
            throw .missingCurrentVersion(bundle: "(model bundle)", name: currentVersionName)
        }
        self.versions = versions
        self.currentVersionName = currentVersionName
        self.currentModel = current
        self.warnings = warnings
    }

    /// Writes the bundle: one `<name>.xcdatamodel/contents` per version and `.xccurrentversion`.
    ///
    /// - Throws: ``ModelFileError/writeFailed(file:reason:)`` or
    ///   ``ModelFileError/unrepresentable(what:reason:)``.
    public func write(to url: URL, using writer: ModelFileWriter = ModelFileWriter()) throws(ModelFileError) {
        try writer.write(self, to: url)
    }

    // MARK: - Finding versions

    /// The name of the current version of the bundle at `url`, without reading any version.
    ///
    /// - Throws: as ``init(at:)`` does for the bundle itself.
    public static func currentVersionName(in url: URL) throws(ModelFileError) -> String {
        try currentVersionName(in: url, versionNames: versionNames(in: url))
    }

    private static func currentVersionName(in url: URL, versionNames names: [String]) throws(ModelFileError) -> String {
        let file = url.appendingPathComponent(currentVersionFileName, isDirectory: false)
        guard FileManager.default.fileExists(atPath: file.path) else {
            guard let last = names.last else { throw .noVersions(bundle: url.path) }
            return last
        }
        let data: Data
        let plist: Any
        do {
            data = try Data(contentsOf: file)
        } catch {
            throw .unreadable(file: file.path, reason: ModelFileReader.reason(error))
        }
        do {
            plist = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        } catch {
            throw .invalidCurrentVersionFile(file: file.path, reason: "not a property list")
        }
        guard let dictionary = plist as? [String: Any] else {
            throw .invalidCurrentVersionFile(file: file.path, reason: "not a dictionary")
        }
        guard let entry = dictionary[currentVersionKey] else {
            // Xcode writes an empty dictionary for a bundle whose current version was never set.
            guard let last = names.last else { throw .noVersions(bundle: url.path) }
            return last
        }
        guard let value = entry as? String, !value.isEmpty else {
            throw .invalidCurrentVersionFile(file: file.path, reason: "'\(currentVersionKey)' is not a version name")
        }
        let name = value.hasSuffix(versionExtension) ? String(value.dropLast(versionExtension.count)) : value
        guard names.contains(name) else {
            throw names.isEmpty ? .noVersions(bundle: url.path) : .missingCurrentVersion(bundle: url.path, name: name)
        }
        return name
    }

    /// The names of the version folders in the bundle at `url`, in natural order.
    private static func versionNames(in url: URL) throws(ModelFileError) -> [String] {
        let manager = FileManager.default
        let children: [String]
        do {
            children = try manager.contentsOfDirectory(atPath: url.path)
        } catch {
            throw .unreadable(file: url.path, reason: ModelFileReader.reason(error))
        }
        return children
            .filter { child in
                var isFolder: ObjCBool = false
                return child.hasSuffix(versionExtension) && child.count > versionExtension.count
                    && manager.fileExists(atPath: url.appendingPathComponent(child).path, isDirectory: &isFolder)
                    && isFolder.boolValue
            }
            .map { String($0.dropLast(versionExtension.count)) }
            .sorted(by: naturalOrder)
    }

    /// Orders names with their runs of digits compared as numbers (`Model 2` before `Model 10`).
    static func naturalOrder(_ lhs: String, _ rhs: String) -> Bool {
        var left = lhs.unicodeScalars[...]
        var right = rhs.unicodeScalars[...]
        func isDigit(_ scalar: Unicode.Scalar) -> Bool { ("0"..."9").contains(scalar) }
        func digits(_ text: inout Substring.UnicodeScalarView) -> String {
            let run = text.prefix(while: isDigit)
            text.removeFirst(run.count)
            let trimmed = run.drop { $0 == "0" }
            return String(String.UnicodeScalarView(trimmed))
        }
        while let l = left.first, let r = right.first {
            if isDigit(l), isDigit(r) {
                let a = digits(&left)
                let b = digits(&right)
                if a.count != b.count { return a.count < b.count }
                if a != b { return a < b }
            } else {
                if l != r { return l.value < r.value }
                left.removeFirst()
                right.removeFirst()
            }
        }
        if left.isEmpty != right.isEmpty { return left.isEmpty }
        return lhs < rhs
    }
}
