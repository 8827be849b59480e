/// Builds the elements of a ``Composite`` in the builder DSL: `Attribute`s and nested
/// `Composite`s.
@resultBuilder
public enum CompositeElementsBuilder {
    /// An attribute element.
    public static func buildExpression(_ attribute: Attribute) -> [CompositeAttributeDescription.Element] {
        [.attribute(attribute.description)]
    }
    /// A nested composite.
    public static func buildExpression(_ composite: Composite) -> [CompositeAttributeDescription.Element] {
        [.composite(composite.description)]
    }
    /// A block of elements.
    public static func buildBlock(_ parts: [CompositeAttributeDescription.Element]...) -> [CompositeAttributeDescription.Element] {
        parts.flatMap { $0 }
    }
}

/// A composite attribute, for the builder DSL:
///
/// ```swift
/// Composite("magnitude") {
///     Attribute("richter", .double, optional: false)
///     Attribute("scale", .string)
/// }
/// ```
public struct Composite {
    /// The composite described.
    public var description: CompositeAttributeDescription

    /// Describes a composite attribute; see ``CompositeAttributeDescription`` for each option.
    public init(
        _ name: String,
        optional: Bool = true,
        renamingIdentifier: String? = nil,
        versionHashModifier: String? = nil,
        userInfo: [String: String] = [:],
        @CompositeElementsBuilder elements: () -> [CompositeAttributeDescription.Element]
    ) {
        description = CompositeAttributeDescription(
            name: name, isOptional: optional, renamingIdentifier: renamingIdentifier,
            versionHashModifier: versionHashModifier, userInfo: userInfo, elements: elements())
    }
}
