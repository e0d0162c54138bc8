import CSQLite

/// Why the history store could not do what was asked: one line naming the database
/// file and the problem, carrying SQLite's own error when there is one.
public struct StoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The problem, for callers that react differently to each.
    public enum Kind: Sendable, Equatable {
        /// A read-only open found no file at the path.
        case missingFile
        /// The file is not a SQLite database.
        case notADatabase
        /// A SQLite file that isn't a cycletrack history (user_version 0 with tables, or an
        /// empty file): refused for writing, left untouched.
        case foreign
        /// The schema is newer than this cycletrack knows: refused, left untouched.
        case newerSchema(found: Int, known: Int)
        /// A read-only open found a schema older than this cycletrack's (it can't migrate).
        case olderSchema(found: Int, expected: Int)
        /// The row to update does not exist (or is not in the state the call expects).
        case missingRow
        /// The file (or its folder) cannot be written: `run` refuses to start on it.
        case readOnly
        /// A value read back is not one the schema allows.
        case invalidValue
        /// Any other SQLite failure: see `sqlite`.
        case sqlite
    }

    /// The database file.
    public let path: String
    public let kind: Kind
    /// What went wrong, as the rest of the sentence after "database PATH".
    public let problem: String
    /// SQLite's error, when SQLite reported one.
    public let sqlite: SQLiteError?

    public init(path: String, kind: Kind, problem: String, sqlite: SQLiteError? = nil) {
        self.path = path
        self.kind = kind
        self.problem = problem
        self.sqlite = sqlite
    }

    /// Wraps a SQLite failure while doing `action` ("recording a push").
    init(path: String, while action: String, _ error: SQLiteError) {
        if error.primaryCode == SQLITE_NOTADB {
            self.init(path: path, kind: .notADatabase,
                      problem: "is not a SQLite database (expected a cycletrack history file)", sqlite: error)
        } else if error.code == SQLITE_MISMATCH {
            self.init(path: path, kind: .invalidValue, problem: "holds an unexpected value while \(action): \(error.message)", sqlite: error)
        } else {
            self.init(path: path, kind: .sqlite, problem: "failed while \(action): \(error)", sqlite: error)
        }
    }

    public var description: String { "database \(path) \(problem)" }
}
