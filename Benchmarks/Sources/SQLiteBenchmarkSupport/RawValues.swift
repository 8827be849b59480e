import Foundation
import GRDBSQLite

// Binding and reading values through the C API; inlinable so the engines' loops inline them, as
// hand-written code would.

/// Binds `text` to parameter `index` of `statement` (SQLite copies it).
@inlinable public func bindText(_ statement: OpaquePointer, _ index: Int32, _ text: String) {
    var text = text
    text.withUTF8 { bytes in
        bytes.withMemoryRebound(to: CChar.self) {
            _ = sqlite3_bind_text(statement, index, $0.baseAddress, Int32($0.count), RawDatabase.transient)
        }
    }
}

/// Binds `data` to parameter `index` of `statement` (SQLite copies it).
@inlinable public func bindBlob(_ statement: OpaquePointer, _ index: Int32, _ data: Data) {
    data.withUnsafeBytes { _ = sqlite3_bind_blob(statement, index, $0.baseAddress, Int32($0.count), RawDatabase.transient) }
}

/// The text in column `index` of the current row ("" for NULL).
@inlinable public func columnText(_ statement: OpaquePointer, _ index: Int32) -> String {
    guard let pointer = sqlite3_column_text(statement, index) else { return "" }
    return String(decoding: UnsafeBufferPointer(start: pointer, count: Int(sqlite3_column_bytes(statement, index))), as: UTF8.self)
}

/// The blob in column `index` of the current row (empty for NULL).
@inlinable public func columnBlob(_ statement: OpaquePointer, _ index: Int32) -> Data {
    guard let pointer = sqlite3_column_blob(statement, index) else { return Data() }
    return Data(bytes: pointer, count: Int(sqlite3_column_bytes(statement, index)))
}
