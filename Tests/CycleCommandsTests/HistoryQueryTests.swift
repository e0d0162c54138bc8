@testable import CycleCommands
@testable import CycleHistory
import FoundationEssentials
import TestSupport
import Testing

@Suite struct HistoryQueryTests {
    @Test func tableIsAlignedNewestFirst() throws {
        let fixture = try HistoryFixture()
        #expect(try fixture.query([]) == """
            id  appliance   program           started           duration    outcome   pushes    energy
             3  dishwasher  intensive_70      2026-11-04 09:00  running     open           1
             2  washer      Cotton, "Eco" 40  2026-11-03 09:00  45 min      aborted        3
             1  dishwasher  eco_50            2026-11-02 09:00  2 h 14 min  finished      12  0.82 kWh
             4  dishwasher  eco_50            2026-10-26 09:00  2 h         finished      10  1.10 kWh

            """)
    }

    @Test func tableUsesReadableProgramNames() throws {
        let fixture = try HistoryFixture()
        let command = try QueryCommand(
            arguments: ["--db", fixture.path, "--appliance", "dishwasher", "--limit", "1"], environment: [:],
            timeZone: HistoryFixture.timeZone, programName: { $0 == "intensive_70" ? "Intensive 70°" : $0 })
        #expect(try command.run(now: HistoryFixture.now) == """
            id  appliance   program        started           duration  outcome  pushes  energy
             3  dishwasher  Intensive 70°  2026-11-04 09:00  running   open          1
            showing 1 of 3 (use --limit 0 for all)

            """)
    }

    @Test func jsonHasUTCTimesNumbersAndNulls() throws {
        let fixture = try HistoryFixture()
        #expect(try fixture.query(["--format", "json", "--since", "2026-11-03", "--until", "2026-11-04T08:00:01Z"]) == #"""
            [
              {"id": 3, "appliance": "dishwasher", "program": "intensive_70", "program_name": "intensive_70", "started_at": "2026-11-04T08:00:00Z", "ended_at": null, "duration_seconds": null, "outcome": null, "pushes": 1, "energy_kwh": null, "first_predicted_finish": "2026-11-04T09:00:00Z", "last_predicted_finish": null, "max_progress": 40, "source": "run", "cost": null, "currency": null},
              {"id": 2, "appliance": "washer", "program": "Cotton, \"Eco\" 40", "program_name": "Cotton, \"Eco\" 40", "started_at": "2026-11-03T08:00:00Z", "ended_at": "2026-11-03T08:45:00Z", "duration_seconds": 2700, "outcome": "aborted", "pushes": 3, "energy_kwh": null, "first_predicted_finish": "2026-11-03T09:15:00Z", "last_predicted_finish": null, "max_progress": 100, "source": "run", "cost": null, "currency": null}
            ]

            """#)
        #expect(try fixture.query(["--format", "json", "--outcome", "lost"]) == "[]\n")
    }

    @Test func csvQuotesAsRFC4180() throws {
        let fixture = try HistoryFixture()
        #expect(try fixture.query(["--format", "csv", "--limit", "3", "--appliance", "washer"]) == """
            id,appliance,program,program_name,started_at,ended_at,duration_seconds,outcome,pushes,energy_kwh,first_predicted_finish,last_predicted_finish,max_progress,source,cost,currency
            2,washer,"Cotton, ""Eco"" 40","Cotton, ""Eco"" 40",2026-11-03T08:00:00Z,2026-11-03T08:45:00Z,2700,aborted,3,,2026-11-03T09:15:00Z,,100,run,,

            """)
        #expect(try fixture.query(["--format", "csv", "--program", "eco_50", "--limit", "1"]).split(separator: "\n").last?
            .hasPrefix("1,dishwasher,eco_50,eco_50,2026-11-02T08:00:00Z,2026-11-02T10:14:00Z,8040,finished,12,0.82,") == true)
    }

    static let filterCases: [([String], [Int])] = [
        ([], [3, 2, 1, 4]),
        (["--appliance", "dishwasher"], [3, 1, 4]),
        (["--appliance", "oven"], []),
        (["--since", "2026-11-02"], [3, 2, 1]),  // local midnight, 2026-11-01T23:00Z
        (["--since", "2026-11-02T08:00:01Z"], [3, 2]),
        (["--until", "2026-11-02"], [1, 4]),  // a bare --until date includes that day
        (["--until", "2026-11-02T08:00:00Z"], [4]),  // until is exclusive
        (["--since", "2d"], [3, 2]),  // now is 2026-11-05 08:00Z
        (["--since", "1w", "--until", "36h"], [2, 1]),
        (["--program", "ECO"], [2, 1, 4]),  // substring, any case
        (["--program", "eco_50"], [1, 4]),
        (["--outcome", "open"], [3]),
        (["--outcome", "finished"], [1, 4]),
        (["--outcome", "aborted", "--appliance", "dishwasher"], []),
        (["--limit", "2"], [3, 2]),
        (["--limit", "0"], [3, 2, 1, 4]),
    ]

    @Test(arguments: filterCases)
    func filters(words: [String], expected: [Int]) throws {
        let fixture = try HistoryFixture()
        let csv = try fixture.query(words + ["--format", "csv"])
        let ids = csv.split(separator: "\n").dropFirst().compactMap { Int($0.prefix { $0 != "," }) }
        #expect(ids == expected)
    }

    @Test func emptyResults() throws {
        let fixture = try HistoryFixture()
        #expect(try fixture.query(["--appliance", "oven"]) == "no cycles match\n")
        #expect(try fixture.query(["--appliance", "oven", "--format", "csv"]).split(separator: "\n").count == 1)
    }

    @Test func databaseComesFromTheOptionThenTheEnvironment() throws {
        let fixture = try HistoryFixture()
        let fromEnvironment = try QueryCommand(arguments: ["--format", "csv"], environment: ["CYCLETRACK_DB": fixture.path],
                                               timeZone: HistoryFixture.timeZone).run(now: HistoryFixture.now)
        #expect(fromEnvironment.split(separator: "\n").count == 5)
        let missing = fixture.files.path("other.sqlite")
        let error = #expect(throws: CommandError.self) {
            _ = try QueryCommand(arguments: ["--db", missing], environment: ["CYCLETRACK_DB": fixture.path]).run(now: HistoryFixture.now)
        }
        #expect(error?.message.contains(missing) == true)
        #expect(HistoryOptions.names.contains("db"))
        #expect(try HistoryOptions(Arguments([], valued: HistoryOptions.names), environment: [:]).database == "./cycletrack.sqlite")
    }

    @Test func worksWhileTheServiceIsWriting() throws {
        let fixture = try HistoryFixture()
        let writer = try HistoryStore(path: fixture.path)
        try writer.transaction {
            _ = try writer.openCycle(applianceID: "washer", program: "wool", startedAt: t(2.5 * 86_400), source: .run)
            // The writer holds the write lock with its change uncommitted: query reads what was committed.
            let csv = try fixture.query(["--format", "csv"])
            #expect(csv.split(separator: "\n").count == 5)
        }
        #expect(try fixture.query(["--format", "csv"]).split(separator: "\n").count == 6)
    }

    @Test func helpIsPrinted() throws {
        let text = try QueryCommand(arguments: ["--help"], environment: [:]).run(now: t(0))
        #expect(text.hasPrefix("usage: cycletrack query"))
    }
}
