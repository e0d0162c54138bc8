import Foundation
import HomeAssistantAPI
import Testing

/// docs/CYCLES.md, "Keys and roles", lists the table discovery uses: row for row, the same.
@Suite struct RoleTableDocsTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// A row as the docs write it.
    static func line(_ row: RoleTable.Row) -> String {
        let key = row.match == .uniqueID ? "`\(row.key)` (unique id)" : "`\(row.key)`"
        let domain = row.domain.map { " (`\($0)`)" } ?? ""
        return "| `\(row.integration)` | \(key)\(domain) | \(row.role.map { "`\($0.rawValue)`" } ?? "none")"
            + " | \(row.kind.map { "`\($0.rawValue)`" } ?? "") | `\(row.source)` |"
    }

    @Test func theDocsTableIsTheCodesTable() throws {
        let docs = try String(contentsOf: Self.root.appendingPathComponent("docs/CYCLES.md"), encoding: .utf8)
        let section = docs.components(separatedBy: "### Keys and roles").dropFirst().first ?? ""
        let rows = section.components(separatedBy: "\n").filter { $0.hasPrefix("| `") }
        let expected = RoleTable.rows.map(Self.line)
        if rows != expected { print(expected.joined(separator: "\n")) }
        #expect(rows.count == expected.count)
        for (index, line) in expected.enumerated() where rows.count <= index || rows[index] != line {
            Issue.record("docs/CYCLES.md, \"Keys and roles\", row \(index + 1) should be: \(line)")
            break
        }
    }
}
