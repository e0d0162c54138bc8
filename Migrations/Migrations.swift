/// The schema migrations, in order. Each file in this folder named `NNNN_name.sql`
/// must be listed here (SwiftPM names the bytes `_NNN_name_sql`: the first digit becomes `_`) (a test checks it) and in Package.swift's `.embedInCode`.
public struct Migration: Sendable {
    public let version: Int
    public let name: String
    public let sql: String
}

public enum Migrations {
    public static let all: [Migration] = [
        Migration(version: 1, name: "initial", sql: String(decoding: PackageResources._001_initial_sql, as: UTF8.self)),
    ]
}
