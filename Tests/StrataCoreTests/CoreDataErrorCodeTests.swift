import Foundation
import StrataCore
import Testing

/// Every error of StrataCore carries the code Core Data gives the same failure and bridges to a
/// Cocoa error with it. The table names every case of every error type: a case added without a
/// row here fails `everyCaseHasARow`.
@Suite("Core Data error codes")
struct CoreDataErrorCodeTests {
    private static let id = ManagedObjectID(entityName: "Employee", storeIdentifier: "S", primaryKey: 1)
    private static let incompatibility = StoreIncompatibility(file: "f", entities: ["E"], firstChange: nil, matchingVersions: [])
    private static let matched = StoreIncompatibility(file: "f", entities: ["E"], firstChange: nil, matchingVersions: ["V1"])
    private static func failure(_ reason: ValidationFailure.Reason) -> ValidationFailure {
        ValidationFailure(objectID: id, entityName: "Employee", key: "k", reason: reason)
    }

    /// Each case of each error type and the number of the Core Data error it is.
    static var table: [(error: any CoreDataCodedError, code: Int)] { [
        // ObjectError
        (ObjectError.unknownKey(entity: "E", key: "k"), 134060),
        (ObjectError.unknownEntity("E"), 134060),
        (ObjectError.wrongValueType(entity: "E", key: "k", expected: .string, found: "Int"), 1550),
        (ObjectError.valueOutOfRange(entity: "E", key: "k", value: "1e9"), 1550),
        (ObjectError.invalidKeyPath(keyPath: "a..b", reason: "empty"), 134060),
        (ObjectError.objectNotFound(id), 133000),
        (ObjectError.objectDeleted(id), 133000),
        (ObjectError.wrongContext(id), 134060),
        (ObjectError.abstractEntity("E"), 134060),
        (ObjectError.unknownValueTransformer(entity: "E", key: "k", name: "T"), 134060),
        (ObjectError.transformationFailed(entity: "E", key: "k", reason: "r"), 134060),
        (ObjectError.missingContextChanges(notification: "n"), 134060),
        // ValidationError: one failure takes its rule's code, several NSValidationMultipleErrorsError.
        (ValidationError(failures: [failure(.missingMandatoryProperty)]), 1570),
        (ValidationError(failures: [failure(.tooSmall(minimum: 1))]), 1620),
        (ValidationError(failures: [failure(.tooLarge(maximum: 1))]), 1610),
        (ValidationError(failures: [failure(.tooShort(minimumLength: 1))]), 1670),
        (ValidationError(failures: [failure(.tooLong(maximumLength: 1))]), 1660),
        (ValidationError(failures: [failure(.patternMismatch(pattern: "x"))]), 1680),
        (ValidationError(failures: [failure(.tooFewObjects(minimum: 2, count: 1))]), 1580),
        (ValidationError(failures: [failure(.tooManyObjects(maximum: 2, count: 3))]), 1590),
        (ValidationError(failures: [failure(.deleteDenied(destinationCount: 1))]), 1600),
        (ValidationError(failures: [failure(.custom("mine"))]), 1550),
        (ValidationError(failures: [failure(.tooSmall(minimum: 1)), failure(.missingMandatoryProperty)]), 1560),
        // StoreError
        (StoreError.unknownStoreType("T"), 134000),
        (StoreError.noStoreForEntity("E"), 134060),
        (StoreError.storeNotLoaded("S"), 134070),
        (StoreError.storeAlreadyLoaded("S"), 134080),
        (StoreError.unknownConfiguration("C"), 134060),
        (StoreError.mergeConflict([MergeConflict(objectID: id, oldVersion: 1, newVersion: 2)]), 133020),
        (StoreError.duplicateObject(id), 134030),
        (StoreError.missingObject(id), 133000),
        (StoreError.io(file: "f", operation: "read", reason: "r"), 134070),
        (StoreError.corruptStore(file: "f", offset: 3, reason: "r"), 134000),
        (StoreError.incompatibleModel(file: "f", entities: ["E"]), 134100),
        (StoreError.constraintConflict([ConstraintConflict(entityName: "E", properties: ["k"], objectID: id,
                                                           databaseObjectID: nil)]), 133021),
        (StoreError.storeTypeMismatch(file: "f", expected: "SQLite", found: "XML"), 134010),
        (StoreError.readOnlyStore(file: "f"), 134030),
        (StoreError.unusableName(file: "f", name: "1x"), 134020),
        (StoreError.invalidStoredValue(StoredValueProblem(file: "f", entityName: "E", object: "o", attribute: "a",
                                                          type: .integer16, found: "x")), 134060),
        // MigrationError
        (MigrationError.incompatibleStore(incompatibility), 134100),
        (MigrationError.noMigrationPath(incompatibility, reason: "r"), 134130),
        (MigrationError.noMigrationPath(matched, reason: "r"), 134140),
        (MigrationError.cannotInfer(MigrationChange(entity: "E", kind: .addedEntity), reason: "r"), 134190),
        (MigrationError.stepFailed(step: "s", reason: "r"), 134110),
        // BatchRequestError
        (BatchRequestError.unknownKey(index: 0, entity: "E", key: "k"), 134060),
        (BatchRequestError.notAnAttribute(index: 0, entity: "E", key: "k"), 134060),
        (BatchRequestError.notStored(index: 0, entity: "E", key: "k"), 134060),
        (BatchRequestError.invalidValue(index: 0, key: "k", error: .valueOutOfRange(entity: "E", key: "k", value: "v")), 1550),
        (BatchRequestError.invalidExpressionValue(objectID: id, key: "k", error: .unknownKey(entity: "E", key: "k")), 134060),
        (BatchRequestError.missingValue(index: 0, entity: "E", key: "k"), 1570),
        (BatchRequestError.noPropertiesToUpdate(entity: "E"), 134060),
        (BatchRequestError.constraintConflict(index: 1, entity: "E", properties: ["k"], otherIndex: 0, existingObject: nil), 1551),
        (BatchRequestError.deleteDenied(objectID: id, relationship: "r", destinationCount: 1), 1600),
        (BatchRequestError.temporaryObjectID(id), 134060),
        // PersistentHistoryError
        (PersistentHistoryError.unsupportedStore(storeIdentifier: "S", type: "T"), 134091),
        (PersistentHistoryError.notTracked(storeIdentifier: "S"), 134060),
        // Errors of things Core Data raises exceptions for.
        (ModelError.duplicateEntity("E"), 134060),
        (FetchRequestError.cancelled, 134060),
        (ObjectPredicateError.unboundVariable("x"), 134060),
        (UndoError.noOpenGroup, 134060),
        (FetchedResultsError.missingSortDescriptors(entity: "E"), 134060),
        (QueryGenerationError.unknownToken(.current), 134060),
        (CodableValueTransformer<[String]>.TransformerError.wrongType(expected: "[String]", found: "Int"), 134060),
    ] }

    @Test("Each error case has Core Data's code, and bridges to NSCocoaErrorDomain with it")
    func codes() {
        for (error, code) in Self.table {
            #expect(error.coreDataCode == code, "\(error)")
            #expect(error.coreDataErrorCode.rawValue == code)
            let bridged = error as NSError
            #expect(bridged.domain == NSCocoaErrorDomain, "\(error)")
            #expect(bridged.code == code, "\(error)")
            #expect(bridged.localizedDescription == error.description)
        }
    }

    @Test("Every case of the enum errors has a row in the table")
    func everyCaseHasARow() {
        func caseNames(_ type: Any.Type) -> Set<String> {
            Set(Self.table.filter { Swift.type(of: $0.error) == type }.map { caseName($0.error) })
        }
        // Written out: the number of cases of each enum, to be kept in step with the table.
        #expect(caseNames(ObjectError.self).count == 12)
        #expect(caseNames(StoreError.self).count == 16)
        #expect(caseNames(MigrationError.self).count == 4)
        #expect(caseNames(BatchRequestError.self).count == 10)
        #expect(caseNames(PersistentHistoryError.self).count == 2)
        #expect(Set(ValidationFailure.Reason.allExamples.map(\.coreDataErrorCode)).count == 10)
    }

    @Test("A validation error with several failures lists each as a Cocoa error under NSDetailedErrors")
    func detailedErrors() throws {
        let error = ValidationError(failures: [Self.failure(.tooSmall(minimum: 1)), Self.failure(.tooLong(maximumLength: 3))])
        let details = try #require(error.errorUserInfo[coreDataDetailedErrorsKey] as? [NSError])
        #expect(details.map(\.code) == [1620, 1660])
        #expect(details.allSatisfy { $0.domain == NSCocoaErrorDomain })
        #expect(details.map { $0.userInfo[coreDataValidationKeyErrorKey] as? String } == ["k", "k"])
        let single = ValidationError(failures: [Self.failure(.missingMandatoryProperty)])
        #expect(single.errorUserInfo[coreDataValidationKeyErrorKey] as? String == "k")
    }

    @Test("The codes are Core Data's numbers")
    func numbers() {
        let expected: [CoreDataErrorCode: Int] = [
            .managedObjectValidation: 1550, .validationMultipleErrors: 1560, .validationMissingMandatoryProperty: 1570,
            .validationNumberTooLarge: 1610, .validationNumberTooSmall: 1620, .validationDateTooSoon: 1640,
            .validationStringPatternMatching: 1680, .managedObjectReferentialIntegrity: 133000,
            .managedObjectMerge: 133020, .managedObjectConstraintMerge: 133021, .persistentStoreInvalidType: 134000,
            .persistentStoreTypeMismatch: 134010, .coreData: 134060, .persistentStoreIncompatibleVersionHash: 134100,
            .migration: 134110, .migrationMissingSourceModel: 134130, .sqlite: 134180,
            .inferredMappingModel: 134190, .persistentHistoryTokenExpired: 134301,
        ]
        for (code, number) in expected { #expect(code.rawValue == number) }
        #expect(Set(CoreDataErrorCode.allCases.map(\.rawValue)).count == CoreDataErrorCode.allCases.count)
    }
}

/// The name of an enum value's case, without its associated values.
private func caseName(_ value: Any) -> String {
    String(String(describing: Mirror(reflecting: value).children.first?.label ?? "\(value)").prefix { $0 != "(" })
}

extension ValidationFailure.Reason {
    /// One value of each rule.
    static let allExamples: [ValidationFailure.Reason] = [
        .missingMandatoryProperty, .tooSmall(minimum: 1), .tooLarge(maximum: 1), .tooShort(minimumLength: 1),
        .tooLong(maximumLength: 1), .patternMismatch(pattern: "p"), .tooFewObjects(minimum: 1, count: 0),
        .tooManyObjects(maximum: 1, count: 2), .deleteDenied(destinationCount: 1), .custom("c"),
    ]
}
