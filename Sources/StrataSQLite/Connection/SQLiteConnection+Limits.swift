internal import CSQLite

extension SQLiteConnection {
    /// The most `?` placeholders one statement may have (`SQLITE_MAX_VARIABLE_NUMBER`: 32,766
    /// in SQLite's default build since 3.32, 250,000 in Debian's, 999 in older builds).
    var variableLimit: Int {
        get { Int(sqlite3_limit(handle, SQLITE_LIMIT_VARIABLE_NUMBER, -1)) }
        set { sqlite3_limit(handle, SQLITE_LIMIT_VARIABLE_NUMBER, Int32(clamping: newValue)) }
    }
}
