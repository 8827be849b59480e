import SwiftDiagnostics

/// A misuse of `@Managed`, reported where it is.
struct ManagedDiagnostic: DiagnosticMessage, Error {
    let message: String
    let id: String

    var diagnosticID: MessageID { MessageID(domain: "StrataMacros", id: id) }
    var severity: DiagnosticSeverity { .error }

    static let notAClass = ManagedDiagnostic(
        message: "@Managed applies to a class that inherits from ManagedObject", id: "notAClass")
    static let notAManagedObject = ManagedDiagnostic(
        message: "@Managed class must inherit from ManagedObject directly (entity inheritance is declared with the model DSL or a model file)",
        id: "notAManagedObject")

    static func missingType(_ name: String) -> ManagedDiagnostic {
        ManagedDiagnostic(message: "@Managed property '\(name)' needs a type annotation", id: "missingType")
    }

    static func unsupportedType(_ name: String, _ type: String, _ hint: String) -> ManagedDiagnostic {
        ManagedDiagnostic(message: "@Managed property '\(name)' has type '\(type)', which no attribute or relationship stores; \(hint)",
                          id: "unsupportedType")
    }

    static func multipleBindings() -> ManagedDiagnostic {
        ManagedDiagnostic(message: "@Managed needs one property per 'var' declaration", id: "multipleBindings")
    }
}
