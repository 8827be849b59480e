import Foundation
import Strata
import StrataJSON
import StrataMigration
import Testing

/// The Core Data codes of the errors of the modules above StrataCore: SQLite, model files,
/// mapping models and migrations, imports. Every case of each enum has a row.
@Suite("Core Data error codes of the other modules")
struct CoreDataErrorCodeModuleTests {
    private struct Cause: Error {}

    static var table: [(error: any CoreDataCodedError, code: Int)] { [
        (SQLiteError(file: "f", sql: "SELECT 1", code: 11, message: "malformed"), 134180),
        (ModelFileError.unreadable(file: "f", reason: "r"), 134060),
        (ModelFileError.emptyFile(file: "f"), 134060),
        (ModelFileError.malformedXML(file: "f", line: 1, column: 2, reason: "r"), 134060),
        (ModelFileError.notAModel(file: "f", reason: "r"), 134060),
        (ModelFileError.legacyFormat(file: "f"), 134060),
        (ModelFileError.missingAttribute(file: "f", line: 1, element: "e", attribute: "a"), 134060),
        (ModelFileError.missingElement(file: "f", line: 1, element: "e", child: "c"), 134060),
        (ModelFileError.invalidModel(file: "f", line: 1, .duplicateEntity("E")), 134060),
        (ModelFileError.noVersions(bundle: "b"), 134060),
        (ModelFileError.missingCurrentVersion(bundle: "b", name: "n"), 134060),
        (ModelFileError.invalidCurrentVersionFile(file: "f", reason: "r"), 134060),
        (ModelFileError.unrepresentable(what: "w", reason: "r"), 134060),
        (ModelFileError.writeFailed(file: "f", reason: "r"), 134060),
        (CompiledModelError.damagedCompression(reason: "r"), 134060),
        (CompiledModelError.invalidArchive(reason: "r"), 134060),
        (CompiledModelError.invalidObject(object: "o", reason: "r"), 134060),
        (CompiledModelError.invalidModel(reason: "r"), 134060),
        (MappingModelError.unreadable(file: "f", reason: "r"), 134110),
        (MappingModelError.unreadableStore(file: "f", .corruptStore(file: "f", offset: nil, reason: "r")), 134000),
        (MappingModelError.invalidDocument(file: "f", reason: "r"), 134110),
        (MappingModelError.invalidObject(file: "f", object: "o", reason: "r"), 134110),
        (MappingModelError.mismatch(file: nil, entityMapping: "m", reason: "r"), 134110),
        (MappingMigrationError.mapping(.unreadable(file: "f", reason: "r")), 134110),
        (MappingMigrationError.sourceUnreadable(file: "f", underlying: Cause()), 134150),
        (MappingMigrationError.destinationExists(file: "f"), 134160),
        (MappingMigrationError.destinationUnwritable(file: "f", underlying: Cause()), 134160),
        (MappingMigrationError.unregisteredPolicy(className: "C", entityMapping: "m"), 134170),
        (MappingMigrationError.expression(entityMapping: "m", property: "p", expression: "e", reason: "r"), 134170),
        (MappingMigrationError.stageFailed(stage: .writing, entityMapping: "m", underlying: Cause()), 134110),
        (MappingMigrationError.stageFailed(stage: .writing, entityMapping: "m", underlying: StoreError.readOnlyStore(file: "f")), 134030),
        (MappingMigrationError.validation(ValidationError(failures: [])), 1560),
        (MappingMigrationError.cancelled(reason: Cause()), 134120),
        (MigrationPolicyFunctionError.unknownSelector("s"), 134170),
        (ImportError(problems: [ImportProblem(path: "$", message: "m")]), 134200),
        (JSONParseError(line: 1, column: 1, offset: 0, reason: "r"), 134200),
        (JSONValueProblem("m"), 134200),
    ] }

    @Test("Each error case has Core Data's code, and bridges to NSCocoaErrorDomain with it")
    func codes() {
        for (error, code) in Self.table {
            #expect(error.coreDataCode == code, "\(error)")
            let bridged = error as NSError
            #expect(bridged.domain == NSCocoaErrorDomain)
            #expect(bridged.code == code, "\(error)")
        }
    }
}
