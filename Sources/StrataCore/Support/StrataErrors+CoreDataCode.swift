import Foundation

// The Core Data code of each of StrataCore's errors (docs/differences-from-core-data.md lists
// the failures Core Data reports by an exception, which take `.coreData`).

extension ObjectError: CoreDataCodedError {
    /// A fault or object whose row is gone is Core Data's referential integrity error; a value
    /// of the wrong type or range a validation error; the rest (exceptions in Core Data)
    /// `NSCoreDataError`.
    public var coreDataErrorCode: CoreDataErrorCode {
        switch self {
        case .objectNotFound, .objectDeleted: .managedObjectReferentialIntegrity
        case .wrongValueType, .valueOutOfRange, .unknownCompositeElement, .wrongCompositeValue: .managedObjectValidation
        case .unknownKey, .unknownEntity, .invalidKeyPath, .wrongContext, .abstractEntity,
             .unknownValueTransformer, .transformationFailed, .missingContextChanges: .coreData
        }
    }
}

extension ValidationFailure.Reason {
    /// The validation code of the rule (numbers and dates both take the number codes: the
    /// failure does not say which the attribute holds).
    public var coreDataErrorCode: CoreDataErrorCode {
        switch self {
        case .missingMandatoryProperty: .validationMissingMandatoryProperty
        case .tooSmall: .validationNumberTooSmall
        case .tooLarge: .validationNumberTooLarge
        case .tooShort: .validationStringTooShort
        case .tooLong: .validationStringTooLong
        case .patternMismatch: .validationStringPatternMatching
        case .tooFewObjects: .validationRelationshipLacksMinimumCount
        case .tooManyObjects: .validationRelationshipExceedsMaximumCount
        case .deleteDenied: .validationRelationshipDeniedDelete
        case .custom: .managedObjectValidation
        }
    }
}

extension ValidationFailure {
    /// The failure as Core Data's validation error: its rule's code, the key in the user info.
    public var nsError: NSError {
        var info: [String: Any] = [NSLocalizedDescriptionKey: description]
        if let key { info[coreDataValidationKeyErrorKey] = key }
        return NSError(domain: NSCocoaErrorDomain, code: reason.coreDataErrorCode.rawValue, userInfo: info)
    }
}

extension ValidationError: CoreDataCodedError {
    /// One failure's own code, or `NSValidationMultipleErrorsError` for several (as Core Data).
    public var coreDataErrorCode: CoreDataErrorCode {
        failures.count == 1 ? failures[0].reason.coreDataErrorCode : .validationMultipleErrors
    }

    /// The description, and each failure as a Cocoa error under `NSDetailedErrors` (for one
    /// failure, its key under `NSValidationErrorKey`), as Core Data fills them.
    public var errorUserInfo: [String: Any] {
        var info: [String: Any] = [NSLocalizedDescriptionKey: description]
        if failures.count == 1 {
            if let key = failures[0].key { info[coreDataValidationKeyErrorKey] = key }
        } else {
            info[coreDataDetailedErrorsKey] = failures.map(\.nsError)
        }
        return info
    }
}

extension StoreError: CoreDataCodedError {
    /// The store error Core Data reports for the same failure.
    public var coreDataErrorCode: CoreDataErrorCode {
        switch self {
        case .unknownStoreType, .corruptStore: .persistentStoreInvalidType
        case .storeTypeMismatch: .persistentStoreTypeMismatch
        case .storeAlreadyLoaded: .persistentStoreOpen
        case .storeNotLoaded, .io: .persistentStoreOperation
        case .noStoreForEntity, .unknownConfiguration, .invalidStoredValue: .coreData
        case .mergeConflict: .managedObjectMerge
        case .constraintConflict: .managedObjectConstraintMerge
        case .missingObject: .managedObjectReferentialIntegrity
        case .duplicateObject, .readOnlyStore: .persistentStoreSave
        case .incompatibleModel: .persistentStoreIncompatibleVersionHash
        case .unusableName: .persistentStoreIncompatibleSchema
        }
    }
}

extension MigrationError: CoreDataCodedError {
    /// The migration error Core Data reports: a store refused for its version, a missing source
    /// model (no known version matches the store) or mapping model, an inference that cannot be
    /// made, a failed step.
    public var coreDataErrorCode: CoreDataErrorCode {
        switch self {
        case .incompatibleStore: .persistentStoreIncompatibleVersionHash
        case .noMigrationPath(let incompatibility, _):
            incompatibility.matchingVersions.isEmpty ? .migrationMissingSourceModel : .migrationMissingMappingModel
        case .cannotInfer: .inferredMappingModel
        case .stepFailed: .migration
        }
    }
}

extension BatchRequestError: CoreDataCodedError {
    /// Validation codes for what a save would refuse the same way; `NSCoreDataError` otherwise.
    public var coreDataErrorCode: CoreDataErrorCode {
        switch self {
        case .missingValue: .validationMissingMandatoryProperty
        case .constraintConflict: .managedObjectConstraintValidation
        case .deleteDenied: .validationRelationshipDeniedDelete
        case .invalidValue(_, _, let error), .invalidExpressionValue(_, _, let error): error.coreDataErrorCode
        case .unknownKey, .notAnAttribute, .notStored, .noPropertiesToUpdate, .temporaryObjectID: .coreData
        }
    }
}

extension PersistentHistoryError: CoreDataCodedError {
    /// A store that keeps no history does not support the request; one opened without tracking
    /// is `NSCoreDataError`.
    public var coreDataErrorCode: CoreDataErrorCode {
        switch self {
        case .unsupportedStore: .persistentStoreUnsupportedRequestType
        case .notTracked: .coreData
        }
    }
}

extension ModelError: CoreDataCodedError {
    /// `NSCoreDataError`: Core Data raises an exception for an invalid model.
    public var coreDataErrorCode: CoreDataErrorCode { .coreData }
}

extension FetchRequestError: CoreDataCodedError {
    /// `NSCoreDataError`: Core Data raises an exception for an invalid request.
    public var coreDataErrorCode: CoreDataErrorCode { .coreData }
}

extension ObjectPredicateError: CoreDataCodedError {
    /// `NSCoreDataError`: Core Data raises an exception for a malformed predicate.
    public var coreDataErrorCode: CoreDataErrorCode { .coreData }
}

extension UndoError: CoreDataCodedError {
    /// `NSCoreDataError`: Core Data's undo manager raises an exception instead.
    public var coreDataErrorCode: CoreDataErrorCode { .coreData }
}

extension FetchedResultsError: CoreDataCodedError {
    /// `NSCoreDataError`: Core Data raises an exception for a misconfigured controller.
    public var coreDataErrorCode: CoreDataErrorCode { .coreData }
}

extension QueryGenerationError: CoreDataCodedError {
    /// `NSCoreDataError`, which Core Data reports for a token it does not know.
    public var coreDataErrorCode: CoreDataErrorCode { .coreData }
}

extension CodableValueTransformer.TransformerError: CoreDataCodedError {
    /// `NSCoreDataError`: Core Data raises an exception when a transformer fails.
    public var coreDataErrorCode: CoreDataErrorCode { .coreData }
}
