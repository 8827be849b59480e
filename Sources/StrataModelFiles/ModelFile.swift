import Foundation
import StrataCore

/// Opens Apple's model files wherever a path points: an `.xcdatamodeld` bundle (its current
/// version), an `.xcdatamodel` folder, or the `contents` file inside one.
///
/// ```swift
/// let model = try ModelFile.load(at: URL(filePath: "Moody.xcdatamodeld"))
/// ```
public enum ModelFile {
    /// What a path holds, told from its content (not only its name).
    public enum Kind: Sendable, Hashable {
        /// A model bundle (`.xcdatamodeld`): versions, and `.xccurrentversion` naming the current one.
        case bundle
        /// One model version (`.xcdatamodel`): a folder with a `contents` file.
        case version
        /// A pre-Xcode-4 model version: a folder with a binary property list `elements` file.
        case legacyVersion
        /// A `contents` file (or any file to be read as one).
        case contents
    }

    /// The model at `url`: the current version of a bundle, a version folder's model, or a
    /// `contents` file's.
    ///
    /// - Throws: ``ModelFileError`` naming the file and, where there is one, the line.
    public static func load(at url: URL) throws(ModelFileError) -> ManagedObjectModel {
        try read(at: url).model
    }

    /// Like ``load(at:)``, with the warnings about what was skipped.
    ///
    /// For a bundle only the current version is read; ``ModelBundle/init(at:)`` reads them all.
    public static func read(at url: URL) throws(ModelFileError) -> LoadedModel {
        switch try kind(of: url) {
        case .bundle:
            let name = try ModelBundle.currentVersionName(in: url)
            return try read(at: url.appendingPathComponent(name + ModelBundle.versionExtension, isDirectory: true))
        case .version:
            return try ModelFileReader().read(contentsOf: url.appendingPathComponent("contents", isDirectory: false))
        case .legacyVersion:
            throw .legacyFormat(file: url.appendingPathComponent("elements", isDirectory: false).path)
        case .contents:
            return try ModelFileReader().read(contentsOf: url)
        }
    }

    /// What `url` holds.
    ///
    /// A folder with `.xcdatamodel` folders or an `.xccurrentversion` file is a bundle; a folder
    /// with a `contents` file is a version; one with only an `elements` file is a legacy version;
    /// any other file is read as `contents`.
    ///
    /// - Throws: ``ModelFileError/unreadable(file:reason:)`` for a missing path or a folder that
    ///   is none of these.
    public static func kind(of url: URL) throws(ModelFileError) -> Kind {
        let manager = FileManager.default
        var isFolder: ObjCBool = false
        guard manager.fileExists(atPath: url.path, isDirectory: &isFolder) else {
            throw .unreadable(file: url.path, reason: "no such file or folder")
        }
        guard isFolder.boolValue else { return .contents }
        let children: [String]
        do {
            children = try manager.contentsOfDirectory(atPath: url.path)
        } catch {
            throw .unreadable(file: url.path, reason: ModelFileReader.reason(error))
        }
        if children.contains("contents") { return .version }
        if children.contains(ModelBundle.currentVersionFileName)
            || children.contains(where: { $0.hasSuffix(ModelBundle.versionExtension) })
            || url.pathExtension == "xcdatamodeld" {
            return .bundle
        }
        if children.contains("elements") { return .legacyVersion }
        throw .unreadable(file: url.path, reason: "a folder that is neither a model bundle (.xcdatamodeld) nor a model version (.xcdatamodel with a contents file)")
    }
}
