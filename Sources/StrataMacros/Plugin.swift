import SwiftCompilerPlugin
import SwiftSyntaxMacros

/// The compiler plug-in that serves Strata's macros.
@main
struct StrataMacrosPlugin: CompilerPlugin {
    let providingMacros: [any Macro.Type] = [
        ManagedMacro.self,
        ManagedPropertyMacro.self,
        PropertyOptionsMacro.self,
    ]
}
