import Foundation
import StrataCore

/// Reads one Xcode model `contents` file (the XML inside an `.xcdatamodel` folder) into a
/// `ManagedObjectModel`.
///
/// What is read and how it maps is in `docs/model-files.md`. Elements and attributes the reader
/// does not know, and features Strata does not model, are skipped with a ``ModelFileWarning``;
/// a file that is not a well-formed model is a ``ModelFileError`` naming the file and line.
///
/// ```swift
/// let loaded = try ModelFileReader().read(contentsOf: url.appending(path: "contents"))
/// for warning in loaded.warnings { print(warning) }
/// let model = loaded.model
/// ```
///
/// To open a bundle (`.xcdatamodeld`) or a version folder (`.xcdatamodel`), use
/// ``ModelFile/load(at:)`` or ``ModelBundle``.
public struct ModelFileReader: Sendable {
    /// Creates a reader.
    public init() {}

    /// Reads the `contents` file at `url`.
    ///
    /// - Throws: ``ModelFileError``: ``ModelFileError/unreadable(file:reason:)``,
    ///   ``ModelFileError/legacyFormat(file:)`` for a binary property list, or any error of
    ///   ``read(_:file:)``.
    public func read(contentsOf url: URL) throws(ModelFileError) -> LoadedModel {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw .unreadable(file: url.path, reason: Self.reason(error))
        }
        return try read(data, file: url.path)
    }

    /// Reads `contents` XML held in memory; `file` names it in errors and warnings.
    ///
    /// - Throws: ``ModelFileError``: ``ModelFileError/emptyFile(file:)``,
    ///   ``ModelFileError/malformedXML(file:line:column:reason:)``,
    ///   ``ModelFileError/notAModel(file:reason:)``, ``ModelFileError/legacyFormat(file:)``,
    ///   ``ModelFileError/missingAttribute(file:line:element:attribute:)``,
    ///   ``ModelFileError/missingElement(file:line:element:child:)`` or
    ///   ``ModelFileError/invalidModel(file:line:_:)``.
    public func read(_ data: Data, file: String) throws(ModelFileError) -> LoadedModel {
        if data.starts(with: Array("bplist".utf8)) { throw .legacyFormat(file: file) }
        let root = try XMLTree.parse(data, file: file)
        var reader = ContentsReader(file: file)
        let model = try reader.model(from: root)
        return LoadedModel(model: model, warnings: reader.warnings, file: file, codeGeneration: reader.codeGeneration)
    }

    /// A one-line reason for a Foundation error.
    static func reason(_ error: Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError {
            return "\(nsError.localizedDescription) (\(underlying.domain) \(underlying.code))"
        }
        return nsError.localizedDescription
    }
}
