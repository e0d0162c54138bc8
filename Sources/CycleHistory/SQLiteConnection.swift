import CSQLite

/// One connection to a SQLite database file, in the shape of swift-package-manager's
/// `Basics/SQLite.swift`: it owns the `sqlite3*`, prepares each SQL text once, binds
/// parameters only, and reports every failure as a `SQLiteError`.
///
/// Not `Sendable`: one owner (the service's runner actor, or a command) uses it.
final class SQLiteConnection {
    enum Mode {
        /// Opens for reading and writing, creating the file when missing.
        case readWriteCreate
        /// Opens an existing file for reading only; never creates or changes it.
        case readOnly
        /// Opens an existing file as one nothing else changes (SQLite's `immutable=1`):
        /// no locks, no `-wal` or `-shm` needed, so it works in a read-only folder.
        case immutable
    }

    let path: String
    private let handle: OpaquePointer
    private var statements: [String: SQLiteStatement] = [:]
    private var savepointDepth = 0

    /// How long a statement waits by default for another connection's lock before
    /// failing with `SQLITE_BUSY`.
    static let busyTimeoutMilliseconds: Int32 = 5_000

    init(path: String, mode: Mode, busyTimeoutMilliseconds: Int32 = SQLiteConnection.busyTimeoutMilliseconds) throws(SQLiteError) {
        var flags = SQLITE_OPEN_NOMUTEX
        var name = path
        switch mode {
        case .readWriteCreate: flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        case .readOnly: flags |= SQLITE_OPEN_READONLY
        case .immutable:
            flags |= SQLITE_OPEN_READONLY | SQLITE_OPEN_URI
            name = "file:" + Self.uriPath(path) + "?immutable=1"
        }
        var connection: OpaquePointer?
        let code = sqlite3_open_v2(name, &connection, flags, nil)
        guard code == SQLITE_OK, let connection else {
            let error = SQLiteError(code: code, handle: connection)
            sqlite3_close_v2(connection)
            throw error
        }
        self.path = path
        self.handle = connection
        sqlite3_extended_result_codes(connection, 1)
        sqlite3_busy_timeout(connection, busyTimeoutMilliseconds)
    }

    /// `path` for a `file:` URI: characters with a meaning there are percent-encoded.
    static func uriPath(_ path: String) -> String {
        var out = ""
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "?"), UInt8(ascii: "#"), UInt8(ascii: "%"), 0..<0x21, 0x7F...:
                let hex = Array("0123456789ABCDEF".utf8)
                out += "%" + String(decoding: [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]], as: UTF8.self)
            default:
                out += String(decoding: [byte], as: UTF8.self)
            }
        }
        return out
    }

    /// Whether SQLite opened the main database read-only (asked to, or because the
    /// file can't be written: SQLite then falls back silently).
    var isReadOnly: Bool { sqlite3_db_readonly(handle, "main") == 1 }

    deinit {
        // Statements must be finalized before the connection closes.
        statements.removeAll()
        sqlite3_close_v2(handle)
    }

    /// Runs a script of several statements without parameters (a migration).
    func executeScript(_ sql: String) throws(SQLiteError) {
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &message)
        guard code == SQLITE_OK else {
            let text = message.map { String(cString: $0) }
            sqlite3_free(message)
            let error = SQLiteError(code: code, handle: handle, sql: sql)
            throw SQLiteError(code: error.code, message: text ?? error.message, sql: sql)
        }
    }

    /// Runs one statement that returns no rows (or whose rows don't matter).
    func execute(_ sql: String, _ values: [any SQLiteBindable] = []) throws(SQLiteError) {
        let statement = try prepared(sql)
        try statement.bind(values)
        while try statement.step() {}
    }

    /// Runs a query and reads every row with `read`.
    func rows<T>(
        _ sql: String, _ values: [any SQLiteBindable] = [],
        _ read: (SQLiteRow) throws(SQLiteError) -> T
    ) throws(SQLiteError) -> [T] {
        var result: [T] = []
        try forEachRow(sql, values) { row throws(SQLiteError) in result.append(try read(row)) }
        return result
    }

    /// Runs a query and hands each row to `visit` as it is read, keeping none.
    func forEachRow(
        _ sql: String, _ values: [any SQLiteBindable] = [],
        _ visit: (SQLiteRow) throws(SQLiteError) -> Void
    ) throws(SQLiteError) {
        let statement = try prepared(sql)
        try statement.bind(values)
        do {
            while try statement.step() {
                try visit(statement.row)
            }
        } catch {
            statement.reset()
            throw error
        }
    }

    /// Runs a query and reads its first row, if any.
    func firstRow<T>(
        _ sql: String, _ values: [any SQLiteBindable] = [],
        _ read: (SQLiteRow) throws(SQLiteError) -> T
    ) throws(SQLiteError) -> T? {
        let statement = try prepared(sql)
        try statement.bind(values)
        defer { statement.reset() }
        guard try statement.step() else { return nil }
        return try read(statement.row)
    }

    /// The rowid of the last successful `INSERT` on this connection.
    var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// How many rows the last `INSERT`, `UPDATE` or `DELETE` changed.
    var changes: Int { Int(sqlite3_changes(handle)) }

    /// Whether a transaction is open on this connection.
    var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    /// Runs `body` in `BEGIN IMMEDIATE ... COMMIT` (taking the write lock up front,
    /// so it waits on the busy timeout instead of failing mid-way), rolling back when
    /// it throws. Inside another transaction it nests as a savepoint.
    func transaction<T>(_ body: () throws -> T) throws -> T {
        if isInTransaction {
            savepointDepth += 1
            defer { savepointDepth -= 1 }
            let name = "nested\(savepointDepth)"
            try execute("SAVEPOINT \(name)")
            do {
                let result = try body()
                try execute("RELEASE \(name)")
                return result
            } catch {
                try? execute("ROLLBACK TO \(name)")
                try? execute("RELEASE \(name)")
                throw error
            }
        }
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            // A failed COMMIT or statement may already have ended the transaction.
            if isInTransaction { try? execute("ROLLBACK") }
            throw error
        }
    }

    private func prepared(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        if let statement = statements[sql] { return statement }
        let statement = try SQLiteStatement(database: handle, sql: sql)
        statements[sql] = statement
        return statement
    }
}
