import CSQLite
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// cycletrack's history in one SQLite file: appliances, cycles, observations, pushes
/// and the tracker's saved state. Opening read-write creates the file when missing
/// and applies the migrations it lacks; opening read-only (for `query`, `stats`)
/// never changes the file and works while `run` writes to it (WAL).
///
/// Not `Sendable`: one owner (the runner actor, or a command) uses it. Only one
/// read-write store per file is expected to record observations, because the changes
/// it stores are computed against what it remembers of each appliance.
public final class HistoryStore {
    /// How the file is opened.
    public enum Mode: Sendable {
        /// Create when missing, migrate to the newest schema, read and write.
        case readWrite
        /// Read an existing, fully migrated file; never modify it.
        case readOnly
    }

    /// The database file.
    public let path: String
    let connection: SQLiteConnection
    /// The last state recorded per appliance, loaded lazily (see `recordObservation`).
    var applianceStates: [String: ApplianceObservationState] = [:]

    /// Opens the history at `path`.
    ///
    /// - `readWrite`: creates the file when missing, switches it to WAL, and applies
    ///   the missing migrations. A file from a newer cycletrack is refused before
    ///   anything is written to it.
    /// - `readOnly`: a missing file, a file that isn't SQLite, or a schema other than
    ///   this cycletrack's is a `StoreError`; nothing is created or modified.
    /// - Parameter busyTimeoutMilliseconds: how long a write waits for another
    ///   connection's lock before it fails.
    /// - Parameter acceptEmptyFile: take an existing empty file as new (`run` locks the
    ///   file it creates before opening it); otherwise `readWrite` refuses an empty file
    ///   and, always, a SQLite file of another program (user_version 0 with tables).
    public init(path: String, mode: Mode = .readWrite, busyTimeoutMilliseconds: Int32 = 5_000,
                acceptEmptyFile: Bool = false) throws(StoreError) {
        self.path = path
        switch mode {
        case .readOnly: connection = try Self.openReadOnly(path)
        case .readWrite: connection = try Self.openReadWrite(path, busyTimeoutMilliseconds: busyTimeoutMilliseconds, acceptEmptyFile: acceptEmptyFile)
        }
        do {
            try connection.execute("PRAGMA foreign_keys = ON")
        } catch {
            throw StoreError(path: path, while: "enabling foreign keys", error)
        }
    }

    /// An existing history at this schema, read-only; nothing is created or modified.
    private static func openReadOnly(_ path: String) throws(StoreError) -> SQLiteConnection {
        let migrator = SchemaMigrator()
        guard FileManager.default.fileExists(atPath: path) else {
            throw StoreError(path: path, kind: .missingFile,
                             problem: "does not exist (expected the history file that `cycletrack run` writes)")
        }
        var opened = try open(path, .readOnly)
        var version: Int
        do {
            version = try SchemaMigrator.version(of: opened)
        } catch {
            // A read-only folder (or file) leaves SQLite no way to make the `-shm` a WAL
            // reader needs; nothing can be writing there, so read it as immutable.
            do {
                opened = try SQLiteConnection(path: path, mode: .immutable)
                version = try SchemaMigrator.version(of: opened)
            } catch let retry {
                throw StoreError(path: path, while: "reading the schema version", retry)
            }
        }
        try migrator.refuseNewer(version, path: path)
        guard version == migrator.latestVersion else {
            throw StoreError(
                path: path, kind: .olderSchema(found: version, expected: migrator.latestVersion),
                problem: version == 0
                    ? "has no cycletrack schema (user_version 0, expected \(migrator.latestVersion)); is it a cycletrack history file?"
                    : "is at schema version \(version), this cycletrack expects \(migrator.latestVersion); run `cycletrack run` once to upgrade it")
        }
        return opened
    }

    /// The history created when missing, in WAL, migrated to this schema; a file from a
    /// newer cycletrack or another program is refused before anything is written to it.
    private static func openReadWrite(_ path: String, busyTimeoutMilliseconds: Int32,
                                      acceptEmptyFile: Bool) throws(StoreError) -> SQLiteConnection {
        let migrator = SchemaMigrator()
        let connection: SQLiteConnection
        if FileManager.default.fileExists(atPath: path) {
            let folder = path.contains("/") ? String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)]) : "."
            for (what, target) in [("the file", path), ("its folder", folder.isEmpty ? "/" : folder)] where access(target, W_OK) != 0 {
                throw StoreError(path: path, kind: .readOnly,
                                 problem: "cannot be written: \(what) is not writable (\(String(cString: strerror(errno)))); cycletrack run needs to write its history there")
            }
            // Check with a read-only connection first: a newer file must not even
            // have its journal mode changed.
            let probe = try open(path, .readOnly)
            let version = try Self.version(of: probe)
            try migrator.refuseNewer(version, path: path)
            if version == 0 { try refuseForeign(probe, path: path, acceptEmptyFile: acceptEmptyFile) }
        } else {
            try createPrivately(path)
        }
        do {
            connection = try SQLiteConnection(path: path, mode: .readWriteCreate, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        } catch {
            throw StoreError(path: path, while: "opening", error)
        }
        guard !connection.isReadOnly else {
            throw StoreError(path: path, kind: .readOnly,
                             problem: "cannot be written (a read-only file or file system); cycletrack run needs to write its history there")
        }
        do {
            _ = try connection.firstRow("PRAGMA journal_mode = WAL") { row in row.string(0) }
            // In WAL, NORMAL survives a crash of the process (not of the power)
            // and saves an fsync per commit: kind to the SD cards HA often runs on.
            try connection.execute("PRAGMA synchronous = NORMAL")
        } catch {
            throw StoreError(path: path, while: "switching to WAL", error)
        }
        try migrator.migrate(connection)
        do {
            // A write lock proves the folder takes the `-wal` and `-shm` files too.
            try connection.transaction {}
        } catch {
            throw StoreError(path: path, kind: .readOnly,
                             problem: "cannot be written (\(error)); is its folder writable?")
        }
        return connection
    }

    /// Creates a new history file readable by its owner only (0600), in a folder made
    /// 0700 when missing: the history says what the household did and when. SQLite
    /// gives the `-wal` and `-shm` files the database file's permissions.
    public static func createPrivately(_ path: String) throws(StoreError) {
        let folder = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        if !folder.isEmpty, !FileManager.default.fileExists(atPath: folder) {
            var made = path.hasPrefix("/") ? "" : "."
            for part in folder.split(separator: "/") {
                made += "/" + part
                if mkdir(made, 0o700) != 0, errno != EEXIST {
                    throw StoreError(path: path, kind: .readOnly,
                                     problem: "cannot be created: making the folder \(made) failed (\(String(cString: strerror(errno))))")
                }
            }
        }
        let descriptor = Glibc.open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if descriptor >= 0 {
            close(descriptor)
        } else if errno != EEXIST {
            throw StoreError(path: path, kind: .readOnly, problem: "cannot be created (\(String(cString: strerror(errno))))")
        }
    }

    /// Fails unless a file at schema version 0 is one cycletrack may take: a SQLite file
    /// with no tables (a creation cut short). An empty file, or another program's database,
    /// is left untouched: only a new file or a cycletrack history is written to.
    private static func refuseForeign(_ probe: SQLiteConnection, path: String, acceptEmptyFile: Bool) throws(StoreError) {
        var info = stat()
        if !acceptEmptyFile, stat(path, &info) == 0, info.st_size == 0 {
            throw StoreError(path: path, kind: .foreign,
                             problem: "is an empty file, not a cycletrack history (user_version 0); remove it, or give a new file's path")
        }
        let tables: [String]
        do {
            tables = try probe.rows("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name LIMIT 3", []) { $0.string(0) }
        } catch {
            throw StoreError(path: path, while: "reading its tables", error)
        }
        guard tables.isEmpty else {
            throw StoreError(path: path, kind: .foreign,
                             problem: "is not a cycletrack history (user_version 0, tables \(tables.joined(separator: ", ")), ...); it is left untouched: give a cycletrack history or a new file's path")
        }
    }

    private static func open(_ path: String, _ mode: SQLiteConnection.Mode) throws(StoreError) -> SQLiteConnection {
        do {
            return try SQLiteConnection(path: path, mode: mode)
        } catch {
            throw StoreError(path: path, while: "opening", error)
        }
    }

    private static func version(of connection: SQLiteConnection) throws(StoreError) -> Int {
        do {
            return try SchemaMigrator.version(of: connection)
        } catch {
            throw StoreError(path: connection.path, while: "reading the schema version", error)
        }
    }

    /// The schema version of the open file.
    public func schemaVersion() throws(StoreError) -> Int {
        try Self.version(of: connection)
    }

    /// Runs `body` in one `BEGIN IMMEDIATE ... COMMIT` transaction, rolling back when it
    /// throws (nested calls become savepoints). The store's own methods may be called inside.
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        do {
            return try connection.transaction(body)
        } catch let error as SQLiteError {
            applianceStates.removeAll()
            throw StoreError(path: path, while: "running a transaction", error)
        } catch {
            // What was remembered of the appliances may describe rows just rolled back.
            applianceStates.removeAll()
            throw error
        }
    }

    /// Runs `body`, turning a SQLite failure into a `StoreError` that says what was being done.
    func perform<T>(_ action: String, _ body: () throws(SQLiteError) -> T) throws(StoreError) -> T {
        do {
            return try body()
        } catch {
            throw StoreError(path: path, while: action, error)
        }
    }

    // MARK: Appliances

    /// Records that the appliance exists (or still does) with this name at `at`.
    /// Must come before cycles, observations, pushes or tracker state of the appliance.
    public func upsertAppliance(id: String, name: String, at: Date, profile: String? = nil) throws(StoreError) {
        try perform("recording appliance '\(id)'") { () throws(SQLiteError) in
            try connection.execute(
                """
                INSERT INTO appliances (id, name, first_seen, last_seen, profile) VALUES (?1, ?2, ?3, ?3, ?4)
                ON CONFLICT (id) DO UPDATE SET
                    name = excluded.name,
                    first_seen = min(first_seen, excluded.first_seen),
                    last_seen = max(last_seen, excluded.last_seen),
                    profile = coalesce(excluded.profile, profile)
                """, [id, name, at, profile])
        }
    }

    /// The brand profile the appliance was last recorded with (`BrandProfile`'s raw
    /// value); nil for an unknown appliance or one recorded before schema version 4.
    public func applianceProfile(id: String) throws(StoreError) -> String? {
        try perform("reading appliance '\(id)'") { () throws(SQLiteError) in
            try connection.rows("SELECT profile FROM appliances WHERE id = ?1", [id]) { $0.optionalString(0) }.first ?? nil
        }
    }

    /// Every appliance's name, by id.
    public func applianceNames() throws(StoreError) -> [String: String] {
        try perform("reading the appliances") { () throws(SQLiteError) in
            Dictionary(try connection.rows("SELECT id, name FROM appliances", []) { ($0.string(0), $0.string(1)) },
                       uniquingKeysWith: { first, _ in first })
        }
    }

    // MARK: Tracker state

    /// Saves the appliance's tracker state (a JSON document), replacing the previous one.
    public func saveTrackerState(applianceID: String, json: String, at: Date) throws(StoreError) {
        try perform("saving the tracker state of '\(applianceID)'") { () throws(SQLiteError) in
            try connection.execute(
                """
                INSERT INTO tracker_state (appliance_id, state, updated_at) VALUES (?1, ?2, ?3)
                ON CONFLICT (appliance_id) DO UPDATE SET state = excluded.state, updated_at = excluded.updated_at
                """, [applianceID, json, at])
        }
    }

    /// The appliance's saved tracker state, if any.
    public func trackerState(applianceID: String) throws(StoreError) -> String? {
        try perform("reading the tracker state of '\(applianceID)'") { () throws(SQLiteError) in
            try connection.firstRow("SELECT state FROM tracker_state WHERE appliance_id = ?1", [applianceID]) { row in
                row.string(0)
            }
        }
    }
}
