/// One schema migration: the SQL that takes a database from `version - 1` to `version`.
public struct Migration: Sendable {
    /// The number in the file name (`0001_initial.sql` is version 1).
    public let version: Int
    /// The rest of the file name (`initial`).
    public let name: String
    /// The statements, without any transaction control: the migrator wraps them.
    public let sql: String

    public init(version: Int, name: String, sql: String) {
        self.version = version
        self.name = name
        self.sql = sql
    }
}

/// The schema migrations, in order. Each file in this folder named `NNNN_name.sql`
/// must be listed here and in Package.swift's `.embedInCode` (a test checks both).
/// SwiftPM names the embedded bytes after the file, with the first digit turned
/// into `_`: `0001_initial.sql` becomes `PackageResources._001_initial_sql`.
public enum Migrations {
    public static let all: [Migration] = [
        Migration(version: 1, name: "initial", sql: String(decoding: PackageResources._001_initial_sql, as: UTF8.self)),
        Migration(version: 2, name: "superseded_pushes",
                  sql: String(decoding: PackageResources._002_superseded_pushes_sql, as: UTF8.self)),
        Migration(version: 3, name: "shown_finish_and_reminders",
                  sql: String(decoding: PackageResources._003_shown_finish_and_reminders_sql, as: UTF8.self)),
        Migration(version: 4, name: "appliance_profile",
                  sql: String(decoding: PackageResources._004_appliance_profile_sql, as: UTF8.self)),
        Migration(version: 5, name: "holds_replays_and_cost",
                  sql: String(decoding: PackageResources._005_holds_replays_and_cost_sql, as: UTF8.self)),
        Migration(version: 6, name: "api_settings_and_instance",
                  sql: String(decoding: PackageResources._006_api_settings_and_instance_sql, as: UTF8.self)),
        Migration(version: 7, name: "units_and_rests",
                  sql: String(decoding: PackageResources._007_units_and_rests_sql, as: UTF8.self)),
        Migration(version: 8, name: "household_settings",
                  sql: String(decoding: PackageResources._008_household_settings_sql, as: UTF8.self)),
        Migration(version: 9, name: "held_and_dropped_pushes",
                  sql: String(decoding: PackageResources._009_held_and_dropped_pushes_sql, as: UTF8.self)),
        Migration(version: 10, name: "integration",
                  sql: String(decoding: PackageResources._010_integration_sql, as: UTF8.self)),
    ]
}
