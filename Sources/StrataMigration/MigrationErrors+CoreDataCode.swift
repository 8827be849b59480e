import StrataCore

extension MappingModelError: CoreDataCodedError {
    /// The store error's code for a mapping model whose store cannot be read; `NSMigrationError`
    /// for a mapping model that is unreadable, invalid or does not fit the models.
    public var coreDataErrorCode: CoreDataErrorCode {
        switch self {
        case .unreadableStore(_, let error): error.coreDataErrorCode
        case .unreadable, .invalidDocument, .invalidObject, .mismatch: .migration
        }
    }
}

extension MappingMigrationError: CoreDataCodedError {
    /// The migration manager's codes: the source or the destination store, an entity policy or
    /// expression, a cancelled migration; a failed stage takes its cause's code when it has one.
    public var coreDataErrorCode: CoreDataErrorCode {
        switch self {
        case .mapping(let error): error.coreDataErrorCode
        case .sourceUnreadable: .migrationManagerSourceStore
        case .destinationExists, .destinationUnwritable: .migrationManagerDestinationStore
        case .unregisteredPolicy, .expression: .entityMigrationPolicy
        case .stageFailed(_, _, let underlying): (underlying as? any CoreDataCodedError)?.coreDataErrorCode ?? .migration
        case .validation(let error): error.coreDataErrorCode
        case .cancelled: .migrationCancelled
        }
    }
}

extension MigrationPolicyFunctionError: CoreDataCodedError {
    /// `NSEntityMigrationPolicyError`.
    public var coreDataErrorCode: CoreDataErrorCode { .entityMigrationPolicy }
}
