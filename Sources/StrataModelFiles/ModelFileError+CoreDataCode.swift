import StrataCore

extension ModelFileError: CoreDataCodedError {
    /// `NSCoreDataError`: Core Data gives no model that fails to load, with no code of its own.
    public var coreDataErrorCode: CoreDataErrorCode { .coreData }
}

extension CompiledModelError: CoreDataCodedError {
    /// `NSCoreDataError`: Core Data gives no compiled model that fails to load, with no code of its own.
    public var coreDataErrorCode: CoreDataErrorCode { .coreData }
}
