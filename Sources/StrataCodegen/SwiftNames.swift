/// Swift spellings of the model's names in generated code.
enum SwiftNames {
    /// Swift's keywords, which a property name must be written in backticks to use.
    static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init", "inout",
        "internal", "let", "open", "operator", "private", "precedencegroup", "protocol", "public", "rethrows", "static",
        "struct", "subscript", "typealias", "var", "break", "case", "catch", "continue", "default", "defer", "do", "else",
        "fallthrough", "for", "guard", "if", "in", "repeat", "return", "throw", "switch", "where", "while", "Any", "as",
        "await", "false", "is", "nil", "self", "Self", "super", "throws", "true", "try", "_",
    ]

    /// Members of `ManagedObject` a property of a subclass must not be named as: such a model
    /// key gets the property `<key>Value`.
    static let managedObjectMembers: Set<String> = [
        "objectID", "isFault", "entity", "managedObjectContext", "isInserted", "isUpdated", "isDeleted", "hasChanges",
        "changedValues", "committedValues", "description", "hash", "hashValue", "entityName", "primaryKey",
        "storeIdentifier", "isTemporaryID", "uriRepresentation", "value", "setValue", "primitiveValue",
        "setPrimitiveValue", "setTyped", "insert", "remove", "add", "awakeFromFetch", "awakeFromInsert", "didSave",
        "willSave", "prepareForDeletion", "willTurnIntoFault", "didTurnIntoFault", "fulfillFault", "validateValue",
        "validateForInsert", "validateForUpdate", "validateForDelete", "setValuesForKeys", "Keys", "modelKeyPaths",
    ]

    /// Whether `name` can be a Swift type or property name as it is.
    static func isIdentifier(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first == "_" || first.properties.isXIDStart else { return false }
        return name.unicodeScalars.dropFirst().allSatisfy { $0.properties.isXIDContinue }
    }

    /// The Swift property of the model key `key`.
    static func property(_ key: String) -> String {
        if managedObjectMembers.contains(key) { return key + "Value" }
        return keywords.contains(key) ? "`\(key)`" : key
    }

    /// The Swift class name of a model's class name: the last part of a module-qualified name
    /// (`Moody.Mood`, `.Mood`); nil for none or Core Data's own class.
    static func className(_ represented: String?) -> String? {
        guard let represented, !represented.isEmpty else { return nil }
        let name = represented.split(separator: ".").last.map(String.init) ?? represented
        return name.isEmpty || name == "NSManagedObject" ? nil : name
    }

    /// `text` as a Swift string literal.
    static func literal(_ text: String) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": escaped += "\\\\"
            case "\"": escaped += "\\\""
            case "\n": escaped += "\\n"
            case "\r": escaped += "\\r"
            case "\t": escaped += "\\t"
            default:
                if scalar.value < 0x20 { escaped += "\\u{\(String(scalar.value, radix: 16))}" } else { escaped.unicodeScalars.append(scalar) }
            }
        }
        return "\"" + escaped + "\""
    }
}
