internal import CSQLite

/// The SQL functions Core Data's own triggers call, registered on every connection so that a
/// store Apple's Core Data wrote can be saved into.
///
/// Core Data keeps a derived attribute (`pagesCount` = `pages.@count`) with triggers on the
/// tables it depends on (`Z_DA_ZPAGE_Book_pagesCount_PARAMETER_INSERT`, …): each updates the
/// derived column in SQL, then calls one of these with the changed row
/// (`'ZBOOK', Z_ENT, Z_PK, 'pagesCount', ZPAGESCOUNT`) to tell a running Core Data which of its
/// objects to refresh. The column is what matters and the triggers write it; a save through
/// Strata drops the rows it touched from the coordinator's cache, so these only have to exist.
/// Each returns NULL.
enum CoreDataTriggerFunctions {
    /// The functions, by the names Core Data's trigger SQL calls.
    static let names = [
        "NSCoreDataDATriggerUpdatedAffectedObjectValue",
        "NSCoreDataDATriggerInsertUpdatedAffectedObjectValue",
    ]

    /// Registers every function on `connection`, for any number of arguments.
    static func register(on connection: SQLiteConnection) throws(SQLiteError) {
        for name in names {
            let result = sqlite3_create_function_v2(connection.handle, name, -1, SQLITE_UTF8, nil,
                                                    { context, _, _ in sqlite3_result_null(context) }, nil, nil, nil)
            guard result == SQLITE_OK else { throw connection.lastError(sql: nil, code: result) }
        }
    }
}
