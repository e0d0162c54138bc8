@testable import CycleHistory
import Foundation
import FoundationEssentials
import Migrations
import TestSupport
import Testing

@Suite struct MigrationTests {
    /// The repository's root, found from this file.
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func everyMigrationFileIsRegisteredAndEmbedded() throws {
        let folder = Self.root.appendingPathComponent("Migrations")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".sql") }.sorted()
        let package = try String(contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        #expect(!files.isEmpty)
        #expect(files.count == Migrations.all.count, "files \(files) vs registered \(Migrations.all.map(\.name))")
        let versions = Array(1...files.count)
        for (index, file) in files.enumerated() {
            let stem = file.dropLast(4)
            let parts = stem.split(separator: "_", maxSplits: 1)
            #expect(parts.count == 2 && parts[0].count == 4, "\(file) is not named NNNN_name.sql")
            let version = try #require(Int(parts[0]), "\(file) does not start with a number")
            #expect(version == versions[index], "\(file): expected version \(versions[index]), versions must run 1, 2, 3...")
            #expect(package.contains(#".embedInCode("\#(file)")"#), "\(file) is not embedded in Package.swift")
            let registered = try #require(Migrations.all.first { $0.version == version }, "\(file) is not in Migrations.all")
            #expect(registered.name == String(parts[1]))
            #expect(registered.sql == (try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)))
        }
        #expect(Migrations.all.map(\.version) == versions)
    }

    private func schema(_ path: String) throws -> [String] {
        let connection = try SQLiteConnection(path: path, mode: .readOnly)
        return try connection.rows("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name") { row in
            "\(row.string(0)) \(row.string(1)) \(row.string(2)): \(row.optionalString(3) ?? "")"
        }
    }

    @Test func everyEarlierVersionMigratesToTheSameSchema() throws {
        let fixture = try StoreFixture()
        _ = try HistoryStore(path: fixture.path("empty.sqlite"))
        let expected = try schema(fixture.path("empty.sqlite"))
        #expect(expected.contains { $0.hasPrefix("table cycles cycles:") })
        let migrator = SchemaMigrator()
        for version in [0] + Migrations.all.dropLast().map(\.version) {
            let path = fixture.path("from\(version).sqlite")
            // Version 0 is no file yet: an existing empty file is refused (not a history).
            if version > 0 {
                let connection = try SQLiteConnection(path: path, mode: .readWriteCreate)
                try migrator.migrate(connection, upTo: version)
                #expect(try SchemaMigrator.version(of: connection) == version)
            }
            let store = try HistoryStore(path: path)
            #expect(try store.schemaVersion() == migrator.latestVersion)
            #expect(try schema(path) == expected, "migrating from version \(version)")
        }
    }

    @Test func migrationsApplyInOrderEachWithItsVersion() throws {
        let fixture = try StoreFixture()
        let migrator = SchemaMigrator(migrations: [
            Migration(version: 1, name: "one", sql: "CREATE TABLE a (x);"),
            Migration(version: 2, name: "two", sql: "CREATE TABLE b (y); INSERT INTO a VALUES (2);"),
            Migration(version: 3, name: "broken", sql: "CREATE TABLE c (z); INSERT INTO nowhere VALUES (1);"),
        ])
        let connection = try SQLiteConnection(path: fixture.path(), mode: .readWriteCreate)
        try migrator.migrate(connection, upTo: 1)
        #expect(try SchemaMigrator.version(of: connection) == 1)
        try migrator.migrate(connection, upTo: 2)
        #expect(try SchemaMigrator.version(of: connection) == 2)
        try migrator.migrate(connection, upTo: 2)  // nothing left to do
        #expect(try connection.rows("SELECT x FROM a") { $0.int64(0) } == [2])
        let error = #expect(throws: StoreError.self) { try migrator.migrate(connection) }
        #expect(error?.description.contains("applying migration 3 (broken)") == true)
        #expect(error?.description.contains("no such table: nowhere") == true)
        // The failed migration left nothing behind: no table c, still version 2.
        #expect(try SchemaMigrator.version(of: connection) == 2)
        #expect(try connection.rows("SELECT name FROM sqlite_master WHERE name = 'c'") { $0.string(0) }.isEmpty)
    }

    @Test(arguments: [HistoryStore.Mode.readWrite, .readOnly])
    func aNewerDatabaseIsRefusedAndLeftUntouched(mode: HistoryStore.Mode) throws {
        let fixture = try StoreFixture()
        let path = fixture.path()
        do {
            let store = try fixture.store()
            _ = try store.openCycle(applianceID: "dishwasher", program: nil, startedAt: t(0), source: .run)
            try store.connection.execute("PRAGMA user_version = \(SchemaMigrator().latestVersion + 1)")
        }
        let before = try fixture.bytes(path)
        let known = SchemaMigrator().latestVersion
        let newer = known + 1
        let error = #expect(throws: StoreError.self) { _ = try HistoryStore(path: path, mode: mode) }
        #expect(error?.kind == .newerSchema(found: newer, known: known))
        #expect(error?.description == "database \(path) is at schema version \(newer), this cycletrack knows up to \(known); upgrade cycletrack")
        #expect(try fixture.bytes(path) == before)
    }

    @Test func aFileThatIsNotSQLiteIsRefusedAndLeftUntouched() throws {
        let fixture = try StoreFixture()
        let path = fixture.path("notes.sqlite")
        try Data("these are my notes, not a database\n".utf8).write(to: URL(fileURLWithPath: path))
        for mode in [HistoryStore.Mode.readWrite, .readOnly] {
            let error = #expect(throws: StoreError.self) { _ = try HistoryStore(path: path, mode: mode) }
            #expect(error?.kind == .notADatabase)
            #expect(error?.description == "database \(path) is not a SQLite database (expected a cycletrack history file)")
        }
        #expect(try fixture.bytes(path) == Data("these are my notes, not a database\n".utf8))
        #expect(try fixture.files() == ["notes.sqlite"])
    }

    @Test func readOnlyNeedsAnExistingCurrentFile() throws {
        let fixture = try StoreFixture()
        let missing = #expect(throws: StoreError.self) { _ = try HistoryStore(path: fixture.path("nothing.sqlite"), mode: .readOnly) }
        #expect(missing?.kind == .missingFile)
        #expect(try fixture.files().isEmpty)

        let emptyPath = fixture.path("empty.sqlite")
        try Data().write(to: URL(fileURLWithPath: emptyPath))
        let empty = #expect(throws: StoreError.self) { _ = try HistoryStore(path: emptyPath, mode: .readOnly) }
        #expect(empty?.kind == .olderSchema(found: 0, expected: SchemaMigrator().latestVersion))
        #expect(try fixture.bytes(emptyPath).isEmpty)
    }
}
