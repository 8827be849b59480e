import StrataCore

extension ImportError: CoreDataCodedError {
    /// `NSExternalRecordImportError`: records from outside could not be imported.
    public var coreDataErrorCode: CoreDataErrorCode { .externalRecordImport }
}

extension JSONParseError: CoreDataCodedError {
    /// `NSExternalRecordImportError`: the document to import is not JSON.
    public var coreDataErrorCode: CoreDataErrorCode { .externalRecordImport }
}

extension JSONValueProblem: CoreDataCodedError {
    /// `NSExternalRecordImportError`: a value to import does not fit where it stands.
    public var coreDataErrorCode: CoreDataErrorCode { .externalRecordImport }
    /// The message.
    public var description: String { message }
}
