import Foundation
@_spi(StoreImplementation) import StrataCore

/// Saves made elsewhere are told by `PRAGMA data_version` on the store's own connection, which
/// changes when another connection (another coordinator, another process) commits to the file
/// and not for the store's own commits: one statement that reads no row.
@_spi(StoreImplementation)
extension SQLiteStore: RemoteChangeDetectingStore {
    public func hasRemoteChanges() throws -> Bool {
        try withConnection { state in
            guard case .integer(let version)? = try state.connection.scalar("PRAGMA data_version") else { return false }
            defer { state.checkedDataVersion = version }
            return state.checkedDataVersion.map { $0 != version } ?? false
        }
    }
}
