import StrataCore

/// Why a model file could not be read or written. Every case names the file (its path) and, where
/// the XML parser gives one, the line.
public enum ModelFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file or folder could not be read (missing, unreadable, not a file the reader knows).
    case unreadable(file: String, reason: String)
    /// The file is empty.
    case emptyFile(file: String)
    /// The file is not well-formed XML (not XML at all, truncated, mismatched tags, bad encoding).
    case malformedXML(file: String, line: Int?, column: Int?, reason: String)
    /// The file is XML but not a Core Data model (its root element is not `<model>`).
    case notAModel(file: String, reason: String)
    /// A pre-Xcode-4 model: a binary property list `elements` file instead of `contents` XML.
    /// Open and re-save the model in a current Xcode to convert it.
    case legacyFormat(file: String)
    /// An element lacks an attribute it cannot do without (an entity without `name`, a
    /// relationship without `destinationEntity`, …).
    case missingAttribute(file: String, line: Int?, element: String, attribute: String)
    /// An element lacks a child element it cannot do without (a fetched property without its
    /// `<fetchRequest>`).
    case missingElement(file: String, line: Int?, element: String, child: String)
    /// The file reads, but the model it describes is inconsistent (an unknown destination entity,
    /// an inverse that does not lead back, …). The line is that of the entity, property,
    /// configuration or fetch request at fault.
    case invalidModel(file: String, line: Int?, ModelError)
    /// A model bundle (`.xcdatamodeld`) holds no `.xcdatamodel` version.
    case noVersions(bundle: String)
    /// A model bundle's `.xccurrentversion` names a version the bundle does not hold.
    case missingCurrentVersion(bundle: String, name: String)
    /// A model bundle's `.xccurrentversion` is not a property list with `_XCCurrentVersionName`.
    case invalidCurrentVersionFile(file: String, reason: String)
    /// The model holds something the `contents` format cannot say (a character XML cannot carry,
    /// a default value Xcode has no field for, more than one version identifier).
    case unrepresentable(what: String, reason: String)
    /// Writing a file or folder failed.
    case writeFailed(file: String, reason: String)

    /// The file or bundle the error is about, when there is one.
    public var file: String? {
        switch self {
        case .unreadable(let file, _), .emptyFile(let file), .malformedXML(let file, _, _, _),
            .notAModel(let file, _), .legacyFormat(let file), .missingAttribute(let file, _, _, _),
            .missingElement(let file, _, _, _), .invalidModel(let file, _, _),
            .invalidCurrentVersionFile(let file, _), .writeFailed(let file, _):
            file
        case .noVersions(let bundle), .missingCurrentVersion(let bundle, _):
            bundle
        case .unrepresentable:
            nil
        }
    }

    /// The line in ``file`` the error is about, when the parser gives one.
    public var line: Int? {
        switch self {
        case .malformedXML(_, let line, _, _), .missingAttribute(_, let line, _, _),
            .missingElement(_, let line, _, _), .invalidModel(_, let line, _):
            line
        default:
            nil
        }
    }

    /// One line that says what is wrong and where (`path:line: reason`).
    public var description: String {
        switch self {
        case let .unreadable(file, reason):
            "\(file): cannot read: \(reason)"
        case .emptyFile(let file):
            "\(file): the file is empty"
        case let .malformedXML(file, line, column, reason):
            "\(Self.location(file, line, column)): not well-formed XML: \(reason)"
        case let .notAModel(file, reason):
            "\(file): not a Core Data model: \(reason)"
        case .legacyFormat(let file):
            "\(file): a pre-Xcode-4 model (binary property list 'elements' file); open and save it in a current Xcode to convert it to 'contents' XML"
        case let .missingAttribute(file, line, element, attribute):
            "\(Self.location(file, line, nil)): <\(element)> has no '\(attribute)' attribute (or it is empty)"
        case let .missingElement(file, line, element, child):
            "\(Self.location(file, line, nil)): <\(element)> has no <\(child)> element"
        case let .invalidModel(file, line, error):
            "\(Self.location(file, line, nil)): \(error)"
        case .noVersions(let bundle):
            "\(bundle): the model bundle holds no .xcdatamodel version"
        case let .missingCurrentVersion(bundle, name):
            "\(bundle): .xccurrentversion names version '\(name)', which the bundle does not hold"
        case let .invalidCurrentVersionFile(file, reason):
            "\(file): not a valid .xccurrentversion: \(reason)"
        case let .unrepresentable(what, reason):
            "cannot write \(what) to a model file: \(reason)"
        case let .writeFailed(file, reason):
            "\(file): cannot write: \(reason)"
        }
    }

    private static func location(_ file: String, _ line: Int?, _ column: Int?) -> String {
        switch (line, column) {
        case let (line?, column?): "\(file):\(line):\(column)"
        case let (line?, nil): "\(file):\(line)"
        default: file
        }
    }
}
