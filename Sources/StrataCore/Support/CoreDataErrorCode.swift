import Foundation

/// The codes Core Data gives its errors in Cocoa's error domain (`CoreDataErrors.h`), so that
/// code and logs ported from Core Data keep working: every Strata error has one
/// (``CoreDataCodedError/coreDataCode``).
///
/// A failure that Core Data reports by raising an exception rather than returning an error (an
/// unknown key, a malformed predicate, an object of another context) has no code of its own and
/// takes ``coreData`` (`NSCoreDataError`).
public enum CoreDataErrorCode: Int, Sendable, Hashable, CaseIterable {
    /// `NSManagedObjectValidationError`: a generic validation error.
    case managedObjectValidation = 1550
    /// `NSManagedObjectConstraintValidationError`: a uniqueness constraint violated.
    case managedObjectConstraintValidation = 1551
    /// `NSValidationMultipleErrorsError`: several validation errors at once.
    case validationMultipleErrors = 1560
    /// `NSValidationMissingMandatoryPropertyError`: a required property is nil.
    case validationMissingMandatoryProperty = 1570
    /// `NSValidationRelationshipLacksMinimumCountError`: a to-many below its minimum count.
    case validationRelationshipLacksMinimumCount = 1580
    /// `NSValidationRelationshipExceedsMaximumCountError`: a to-many above its maximum count.
    case validationRelationshipExceedsMaximumCount = 1590
    /// `NSValidationRelationshipDeniedDeleteError`: a `deny` delete rule with destinations left.
    case validationRelationshipDeniedDelete = 1600
    /// `NSValidationNumberTooLargeError`: a number above its maximum.
    case validationNumberTooLarge = 1610
    /// `NSValidationNumberTooSmallError`: a number below its minimum.
    case validationNumberTooSmall = 1620
    /// `NSValidationDateTooLateError`: a date after its maximum.
    case validationDateTooLate = 1630
    /// `NSValidationDateTooSoonError`: a date before its minimum.
    case validationDateTooSoon = 1640
    /// `NSValidationInvalidDateError`: an invalid date.
    case validationInvalidDate = 1650
    /// `NSValidationStringTooLongError`: a string longer than its maximum length.
    case validationStringTooLong = 1660
    /// `NSValidationStringTooShortError`: a string shorter than its minimum length.
    case validationStringTooShort = 1670
    /// `NSValidationStringPatternMatchingError`: a string that does not match its pattern.
    case validationStringPatternMatching = 1680
    /// `NSValidationInvalidURIError`: an invalid URI.
    case validationInvalidURI = 1690
    /// `NSManagedObjectContextLockingError`: a context could not be locked.
    case managedObjectContextLocking = 132000
    /// `NSPersistentStoreCoordinatorLockingError`: a coordinator could not be locked.
    case persistentStoreCoordinatorLocking = 132010
    /// `NSManagedObjectReferentialIntegrityError`: a fault for an object that does not exist.
    case managedObjectReferentialIntegrity = 133000
    /// `NSManagedObjectExternalRelationshipError`: a relationship to an object of another store.
    case managedObjectExternalRelationship = 133010
    /// `NSManagedObjectMergeError`: a merge conflict (optimistic locking failure).
    case managedObjectMerge = 133020
    /// `NSManagedObjectConstraintMergeError`: a uniqueness constraint conflict at a save.
    case managedObjectConstraintMerge = 133021
    /// `NSPersistentStoreInvalidTypeError`: an unknown store type, format or version.
    case persistentStoreInvalidType = 134000
    /// `NSPersistentStoreTypeMismatchError`: a store that is not of the type asked for.
    case persistentStoreTypeMismatch = 134010
    /// `NSPersistentStoreIncompatibleSchemaError`: a database-level error (a missing table…).
    case persistentStoreIncompatibleSchema = 134020
    /// `NSPersistentStoreSaveError`: a store returned an error for a save.
    case persistentStoreSave = 134030
    /// `NSPersistentStoreIncompleteSaveError`: a save that was not completed in every store.
    case persistentStoreIncompleteSave = 134040
    /// `NSPersistentStoreSaveConflictsError`: save conflicts.
    case persistentStoreSaveConflicts = 134050
    /// `NSCoreDataError`: a nonspecific Core Data error.
    case coreData = 134060
    /// `NSPersistentStoreOperationError`: a store operation failed.
    case persistentStoreOperation = 134070
    /// `NSPersistentStoreOpenError`: a store could not be opened.
    case persistentStoreOpen = 134080
    /// `NSPersistentStoreTimeoutError`: a store operation timed out.
    case persistentStoreTimeout = 134090
    /// `NSPersistentStoreUnsupportedRequestTypeError`: a request the store does not support.
    case persistentStoreUnsupportedRequestType = 134091
    /// `NSPersistentStoreIncompatibleVersionHashError`: a store written with another model version.
    case persistentStoreIncompatibleVersionHash = 134100
    /// `NSMigrationError`: a general migration error.
    case migration = 134110
    /// `NSMigrationConstraintViolationError`: a constraint violated during a migration.
    case migrationConstraintViolation = 134111
    /// `NSMigrationCancelledError`: a migration cancelled.
    case migrationCancelled = 134120
    /// `NSMigrationMissingSourceModelError`: the store's own model is not found.
    case migrationMissingSourceModel = 134130
    /// `NSMigrationMissingMappingModelError`: no mapping model leads to the model.
    case migrationMissingMappingModel = 134140
    /// `NSMigrationManagerSourceStoreError`: the source store failed.
    case migrationManagerSourceStore = 134150
    /// `NSMigrationManagerDestinationStoreError`: the destination store failed.
    case migrationManagerDestinationStore = 134160
    /// `NSEntityMigrationPolicyError`: an entity migration policy failed.
    case entityMigrationPolicy = 134170
    /// `NSSQLiteError`: a general SQLite error.
    case sqlite = 134180
    /// `NSInferredMappingModelError`: an inferred mapping model could not be made.
    case inferredMappingModel = 134190
    /// `NSExternalRecordImportError`: an external record could not be imported.
    case externalRecordImport = 134200
    /// `NSPersistentHistoryTokenExpiredError`: a history token older than the history kept.
    case persistentHistoryTokenExpired = 134301
}

/// The key of Core Data's error user info that lists the errors gathered in one error
/// (`NSDetailedErrorsKey`).
public let coreDataDetailedErrorsKey = "NSDetailedErrors"
/// The key of a validation error's user info naming the key that failed (`NSValidationKeyErrorKey`).
public let coreDataValidationKeyErrorKey = "NSValidationErrorKey"

/// An error that carries the code Core Data gives the same failure, and bridges to a Cocoa error
/// with it: `(error as NSError).domain` is `NSCocoaErrorDomain` and `.code` is ``coreDataCode``,
/// as Core Data's own errors are.
///
/// ```swift
/// do { try context.save() } catch let error as any CoreDataCodedError {
///     if error.coreDataErrorCode == .managedObjectMerge { … }   // error.coreDataCode == 133020
/// }
/// ```
public protocol CoreDataCodedError: CustomNSError, CustomStringConvertible {
    /// The Core Data error this error corresponds to.
    var coreDataErrorCode: CoreDataErrorCode { get }
}

extension CoreDataCodedError {
    /// The number of ``coreDataErrorCode``, as Core Data's `NSError.code` would have it.
    public var coreDataCode: Int { coreDataErrorCode.rawValue }
    /// Cocoa's error domain, where Core Data's errors are.
    public static var errorDomain: String { NSCocoaErrorDomain }
    /// ``coreDataCode``.
    public var errorCode: Int { coreDataCode }
    /// The error's one-line description as its localized description.
    public var errorUserInfo: [String: Any] { [NSLocalizedDescriptionKey: description] }
}
