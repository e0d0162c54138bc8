import CSQLite
import FoundationEssentials

/// SQLite's `SQLITE_TRANSIENT`, which the C header defines as `((sqlite3_destructor_type)-1)`,
/// a macro Swift cannot import: SQLite copies the bound bytes before the call returns.
let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// A value that can be bound to a `?` parameter. Everything the store writes goes
/// through these, never through SQL text.
protocol SQLiteBindable {
    func bind(to statement: OpaquePointer, at index: Int32) -> Int32
}

extension Int64: SQLiteBindable {
    func bind(to statement: OpaquePointer, at index: Int32) -> Int32 { sqlite3_bind_int64(statement, index, self) }
}

extension Int: SQLiteBindable {
    func bind(to statement: OpaquePointer, at index: Int32) -> Int32 { sqlite3_bind_int64(statement, index, Int64(self)) }
}

extension Double: SQLiteBindable {
    func bind(to statement: OpaquePointer, at index: Int32) -> Int32 { sqlite3_bind_double(statement, index, self) }
}

extension String: SQLiteBindable {
    func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        sqlite3_bind_text(statement, index, self, -1, sqliteTransient)
    }
}

/// Times are stored as REAL Unix seconds, keeping sub-second precision.
extension Date: SQLiteBindable {
    func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        sqlite3_bind_double(statement, index, timeIntervalSince1970)
    }
}

extension Optional: SQLiteBindable where Wrapped: SQLiteBindable {
    func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        switch self {
        case .some(let value): value.bind(to: statement, at: index)
        case .none: sqlite3_bind_null(statement, index)
        }
    }
}

/// One prepared statement, finalized when released. Prepared once per SQL text by
/// `SQLiteConnection` and reused: `bind` resets it and clears earlier bindings.
final class SQLiteStatement {
    let sql: String
    private let handle: OpaquePointer
    private let database: OpaquePointer

    init(database: OpaquePointer, sql: String) throws(SQLiteError) {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v2(database, sql, -1, &statement, nil)
        guard code == SQLITE_OK, let statement else {
            sqlite3_finalize(statement)
            throw SQLiteError(code: code == SQLITE_OK ? SQLITE_MISUSE : code, handle: database, sql: sql)
        }
        self.sql = sql
        self.handle = statement
        self.database = database
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// Resets the statement and binds `values` to its parameters, in order.
    func bind(_ values: [any SQLiteBindable]) throws(SQLiteError) {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        let expected = Int(sqlite3_bind_parameter_count(handle))
        guard values.count == expected else {
            throw SQLiteError(code: SQLITE_RANGE, message: "expected \(expected) bound values, got \(values.count)", sql: sql)
        }
        for (offset, value) in values.enumerated() {
            let code = value.bind(to: handle, at: Int32(offset + 1))
            guard code == SQLITE_OK else { throw SQLiteError(code: code, handle: database, sql: sql) }
        }
    }

    /// Advances to the next row: `true` when a row is ready to read, `false` when done.
    func step() throws(SQLiteError) -> Bool {
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW:
            return true
        case SQLITE_DONE:
            sqlite3_reset(handle)
            return false
        default:
            // Read the message before the reset, which may replace it.
            let error = SQLiteError(code: code, handle: database, sql: sql)
            sqlite3_reset(handle)
            throw error
        }
    }

    /// Ends the current use, releasing the read lock a half-read query holds.
    func reset() {
        sqlite3_reset(handle)
    }

    /// The current row; valid until the next `step`.
    var row: SQLiteRow { SQLiteRow(statement: handle, sql: sql) }
}

/// Typed access to the columns of the current row, by index.
struct SQLiteRow {
    fileprivate let statement: OpaquePointer
    let sql: String

    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(statement, column) == SQLITE_NULL }

    func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(statement, column) }

    func double(_ column: Int32) -> Double { sqlite3_column_double(statement, column) }

    func string(_ column: Int32) -> String {
        guard let text = sqlite3_column_text(statement, column) else { return "" }
        return String(cString: text)
    }

    func date(_ column: Int32) -> Date { Date(timeIntervalSince1970: double(column)) }

    func optionalInt64(_ column: Int32) -> Int64? { isNull(column) ? nil : int64(column) }
    func optionalDouble(_ column: Int32) -> Double? { isNull(column) ? nil : double(column) }
    func optionalString(_ column: Int32) -> String? { isNull(column) ? nil : string(column) }
    func optionalDate(_ column: Int32) -> Date? { isNull(column) ? nil : date(column) }
}
