import CSQLite
import Migrations

/// Brings a database to the newest schema by applying the ordered migrations it
/// lacks, each in its own `BEGIN IMMEDIATE` transaction together with the bump of
/// `PRAGMA user_version` (the model is GRDB's `DatabaseMigrator`).
struct SchemaMigrator {
    let migrations: [Migration]

    /// - Parameter migrations: versions 1, 2, 3... in order (checked by the tests for the real list).
    init(migrations: [Migration] = Migrations.all) {
        self.migrations = migrations
    }

    /// The version a fully migrated database has.
    var latestVersion: Int { migrations.last?.version ?? 0 }

    /// The schema version recorded in the file (`PRAGMA user_version`), 0 for a new file.
    static func version(of connection: SQLiteConnection) throws(SQLiteError) -> Int {
        try connection.firstRow("PRAGMA user_version") { row in Int(row.int64(0)) } ?? 0
    }

    /// Fails unless `version` is one this cycletrack can open for writing.
    func refuseNewer(_ version: Int, path: String) throws(StoreError) {
        guard version <= latestVersion else {
            throw StoreError(
                path: path, kind: .newerSchema(found: version, known: latestVersion),
                problem: "is at schema version \(version), this cycletrack knows up to \(latestVersion); upgrade cycletrack")
        }
    }

    /// Applies every migration above the file's version, up to `target` (all by default).
    func migrate(_ connection: SQLiteConnection, upTo target: Int? = nil) throws(StoreError) {
        let path = connection.path
        var previous = 0
        for migration in migrations where migration.version <= (target ?? latestVersion) {
            defer { previous = migration.version }
            do {
                try connection.transaction { () throws -> Void in
                    // Read inside the write lock: another process may have migrated meanwhile.
                    let current = try Self.version(of: connection)
                    try refuseNewer(current, path: path)
                    guard current < migration.version else { return }
                    // The listed migration before this one (versions run 1, 2, 3... once merged).
                    guard current == previous else {
                        throw StoreError(
                            path: path, kind: .sqlite,
                            problem: "is at schema version \(current), expected \(previous) before migration \(migration.version) (\(migration.name))")
                    }
                    try connection.executeScript(migration.sql)
                    // PRAGMA takes no bound parameters; the version is an Int from our own list.
                    try connection.execute("PRAGMA user_version = \(migration.version)")
                }
            } catch let error as StoreError {
                throw error
            } catch let error as SQLiteError {
                throw StoreError(path: path, while: "applying migration \(migration.version) (\(migration.name))", error)
            } catch {
                throw StoreError(path: path, kind: .sqlite, problem: "failed while applying migration \(migration.version): \(error)")
            }
        }
    }
}
