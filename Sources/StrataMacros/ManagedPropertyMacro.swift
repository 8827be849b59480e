import SwiftSyntax
import SwiftSyntaxMacros

/// `@_ManagedProperty`, which `@Managed` puts on each stored `var`: the getter and setter over the
/// object's storage, and an `init` accessor that takes the initial value (the model's default)
/// without storing it.
public struct ManagedPropertyMacro: AccessorMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingAccessorsOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [AccessorDeclSyntax] {
        // A property @Managed refuses has its diagnostic from @Managed; it stays as written.
        guard let variable = ManagedProperty.candidate(declaration),
              case .success(let property) = ManagedProperty.of(variable) else { return [] }
        let key = literal(property.name)
        var accessors: [AccessorDeclSyntax] = []
        if property.initializer != nil {
            accessors.append("init(initialValue) {}")
        }
        switch property.shape {
        case let .attribute(type, optional) where type == PropertyShape.bytesType:
            // Bytes are kept as `Data`; the accessors convert.
            if optional {
                accessors.append("get { self[typed: \(raw: key), as: Data.self].map { [UInt8]($0) } }")
                accessors.append("set { setTyped(newValue.map { Data($0) }, forKey: \(raw: key)) }")
            } else {
                accessors.append("get { [UInt8](self[required: \(raw: key), as: Data.self]) }")
                accessors.append("set { setTyped(Data(newValue), forKey: \(raw: key)) }")
            }
        case let .attribute(type, optional), let .toOne(type, optional):
            let subscriptLabel = optional ? "typed" : "required"
            accessors.append("get { self[\(raw: subscriptLabel): \(raw: key), as: \(raw: type).self] }")
            accessors.append("set { setTyped(newValue, forKey: \(raw: key)) }")
        case let .toMany(type, ordered):
            let subscriptLabel = ordered ? "orderedToMany" : "toMany"
            accessors.append("get { self[\(raw: subscriptLabel): \(raw: key), as: \(raw: type).self] }")
            accessors.append("set { self[\(raw: subscriptLabel): \(raw: key), as: \(raw: type).self] = newValue }")
        }
        return accessors
    }
}

/// `@Attribute(…)`, `@Relationship(…)` and `@Transient`: markers that `@Managed` reads; they add
/// nothing themselves.
public struct PropertyOptionsMacro: PeerMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] { [] }
}
