import CSQLite

/// An error reported by SQLite: the extended result code, SQLite's message and the
/// statement that failed (when there was one), in the shape of GRDB's `DatabaseError`.
public struct SQLiteError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The extended result code (`SQLITE_BUSY_SNAPSHOT`, `SQLITE_CONSTRAINT_CHECK`, ...).
    public let code: Int32
    /// SQLite's own message (`sqlite3_errmsg`), or a description of the code.
    public let message: String
    /// The SQL that failed, if the error came from a statement.
    public let sql: String?

    public init(code: Int32, message: String, sql: String? = nil) {
        self.code = code
        self.message = message
        self.sql = sql
    }

    /// Reads the message of the last failure on `handle`, falling back to the
    /// generic text for `code` when there is no connection to ask.
    init(code: Int32, handle: OpaquePointer?, sql: String? = nil) {
        let text: String
        if let handle, let raw = sqlite3_errmsg(handle) {
            text = String(cString: raw)
        } else if let raw = sqlite3_errstr(code) {
            text = String(cString: raw)
        } else {
            text = "SQLite error \(code)"
        }
        self.init(code: code, message: text, sql: sql)
    }

    /// The primary result code (`SQLITE_BUSY` for `SQLITE_BUSY_SNAPSHOT`).
    public var primaryCode: Int32 { code & 0xFF }

    public var description: String {
        var text = "\(message) (SQLite code \(code))"
        if let sql {
            text += " in \(sql.split(whereSeparator: \.isNewline).joined(separator: " "))"
        }
        return text
    }
}
