@testable import CycleCommands
@testable import CycleHistory
@testable import CycleService
import FoundationEssentials
import TestSupport
import Testing

/// `query`'s paging, program names and sources; `stats`' filters; `prune` and
/// `history.keep_days`; a recorded replay's calls in `stats`.
@Suite struct HistoryUpkeepTests {
    /// 24 finished cycles of one appliance, an hour apart from t(0), each with 2 pushes.
    private static func manyCycles(_ files: StoreFixture, count: Int = 24) throws -> String {
        let store = try files.store()
        for index in 0..<count {
            let start = t(Double(index) * 3_600)
            let id = try store.openCycle(applianceID: "dishwasher", program: "eco_50", startedAt: start, source: .run)
            for push in 0..<2 {
                _ = try store.recordPush(cycleID: id, applianceID: "dishwasher", at: start.addingTimeInterval(Double(push)),
                                         kind: .quiet, reason: "test", body: "{}", status: .sent)
            }
            try store.closeCycle(id: id, endedAt: start.addingTimeInterval(1_800), outcome: .finished, energyEnd: nil)
        }
        return files.path()
    }

    @Test func theTableSaysWhenItShowsAPageAndExportsGiveEverything() throws {
        let files = try StoreFixture()
        let path = try Self.manyCycles(files)
        func query(_ words: [String]) throws -> String {
            try QueryCommand(arguments: ["--db", path] + words, environment: [:], timeZone: .utc).run(now: t(86_400))
        }
        let table = try query([]).split(separator: "\n")
        #expect(table.count == 1 + 20 + 1)
        #expect(table.last == "showing 20 of 24 (use --limit 0 for all)")
        #expect(try query(["--limit", "0"]).split(separator: "\n").count == 1 + 24)
        #expect(try !query(["--limit", "30"]).contains("showing"))
        #expect(try query(["--limit", "5"]).hasSuffix("showing 5 of 24 (use --limit 0 for all)\n"))
        #expect(try query(["--format", "csv"]).split(separator: "\n").count == 1 + 24, "csv: everything")
        #expect(try query(["--format", "json"]).split(separator: "\n").count == 2 + 24, "json: everything")
        #expect(try query(["--format", "csv", "--limit", "3"]).split(separator: "\n").count == 1 + 3)
    }

    @Test func programsMatchByKeyOrReadableNameAndExportsGiveBoth() throws {
        let files = try StoreFixture()
        let store = try files.store()
        for (index, program) in ["dishcare_dishwasher_program_eco_50", "dishcare_dishwasher_program_intensiv_70"].enumerated() {
            let id = try store.openCycle(applianceID: "dishwasher", program: program, startedAt: t(Double(index) * 3_600), source: .run)
            try store.closeCycle(id: id, endedAt: t(Double(index) * 3_600 + 60), outcome: index == 0 ? .finished : .aborted, energyEnd: nil)
        }
        func ids(_ command: String, _ words: [String]) throws -> String {
            let arguments = ["--db", files.path(), "--format", "csv"] + words
            let text = command == "query"
                ? try QueryCommand(arguments: arguments, environment: [:], timeZone: .utc).run(now: t(86_400))
                : try StatsCommand(arguments: arguments + ["--by", "program"], environment: [:], timeZone: .utc).run(now: t(86_400))
            return text.split(separator: "\n").dropFirst().map { String($0.prefix { $0 != "," }) }.joined(separator: " ")
        }
        #expect(try ids("query", ["--program", "Eco 50°C"]) == "1", "the name the table shows")
        #expect(try ids("query", ["--program", "eco 50°c"]) == "1", "ignoring case")
        #expect(try ids("query", ["--program", "intensive"]) == "2", "part of the readable name")
        #expect(try ids("query", ["--program", "intensiv_70"]) == "2", "part of the key")
        #expect(try ids("query", ["--program", "°C"]) == "2 1")
        #expect(try ids("query", ["--program", "Cotton"]) == "")
        #expect(try ids("stats", ["--program", "Eco 50°C"]) == "dishcare_dishwasher_program_eco_50")
        #expect(try ids("stats", ["--outcome", "aborted"]) == "dishcare_dishwasher_program_intensiv_70")

        let csv = try QueryCommand(arguments: ["--db", files.path(), "--format", "csv", "--limit", "1"], environment: [:], timeZone: .utc)
            .run(now: t(86_400))
        #expect(csv.contains(",dishcare_dishwasher_program_intensiv_70,Intensive 70°C,"))
        let json = try StatsCommand(arguments: ["--db", files.path(), "--format", "json", "--by", "program"], environment: [:],
                                    timeZone: .utc).run(now: t(86_400))
        #expect(json.contains(#""program": "dishcare_dishwasher_program_eco_50", "program_name": "Eco 50°C""#))
    }

    @Test func theSourceIsAColumnWhenTheHistoryHoldsMoreThanOneAndAFilter() throws {
        let fixture = try HistoryFixture()
        #expect(try !fixture.query([]).contains("source"), "one source: no column")
        let store = try HistoryStore(path: fixture.path)
        let demo = try store.openCycle(applianceID: "washer", program: "cotton", startedAt: t(2.5 * 86_400), source: .demo)
        try store.closeCycle(id: demo, endedAt: t(2.5 * 86_400 + 600), outcome: .finished, energyEnd: nil)
        let table = try fixture.query(["--limit", "2"])
        #expect(table.split(separator: "\n").first?.hasSuffix("energy  source") == true, "\(table)")
        #expect(table.contains("10 min    finished       0          demo"), "\(table)")
        #expect(try fixture.query(["--source", "demo", "--format", "csv"]).split(separator: "\n").count == 2)
        #expect(try fixture.query(["--source", "run", "--format", "csv", "--limit", "0"]).split(separator: "\n").count == 5)
        #expect(try fixture.stats(["--source", "demo", "--format", "csv"]).hasSuffix("\nwasher,1,1,600,600,,,,0,0,,,,,\n"))
    }

    @Test func aRecordedReplaysPlannedCallsCountAsItsPushes() throws {
        let files = try StoreFixture()
        let store = try files.store()
        let replayed = try store.openCycle(applianceID: "dishwasher", program: "eco_50", startedAt: t(0), source: .replay)
        for index in 0..<5 {
            _ = try store.recordPush(cycleID: replayed, applianceID: "dishwasher", at: t(Double(index)), kind: .quiet,
                                     reason: "test", body: "{}", status: .replayed)
        }
        // And one the replay's planner held back: not among its pushes.
        _ = try store.recordPush(cycleID: replayed, applianceID: "dishwasher", at: t(9), kind: .quiet,
                                 reason: "cycle budget", body: "{}", status: .notSent)
        try store.closeCycle(id: replayed, endedAt: t(3_600), outcome: .finished, energyEnd: nil)
        let run = try store.openCycle(applianceID: "dishwasher", program: "eco_50", startedAt: t(7_200), source: .run)
        _ = try store.recordPush(cycleID: run, applianceID: "dishwasher", at: t(7_200), kind: .start, reason: "start", body: "{}", status: .sent)
        _ = try store.recordPush(cycleID: run, applianceID: "dishwasher", at: t(7_201), kind: .quiet, reason: "held", body: "{}", status: .notSent)
        #expect(try store.cycle(id: replayed)?.pushes == 5, "planned, never sent")
        #expect(try store.cycle(id: run)?.pushes == 1, "a run's held-back call is not a push")
        let stats = try StatsCommand(arguments: ["--db", files.path(), "--by", "program", "--source", "replay", "--format", "csv"],
                                     environment: [:], timeZone: .utc).run(now: t(86_400))
        #expect(stats.hasSuffix("\neco_50,Eco 50,dishwasher,1,1,3600,3600,,,,5,5,,,,,\n"), "\(stats)")
    }

    // MARK: prune

    /// Two ended cycles and an open one of the dishwasher, a demo cycle of the washer,
    /// observations inside and between them, and pushes.
    private static func prunable(_ files: StoreFixture) throws -> HistoryStore {
        let store = try files.store()
        try store.upsertAppliance(id: "washer", name: "Washer", at: t(0))
        func observe(_ appliance: String, _ cycle: Int64?, _ at: Double, _ state: String) throws {
            _ = try store.recordObservation(applianceID: appliance, cycleID: cycle, at: t(at),
                                            states: [.operationState: state, .progress: String(Int(at) % 97)])
        }
        try observe("dishwasher", nil, 0, "Ready")
        for (start, source) in [(100.0, CycleSource.run), (10_000, .run)] {
            let id = try store.openCycle(applianceID: "dishwasher", program: "eco_50", startedAt: t(start), source: source)
            for step in 0..<3 { try observe("dishwasher", id, start + Double(step) * 10, "Run") }
            _ = try store.recordPush(cycleID: id, applianceID: "dishwasher", at: t(start), kind: .start, reason: "start", body: "{}", status: .sent)
            try store.closeCycle(id: id, endedAt: t(start + 100), outcome: .finished, energyEnd: nil)
            try observe("dishwasher", nil, start + 200, "Ready")
            try observe("dishwasher", nil, start + 300, "Inactive")
        }
        let open = try store.openCycle(applianceID: "dishwasher", program: "eco_50", startedAt: t(20_000), source: .run)
        try observe("dishwasher", open, 20_000, "Run")
        let demo = try store.openCycle(applianceID: "washer", program: "cotton", startedAt: t(150), source: .demo)
        try observe("washer", demo, 150, "Run")
        _ = try store.recordPush(cycleID: demo, applianceID: "washer", at: t(150), kind: .start, reason: "start", body: "{}", status: .sent)
        try store.closeCycle(id: demo, endedAt: t(250), outcome: .finished, energyEnd: nil)
        return store
    }

    private static func count(_ store: HistoryStore, _ table: String) throws -> Int {
        try store.connection.firstRow("SELECT count(*) FROM \(table)", []) { Int($0.int64(0)) } ?? -1
    }

    @Test func pruneDeletesOldEndedCyclesWithTheirRowsAndKeepsOpenOnes() throws {
        let files = try StoreFixture()
        let store = try Self.prunable(files)
        let observationsBefore = try Self.count(store, "observations")
        let result = try store.prune(before: t(30_000))
        #expect(result.cycles == 3, "both ended dishwasher cycles and the demo cycle; the open one stays")
        #expect(result.pushes == 3)
        #expect(try store.cycles(matching: CycleFilter()).map(\.startedAt) == [t(20_000)])
        #expect(try Self.count(store, "pushes") == 0)
        // Left: the open cycle's observation and the complete idle row it is read against.
        #expect(try Self.count(store, "observations") < observationsBefore)
        #expect(try store.observations(cycleID: try #require(store.openCycles().first?.id)).count == 1)
        // The history still reads, and keeps recording.
        _ = try store.recordObservation(applianceID: "dishwasher", cycleID: nil, at: t(40_000), states: [.operationState: "Ready"])
    }

    @Test func pruneBySourceTouchesOnlyThatSource() throws {
        let files = try StoreFixture()
        let store = try Self.prunable(files)
        let observations = try Self.count(store, "observations")
        let result = try store.prune(before: t(30_000), source: .demo)
        #expect(result == PruneResult(cycles: 1, observations: 1, pushes: 1))
        #expect(try Self.count(store, "observations") == observations - 1)
        #expect(try store.cycles(matching: CycleFilter()).allSatisfy { $0.source == .run })
        #expect(try store.cycles(matching: CycleFilter()).count == 3)
    }

    @Test func pruneKeepsCyclesStartedAtOrAfterTheCutoff() throws {
        let files = try StoreFixture()
        let store = try Self.prunable(files)
        let result = try store.prune(before: t(5_000))
        #expect(result.cycles == 2, "the first dishwasher cycle and the demo")
        #expect(try store.cycles(matching: CycleFilter()).map(\.startedAt) == [t(20_000), t(10_000)])
        let kept = try #require(store.cycles(matching: CycleFilter()).last?.id)
        let rows = try store.observations(cycleID: kept)
        #expect(rows.filter { $0.cycleID == kept }.map { $0.states["progress"] } == ["9", "19", "29"], "\(rows)")
    }

    @Test func thePruneCommandReportsVacuumsAndRefusesWhatItCannotUse() throws {
        let files = try StoreFixture()
        _ = try Self.prunable(files)
        let path = files.path()
        func prune(_ words: [String]) throws(CommandError) -> String {
            try PruneCommand(arguments: words, environment: [:], timeZone: .utc).run(now: t(30_000))
        }
        // t(5_000) is 2026-11-02T09:23:20Z.
        #expect(try prune(["--db", path, "--before", "2026-11-02T09:23:20Z", "--dry-run"])
                == "would delete 2 cycles that started before 2026-11-02 09:23 (dry run: nothing deleted)\n")
        #expect(try prune(["--db", path, "--before", "2026-11-02T09:23:20Z", "--source", "demo"])
                == "deleted 1 demo cycle that started before 2026-11-02 09:23, with 1 observation and 1 push\n")
        let vacuumed = try prune(["--db", path, "--before", "2h", "--vacuum"])
        #expect(vacuumed.hasPrefix("deleted 2 cycles that started before 2026-11-02 14:20, with "), "\(vacuumed)")
        #expect(vacuumed.contains("\nvacuumed \(path): "))
        #expect(PruneCommand.bytes(path) <= 100_000, "the write-ahead log is folded back after VACUUM")

        let missing = #expect(throws: CommandError.self) { _ = try prune(["--db", files.path("none.sqlite"), "--before", "1d"]) }
        #expect(missing?.code == .noInput)
        #expect(!FileManager.default.fileExists(atPath: files.path("none.sqlite")))
        let noCutoff = #expect(throws: CommandError.self) { _ = try prune(["--db", path]) }
        #expect(noCutoff?.code == .usage)
        let badCutoff = #expect(throws: CommandError.self) { _ = try prune(["--db", path, "--before", "soon"]) }
        #expect(badCutoff?.code == .usage)
    }

    @Test func keepDaysIsReadAndPrunesAsTheServiceRuns() throws {
        let config = try ConfigurationLoader.parse(Data(#"{"history": {"keep_days": 90}}"#.utf8), file: "c.json")
        #expect(config.keepDays == 90)
        #expect(try ConfigurationLoader.parse(Data("{}".utf8), file: "c.json").keepDays == nil, "off by default")
        let error = #expect(throws: ConfigurationError.self) {
            try ConfigurationLoader.parse(Data(#"{"history": {"keep_days": 0}}"#.utf8), file: "c.json")
        }
        #expect(error?.message.contains("'history.keep_days'") == true, "\(error?.message ?? "")")

        let files = try StoreFixture()
        _ = try Self.prunable(files)
        let log = Log(level: .warning) { _ in }
        // 1 day kept, now 3 days after t(0): everything ended before t(2 days) goes.
        let result = HistoryRetention(database: files.path(), keepDays: 1, log: log).pruneOnce(now: t(3 * 86_400))
        #expect(result?.cycles == 3)
    }
}
