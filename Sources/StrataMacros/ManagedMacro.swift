import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@Managed`: turns the stored `var`s of a `ManagedObject` subclass into typed properties over the
/// object's storage (through `@_ManagedProperty`), and adds the class's entity name, entity
/// description and key path names (`EntityDescribing`).
public struct ManagedMacro: MemberMacro, MemberAttributeMacro, ExtensionMacro {
    // MARK: Members

    public static func expansion(
        of node: AttributeSyntax,
        providingMembersOf declaration: some DeclGroupSyntax,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard let type = declaration.as(ClassDeclSyntax.self) else {
            context.diagnose(Diagnostic(node: node, message: ManagedDiagnostic.notAClass))
            return []
        }
        guard inheritsFromManagedObject(type) else {
            context.diagnose(Diagnostic(node: type.name, message: ManagedDiagnostic.notAManagedObject))
            return []
        }
        let className = type.name.trimmedDescription
        let entityName = entityName(of: node) ?? className
        var properties: [ManagedProperty] = []
        for member in type.memberBlock.members {
            guard let variable = ManagedProperty.candidate(member.decl) else { continue }
            switch ManagedProperty.of(variable) {
            case .success(let property): properties.append(property)
            case .failure(let problem):
                let at: Syntax = variable.bindings.first?.typeAnnotation.map(Syntax.init) ?? Syntax(variable)
                context.diagnose(Diagnostic(node: at, message: problem))
            }
        }
        let unique = properties.filter { $0.isUnique }.map { "[\(literal($0.name))]" }
        let constraints = unique.isEmpty ? "" : ", uniquenessConstraints: [\(unique.joined(separator: ", "))]"
        let descriptions = properties.map { "        \($0.descriptionExpression)" }.joined(separator: "\n")
        let keyPaths = properties.isEmpty ? "[:]"
            : "[\n" + properties.map { "        \\\(className).\($0.swiftName): \(literal($0.name))," }.joined(separator: "\n") + "\n    ]"
        return [
            """
            /// The entity this class is the class of.
            public override class var entityName: String { \(raw: literal(entityName)) }
            """,
            """
            /// The entity the class's stored properties describe (`@Managed`).
            public static var entityDescription: EntityDescription {
                EntityDescription(\(raw: literal(entityName))\(raw: constraints)) {
            \(raw: descriptions)
                }
            }
            """,
            """
            /// The model key of each managed property, for sorts by key path and `#Predicate`.
            public static var modelKeyPaths: [AnyKeyPath: String] {
                \(raw: keyPaths)
            }
            """,
        ]
    }

    // MARK: Member attributes

    public static func expansion(
        of node: AttributeSyntax,
        attachedTo declaration: some DeclGroupSyntax,
        providingAttributesFor member: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [AttributeSyntax] {
        guard let type = declaration.as(ClassDeclSyntax.self), inheritsFromManagedObject(type),
              let variable = ManagedProperty.candidate(member), !variable.hasAttribute("_ManagedProperty"),
              case .success = ManagedProperty.of(variable) else { return [] }
        return ["@_ManagedProperty"]
    }

    // MARK: Conformance

    public static func expansion(
        of node: AttributeSyntax,
        attachedTo declaration: some DeclGroupSyntax,
        providingExtensionsOf type: some TypeSyntaxProtocol,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        guard let classDecl = declaration.as(ClassDeclSyntax.self), inheritsFromManagedObject(classDecl),
              !protocols.isEmpty else { return [] }
        let list = protocols.map(\.trimmedDescription).joined(separator: ", ")
        return [try ExtensionDeclSyntax("extension \(type.trimmed): \(raw: list) {}")]
    }

    // MARK: Helpers

    /// Whether the class names `ManagedObject` as its superclass (the first inherited type).
    static func inheritsFromManagedObject(_ type: ClassDeclSyntax) -> Bool {
        guard let first = type.inheritanceClause?.inheritedTypes.first?.type.trimmedDescription else { return false }
        return ["ManagedObject", "Strata.ManagedObject", "StrataCore.ManagedObject"].contains(first)
    }

    /// The `entity:` argument of `@Managed(entity: "X")`, when it is a plain string literal.
    static func entityName(of node: AttributeSyntax) -> String? {
        guard let arguments = node.arguments?.as(LabeledExprListSyntax.self),
              let argument = arguments.first(where: { $0.label?.text == "entity" }),
              let string = argument.expression.as(StringLiteralExprSyntax.self),
              let text = string.representedLiteralValue else { return nil }
        return text
    }
}

/// A Swift string literal of `text`.
func literal(_ text: String) -> String {
    StringLiteralExprSyntax(content: text).description
}

extension ManagedProperty {
    /// The name as written in Swift (backticks kept where needed).
    var swiftName: String { name }

    /// Whether `@Attribute(.unique)` marks it.
    var isUnique: Bool {
        unlabeledArguments(of: attributeOptions).contains { $0.as(MemberAccessExprSyntax.self)?.declName.baseName.text == "unique" }
    }

    /// The `DeclaredProperty` call that describes it in the class's entity description.
    var descriptionExpression: String {
        switch shape {
        case let .attribute(type, optional):
            var text = "DeclaredProperty.attribute(\(literal(name)), \(PropertyShape.storedType(of: type)).self, optional: \(optional)"
            if let initializer {
                let value = initializer.trimmedDescription
                text += type == PropertyShape.bytesType ? ", defaultValue: Data(\(value) as [UInt8])" : ", defaultValue: \(value)"
            }
            let options = unlabeledArguments(of: attributeOptions)
            if !options.isEmpty { text += ", options: [\(options.map(\.trimmedDescription).joined(separator: ", "))]" }
            for label in ["minValue", "maxValue"] {
                if let value = labeledArgument(label, of: attributeOptions) { text += ", \(label): \(value.trimmedDescription)" }
            }
            return text + ")"
        case let .toOne(type, optional):
            return "DeclaredProperty.toOne(\(literal(name)), \(type).self, optional: \(optional)\(relationshipArguments(["deleteRule"])))"
        case let .toMany(type, ordered):
            return "DeclaredProperty.toMany(\(literal(name)), \(type).self, ordered: \(ordered)"
                + "\(relationshipArguments(["deleteRule", "minCount", "maxCount"])))"
        }
    }

    /// `, inverse: "x"` and the other `@Relationship` arguments of `labels`, as written.
    private func relationshipArguments(_ labels: [String]) -> String {
        var text = ""
        if let inverse = labeledArgument("inverse", of: relationshipOptions) { text += ", inverse: \(inverse.trimmedDescription)" }
        for label in labels {
            if let value = labeledArgument(label, of: relationshipOptions) { text += ", \(label): \(value.trimmedDescription)" }
        }
        return text
    }

    private func unlabeledArguments(of attribute: AttributeSyntax?) -> [ExprSyntax] {
        guard let list = attribute?.arguments?.as(LabeledExprListSyntax.self) else { return [] }
        return list.filter { $0.label == nil }.map(\.expression)
    }

    private func labeledArgument(_ label: String, of attribute: AttributeSyntax?) -> ExprSyntax? {
        attribute?.arguments?.as(LabeledExprListSyntax.self)?.first { $0.label?.text == label }?.expression
    }
}
