/// Something in a model file that the reader skipped or could not take as written. The model
/// still loads; the warning says what was left out and where.
public struct ModelFileWarning: Sendable, Hashable, CustomStringConvertible {
    /// What was skipped or changed.
    public enum Kind: Sendable, Hashable {
        /// An element the reader does not know; it was skipped with everything inside it.
        case unknownElement(element: String, parent: String)
        /// An XML attribute the reader does not know on a known element; it was ignored.
        case unknownAttribute(element: String, attribute: String)
        /// An attribute whose `attributeType` Strata has no type for (`Undefined`, `Composite`, or a
        /// name no Xcode version wrote); the attribute was left out of its entity.
        case unsupportedAttributeType(entity: String, attribute: String, type: String)
        /// A value that does not parse as what its XML attribute holds (a Boolean that is neither
        /// `YES` nor `NO`, a count that is not a number, an unknown delete rule); the default
        /// was used instead, or the value was dropped.
        case invalidValue(element: String, attribute: String, value: String)
        /// A default value that does not convert to its attribute's type; it was dropped.
        case invalidDefaultValue(entity: String, attribute: String, value: String)
        /// A Core Data feature the file uses and Strata does not model (Spotlight indexing, a
        /// relationship's `indexed` flag, an expression in a fetch index, composite attribute
        /// definitions…); it was ignored.
        case unsupportedFeature(element: String, feature: String)
        /// A uniqueness constraint or index element that names a property the entity does not
        /// have (an attribute skipped for its type, or a placeholder left by the model editor); the
        /// constraint or index element was dropped.
        case droppedReference(entity: String, property: String, from: String)
        /// An index with no element left (each was an expression or named no property); dropped.
        case droppedIndex(entity: String, index: String)
    }

    /// The path of the file.
    public var file: String
    /// The line in the file, when the parser gave one.
    public var line: Int?
    /// What was skipped or changed.
    public var kind: Kind

    /// Creates a warning.
    public init(file: String, line: Int?, kind: Kind) {
        self.file = file
        self.line = line
        self.kind = kind
    }

    /// What happened, without the location.
    public var message: String {
        switch kind {
        case let .unknownElement(element, parent):
            "unknown element <\(element)> in <\(parent)> skipped"
        case let .unknownAttribute(element, attribute):
            "unknown attribute '\(attribute)' on <\(element)> ignored"
        case let .unsupportedAttributeType(entity, attribute, type):
            "entity '\(entity)', attribute '\(attribute)': attribute type '\(type)' is not supported; attribute skipped"
        case let .invalidValue(element, attribute, value):
            "<\(element)> \(attribute)=\"\(value)\" is not a valid value; ignored"
        case let .invalidDefaultValue(entity, attribute, value):
            "entity '\(entity)', attribute '\(attribute)': default value \"\(value)\" does not convert to the attribute's type; dropped"
        case let .unsupportedFeature(element, feature):
            "<\(element)>: \(feature) is not supported; ignored"
        case let .droppedReference(entity, property, from):
            "entity '\(entity)': \(from) names '\(property)', which is not a property of the entity (unknown, or skipped); dropped"
        case let .droppedIndex(entity, index):
            "entity '\(entity)': index '\(index)' has no usable element; dropped"
        }
    }

    /// `path:line: warning: message`, as compilers print warnings.
    public var description: String {
        let location = line.map { "\(file):\($0)" } ?? file
        return "\(location): warning: \(message)"
    }
}
