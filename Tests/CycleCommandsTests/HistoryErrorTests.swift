@testable import CycleCommands
@testable import CycleHistory
import Foundation
import FoundationEssentials
import TestSupport
import Testing

@Suite struct HistoryErrorTests {
    private func run(_ command: String, _ words: [String]) throws(CommandError) -> String {
        switch command {
        case "query": try QueryCommand(arguments: words, environment: [:]).run(now: t(0))
        default: try StatsCommand(arguments: words, environment: [:]).run(now: t(0))
        }
    }

    @Test(arguments: ["query", "stats"])
    func aMissingDatabaseIsANoInputErrorAndNotCreated(command: String) throws {
        let files = try StoreFixture()
        let path = files.path("missing.sqlite")
        let error = #expect(throws: CommandError.self) { _ = try run(command, ["--db", path]) }
        #expect(error?.code == .noInput, "66, as for a missing trace or config file")
        #expect(error?.message == "database \(path) does not exist (expected the history file that `cycletrack run` writes)")
        #expect(try files.files().isEmpty)
    }

    @Test(arguments: ["query", "stats"])
    func aFileThatIsNotSQLiteIsAConfigErrorAndUntouched(command: String) throws {
        let files = try StoreFixture()
        let path = files.path("cycles.csv")
        let content = Data("id,appliance\n1,dishwasher\n".utf8)
        try content.write(to: URL(fileURLWithPath: path))
        let error = #expect(throws: CommandError.self) { _ = try run(command, ["--db", path]) }
        #expect(error?.code == .config)
        #expect(error?.message == "database \(path) is not a SQLite database (expected a cycletrack history file)")
        #expect(try files.bytes(path) == content)
        #expect(try files.files() == ["cycles.csv"])
    }

    @Test(arguments: ["query", "stats"])
    func aNewerSchemaIsAConfigErrorAndUntouched(command: String) throws {
        let fixture = try HistoryFixture()
        do {
            let store = try HistoryStore(path: fixture.path)
            try store.connection.execute("PRAGMA user_version = \(SchemaMigrator().latestVersion + 1)")
        }
        let before = try fixture.files.bytes(fixture.path)
        let error = #expect(throws: CommandError.self) { _ = try run(command, ["--db", fixture.path]) }
        #expect(error?.code == .config)
        #expect(error?.message == "database \(fixture.path) is at schema version \(SchemaMigrator().latestVersion + 1), this cycletrack knows up to \(SchemaMigrator().latestVersion); upgrade cycletrack")
        #expect(try fixture.files.bytes(fixture.path) == before)
    }

    static let queryErrors: [([String], ExitCode, String)] = [
        (["--since", "last tuesday"], .usage, "--since expected"),
        (["--until", "2026-02-30"], .usage, "--until expected"),
        (["--since", "2026-11-03", "--until", "2026-11-02T00:00:00Z"], .usage, "--since 2026-11-03 is not before --until"),
        (["--source", "test"], .usage, "--source expects one of run|replay|demo, got 'test'"),
        (["--colour"], .usage, "unknown option --colour"),
        (["--format", "yaml"], .usage, "--format expects one of table|json|csv, got 'yaml'"),
        (["--limit", "many"], .usage, "--limit expects a whole number"),
        (["--limit", "-1"], .usage, "--limit expects a whole number"),
        (["--outcome", "done"], .usage, "--outcome expects one of finished|aborted|failed|lost|open"),
        (["--db"], .usage, "--db needs a value"),
        (["history.sqlite"], .usage, "query takes no arguments besides options"),
    ]

    @Test(arguments: queryErrors)
    func queryOptionErrors(words: [String], code: ExitCode, message: String) throws {
        let fixture = try HistoryFixture()
        let before = try fixture.files.bytes(fixture.path)
        let error = #expect(throws: CommandError.self) { _ = try fixture.query(words) }
        #expect(error?.code == code)
        #expect(error?.message.hasPrefix(message) == true, "\(error?.message ?? "")")
        #expect(try fixture.files.bytes(fixture.path) == before)
    }

    static let statsErrors: [([String], ExitCode, String)] = [
        (["--by", "fortnight"], .usage, "--by expects one of appliance|program|week|month, got 'fortnight'"),
        (["--outcome", "done"], .usage, "--outcome expects one of finished|aborted|failed|lost|open"),
        (["--since", "soon"], .usage, "--since expected"),
    ]

    @Test(arguments: statsErrors)
    func statsOptionErrors(words: [String], code: ExitCode, message: String) throws {
        let fixture = try HistoryFixture()
        let error = #expect(throws: CommandError.self) { _ = try fixture.stats(words) }
        #expect(error?.code == code)
        #expect(error?.message.hasPrefix(message) == true, "\(error?.message ?? "")")
    }
}
