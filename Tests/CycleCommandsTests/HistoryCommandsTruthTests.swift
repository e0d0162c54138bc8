import CycleCore
import Foundation
import Testing
import TestSupport
@testable import CycleHistory
@testable import CycleService
@testable import CycleCommands

/// `prune`, `replay --record` and `stats` on issue 22's defects: only a cycletrack
/// history (or a new file) is written to; no folder is made; holds and reminders are
/// stored where the page finds them; prune says what it kept; a program is an
/// appliance's; energy and cost per month.
@Suite("History commands tell the truth")
struct HistoryCommandsTruthTests {
    static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("docs/examples").path

    /// An environment whose configuration is an empty file in `files` (no ./cycletrack.json is read).
    static func environment(_ files: StoreFixture) throws -> [String: String] {
        let config = files.path("config.json")
        try Data("{}".utf8).write(to: URL(fileURLWithPath: config))
        return ["CYCLETRACK_CONFIG": config, "TZ": "UTC"]
    }

    /// Another program's database: user_version 0, one table of its own.
    static func foreignDatabase(_ path: String) throws {
        let connection = try SQLiteConnection(path: path, mode: .readWriteCreate)
        try connection.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)")
        try connection.execute("INSERT INTO notes (text) VALUES ('mine')")
    }

    static func code(_ body: () throws -> Void) -> ExitCode? {
        do {
            try body()
            return nil
        } catch let error as CommandError {
            return error.code
        } catch {
            return .software
        }
    }

    @Test("4. prune and replay --record leave another program's database and an empty file untouched: exit 78")
    func foreignFiles() throws {
        let files = try StoreFixture()
        let environment = try Self.environment(files)
        let foreign = files.path("other.sqlite")
        try Self.foreignDatabase(foreign)
        let empty = files.path("empty.sqlite")
        #expect(FileManager.default.createFile(atPath: empty, contents: Data()))
        for path in [foreign, empty] {
            let before = try files.bytes(path)
            #expect(Self.code { _ = try PruneCommand(arguments: ["--db", path, "--before", "30d"], environment: environment).run(now: t(0)) } == .config)
            #expect(Self.code {
                _ = try ReplayCommand(arguments: [Self.examples + "/dryer-jump-ends-ready.jsonl", "--appliance", "dryer", "--record", path],
                                      environment: environment).run()
            } == .config)
            #expect(try files.bytes(path) == before, "\(path) untouched")
            #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        }
        // A new file, and a cycletrack history, are written to.
        let fresh = files.path("new.sqlite")
        #expect(Self.code {
            _ = try ReplayCommand(arguments: [Self.examples + "/dryer-jump-ends-ready.jsonl", "--appliance", "dryer", "--record", fresh],
                                  environment: environment).run()
        } == nil)
        #expect(Self.code { _ = try PruneCommand(arguments: ["--db", fresh, "--before", "30d"], environment: environment).run(now: t(0)) } == nil)
    }

    @Test("5. replay --record into a folder that doesn't exist says so and makes none")
    func missingFolder() throws {
        let files = try StoreFixture()
        let environment = try Self.environment(files)
        let target = files.path("no/such/dir/x.sqlite")
        do {
            _ = try ReplayCommand(arguments: [Self.examples + "/dryer-jump-ends-ready.jsonl", "--appliance", "dryer", "--record", target],
                                  environment: environment).run()
            Issue.record("recorded into a folder that did not exist")
        } catch {
            #expect(error.code == .config)
            #expect(error.message.contains("the folder \(files.path("no/such/dir")) does not exist"))
        }
        #expect(!FileManager.default.fileExists(atPath: files.path("no")))
    }

    @Test("2. replay --record stores its calls as replayed and the planner's holds with their reason")
    func replayedAndHolds() throws {
        let files = try StoreFixture()
        let record = files.path("replay.sqlite")
        _ = try ReplayCommand(arguments: [Self.examples + "/dishwasher-eco50.jsonl", "--appliance", "dishwasher", "--record", record,
                                          "--cycle-push-limit", "3"],
                              environment: try Self.environment(files)).run()
        let store = try HistoryStore(path: record, mode: .readOnly)
        let cycle = try #require(try store.cycles(matching: CycleFilter()).first)
        let pushes = try store.pushes(cycleID: cycle.id)
        let replayed = pushes.filter { $0.status == .replayed }
        let held = pushes.filter { $0.status == .notSent }
        #expect(!replayed.isEmpty && !held.isEmpty)
        #expect(pushes.allSatisfy { $0.status == .replayed || $0.status == .notSent })
        #expect(held.allSatisfy { !$0.reason.isEmpty })
        #expect(cycle.pushes == replayed.count, "the cycle counts its replayed calls, not its holds")
    }

    @Test("3. A reminder is stored with the cycle it reminds of")
    func reminderOnItsCycle() throws {
        let files = try StoreFixture()
        // The washer trace, with the door left closed for an hour after the end.
        let lines = try String(contentsOfFile: Self.examples + "/washer-pause-and-blip.jsonl", encoding: .utf8)
            .split(separator: "\n").dropLast().map(String.init)
        let closed = ["11:01:00", "11:35:00", "12:10:00"].map {
            #"{"at": "2026-11-02T\#($0)Z", "states": {"operation_state": "ready", "program": "laundry_care_washer_program_cotton", "door": "closed"}}"#
        }
        let trace = files.path("washer.jsonl")
        try (lines + closed).joined(separator: "\n").write(toFile: trace, atomically: true, encoding: .utf8)
        let record = files.path("replay.sqlite")
        _ = try ReplayCommand(arguments: [trace, "--appliance", "washer", "--record", record], environment: try Self.environment(files)).run()
        let store = try HistoryStore(path: record, mode: .readOnly)
        let cycle = try #require(try store.cycles(matching: CycleFilter()).first)
        let reminders = try store.pushes(cycleID: cycle.id).filter { $0.kind == .reminder }
        #expect(!reminders.isEmpty, "the reminders are on the washer's cycle")
    }

    @Test("6. prune says which open cycles it kept and why")
    func pruneKeepsOpen() throws {
        let fixture = try HistoryFixture()
        let text = try PruneCommand(arguments: ["--db", fixture.path, "--before", "2026-11-06"], environment: ["TZ": "UTC"],
                                    timeZone: HistoryFixture.timeZone).run(now: HistoryFixture.now)
        #expect(text.contains("deleted 3 cycles"))
        #expect(text.contains("kept 1 open cycle"))
        #expect(text.contains("cycle 3 dishwasher started 2026-11-04 09:00: still open (no end heard)"))
        #expect(text.contains("overdue since 2026-11-04 10:00"))
    }

    @Test("7. stats --by program names each program's appliance")
    func statsProgramAppliance() throws {
        let fixture = try HistoryFixture()
        let store = try HistoryStore(path: fixture.path)
        let other = try store.openCycle(applianceID: "washer", program: "eco_50", startedAt: t(-3 * 86_400), source: .run)
        try store.closeCycle(id: other, endedAt: t(-3 * 86_400 + 3_600), outcome: .finished, energyEnd: nil)
        let table = try fixture.stats(["--by", "program"])
        let rows = table.split(separator: "\n").filter { $0.contains("eco_50") }
        #expect(rows.count == 2)
        #expect(rows.contains { $0.hasPrefix("dishwasher") } && rows.contains { $0.hasPrefix("washer") })
        let csv = try fixture.stats(["--by", "program", "--format", "csv"])
        #expect(csv.contains("eco_50,eco_50,washer,1,1"))
    }

    @Test("stats --by month: energy and cost per month, in the currency")
    func statsMonthCost() throws {
        let fixture = try HistoryFixture()
        let store = try HistoryStore(path: fixture.path)
        let id = try store.openCycle(applianceID: "washer", program: "cotton", startedAt: t(86_400 * 2), source: .run)
        try store.updateCycle(id: id, program: nil, firstPredictedFinish: nil, lastPredictedFinish: nil, maxProgress: 100, energyStart: 3)
        try store.closeCycle(id: id, endedAt: t(86_400 * 2 + 3_600), outcome: .finished, energyEnd: 4, cost: 0.3, currency: "EUR")
        let csv = try fixture.stats(["--by", "month", "--format", "csv"])
        #expect(csv.hasPrefix("month,cycles"))
        #expect(csv.contains("\n2026-10,1,"), "cycle 4 in October")
        #expect(csv.contains(",0.3,0.3,EUR\n"), "November's one priced cycle")
        let table = try fixture.stats(["--by", "month"])
        #expect(table.contains("0.30 EUR"))
    }
}
