import StrataCore

extension SQLiteError: CoreDataCodedError {
    /// `NSSQLiteError`, Core Data's code for an error SQLite returned.
    public var coreDataErrorCode: CoreDataErrorCode { .sqlite }
}
