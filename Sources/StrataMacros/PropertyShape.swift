import SwiftSyntax

/// What a stored property of a `@Managed` class stands for, told from its declared Swift type.
enum PropertyShape: Equatable {
    /// An attribute of a Swift type Strata stores (`Int16`, `String`, `Date`, …), or `[UInt8]`: bytes
    /// kept in a `Binary Data` attribute.
    case attribute(type: String, optional: Bool)
    /// A to-one relationship to the class `type`.
    case toOne(type: String, optional: Bool)
    /// A to-many relationship to the class `type`: a `Set` (unordered) or an array (ordered).
    case toMany(type: String, ordered: Bool)

    /// The Swift types whose values an attribute stores directly (`AttributeConvertible`).
    static let attributeTypes: Set<String> = [
        "Int16", "Int32", "Int64", "Decimal", "Double", "Float", "String", "Bool", "Date", "Data", "UUID", "URL",
        "ManagedObjectID",
    ]

    /// The Swift type of bytes, which an attribute keeps as `Data`.
    static let bytesType = "[UInt8]"

    /// The type an attribute of Swift type `type` is stored as: `Data` for bytes, else itself.
    static func storedType(of type: String) -> String { type == bytesType ? "Data" : type }

    /// Types a reader may expect to work, with what to write instead.
    static let hints: [String: String] = [
        "Int": "use Int16, Int32 or Int64", "Int8": "use Int16", "UInt8": "use Int16", "UInt16": "use Int32",
        "UInt32": "use Int64", "UInt": "use Int64", "UInt64": "use Int64", "CGFloat": "use Double",
        "Character": "use String", "Substring": "use String", "NSDecimalNumber": "use Decimal",
    ]

    /// The shape of a property declared `name: type`, or the diagnostic that refuses it.
    static func of(_ type: TypeSyntax, name: String) -> Result<PropertyShape, ManagedDiagnostic> {
        let written = type.trimmedDescription
        let unsupported = { (hint: String) in Result<PropertyShape, ManagedDiagnostic>.failure(.unsupportedType(name, written, hint)) }
        var base = type
        var optional = false
        if let wrapped = optionalWrapped(type) {
            base = wrapped
            optional = true
        }
        if let element = collectionElement(base, named: "Set") {
            if optional { return unsupported("a to-many is never optional: declare it 'Set<\(element.trimmedDescription)>'") }
            guard let name = simpleName(element), !attributeTypes.contains(name) else {
                return unsupported("a Set holds the objects of a to-many relationship")
            }
            return .success(.toMany(type: element.trimmedDescription, ordered: false))
        }
        if let element = arrayElement(base), simpleName(element) == "UInt8" {
            return .success(.attribute(type: bytesType, optional: optional))
        }
        if let element = arrayElement(base) {
            if optional { return unsupported("a to-many is never optional: declare it '[\(element.trimmedDescription)]'") }
            guard let name = simpleName(element), !attributeTypes.contains(name), hints[name] == nil else {
                return unsupported("an array holds the objects of an ordered to-many relationship")
            }
            return .success(.toMany(type: element.trimmedDescription, ordered: true))
        }
        guard let name = simpleName(base) else {
            return unsupported("use a type Strata stores (Int16, Int32, Int64, Decimal, Double, Float, String, Bool, Date, Data, UUID, URL) or a ManagedObject class")
        }
        if let hint = hints[name] { return unsupported(hint) }
        if ["Dictionary", "Array", "Optional", "Set", "Result"].contains(name) {
            return unsupported("use a type Strata stores or a ManagedObject class")
        }
        if attributeTypes.contains(name) { return .success(.attribute(type: base.trimmedDescription, optional: optional)) }
        return .success(.toOne(type: base.trimmedDescription, optional: optional))
    }

    /// `T` of `T?` or `Optional<T>`.
    private static func optionalWrapped(_ type: TypeSyntax) -> TypeSyntax? {
        if let optional = type.as(OptionalTypeSyntax.self) { return optional.wrappedType }
        return collectionElement(type, named: "Optional")
    }

    /// `T` of `[T]` or `Array<T>`.
    private static func arrayElement(_ type: TypeSyntax) -> TypeSyntax? {
        if let array = type.as(ArrayTypeSyntax.self) { return array.element }
        return collectionElement(type, named: "Array")
    }

    /// `T` of `Name<T>` (or `Swift.Name<T>`).
    private static func collectionElement(_ type: TypeSyntax, named name: String) -> TypeSyntax? {
        let (identifier, generics): (String?, GenericArgumentClauseSyntax?) =
            if let simple = type.as(IdentifierTypeSyntax.self) { (simple.name.text, simple.genericArgumentClause) }
            else if let member = type.as(MemberTypeSyntax.self) { (member.name.text, member.genericArgumentClause) }
            else { (nil, nil) }
        guard identifier == name, let generics, generics.arguments.count == 1,
              case .type(let argument) = generics.arguments.first!.argument else { return nil }
        return argument
    }

    /// The last name of a plain or qualified type without generic arguments (`Date`, `Foundation.Date`).
    private static func simpleName(_ type: TypeSyntax) -> String? {
        if let simple = type.as(IdentifierTypeSyntax.self), simple.genericArgumentClause == nil { return simple.name.text }
        if let member = type.as(MemberTypeSyntax.self), member.genericArgumentClause == nil { return member.name.text }
        return nil
    }
}

/// A stored property of a `@Managed` class that the macro turns into a model property.
struct ManagedProperty {
    let name: String
    let shape: PropertyShape
    let initializer: ExprSyntax?
    /// The arguments of its `@Attribute(…)` or `@Relationship(…)`, if it has one.
    let attributeOptions: AttributeSyntax?
    let relationshipOptions: AttributeSyntax?

    /// The stored, instance `var`s of a class body that `@Managed` manages: not `let`, `static`,
    /// `class`, computed, observed, or marked `@Transient`. Nil for a declaration it leaves alone.
    static func candidate(_ declaration: some DeclSyntaxProtocol) -> VariableDeclSyntax? {
        guard let variable = declaration.as(VariableDeclSyntax.self), variable.bindingSpecifier.tokenKind == .keyword(.var),
              !variable.modifiers.contains(where: { [.keyword(.static), .keyword(.class), .keyword(.lazy)].contains($0.name.tokenKind) }),
              !variable.hasAttribute("Transient") else { return nil }
        guard variable.bindings.allSatisfy({ $0.accessorBlock == nil }) else { return nil }
        return variable
    }

    /// The managed property `variable` declares, or the diagnostic that refuses it.
    static func of(_ variable: VariableDeclSyntax) -> Result<ManagedProperty, ManagedDiagnostic> {
        guard variable.bindings.count == 1, let binding = variable.bindings.first,
              let pattern = binding.pattern.as(IdentifierPatternSyntax.self) else {
            return .failure(.multipleBindings())
        }
        let name = pattern.identifier.trimmedDescription.replacingBackticks()
        guard let type = binding.typeAnnotation?.type else { return .failure(.missingType(name)) }
        return PropertyShape.of(type, name: name).map { shape in
            ManagedProperty(name: name, shape: shape, initializer: binding.initializer?.value,
                            attributeOptions: variable.attribute("Attribute"), relationshipOptions: variable.attribute("Relationship"))
        }
    }
}

extension VariableDeclSyntax {
    /// Whether the declaration carries `@name`.
    func hasAttribute(_ name: String) -> Bool { attribute(name) != nil }

    /// The declaration's `@name(…)` attribute.
    func attribute(_ name: String) -> AttributeSyntax? {
        for element in attributes {
            if case .attribute(let attribute) = element,
               attribute.attributeName.trimmedDescription == name
                || attribute.attributeName.trimmedDescription.hasSuffix(".\(name)") {
                return attribute
            }
        }
        return nil
    }
}

extension String {
    /// The name without the backticks of an escaped identifier.
    func replacingBackticks() -> String { filter { $0 != "`" } }
}
