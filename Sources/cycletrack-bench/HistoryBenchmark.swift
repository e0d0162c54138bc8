import CycleHistory
import HomeAssistantAPI
import CycleService
import CycleCommands
import FoundationEssentials

/// Phase 4, second half: `cycletrack query` and `stats` on the generated database,
/// spawned like a user would (open, schema check, query, format, print), each several
/// times; and the same commands in-process, split into opening the store, fetching the
/// rows and the whole command, to say where the time goes.
struct HistoryBenchmark {
    struct Timing {
        var label: String
        var arguments: [String]
        /// Wall time of each spawned run, milliseconds.
        var spawned: [Double] = []
        /// Lines the command printed (table rows plus header).
        var outputLines = 0
        /// In-process, medians in milliseconds.
        var openMilliseconds = 0.0
        var fetchMilliseconds = 0.0
        var commandMilliseconds = 0.0
        var rowsFetched = 0

        var median: Double { Summary.median(spawned) ?? 0 }
        var worst: Double { spawned.max() ?? 0 }
    }

    var timings: [Timing] = []

    static func run(binary: String, database: String, applianceID: String, repetitions: Int,
                    scratch: BenchWorkspace) throws(BenchError) -> HistoryBenchmark {
        let cases: [(label: String, arguments: [String], filter: CycleFilter, isStats: Bool)] = [
            ("query --limit 50", ["query", "--db", database, "--limit", "50"], CycleFilter(limit: 50), false),
            ("query --appliance \(applianceID) --since 30d",
             ["query", "--db", database, "--appliance", applianceID, "--since", "30d"],
             CycleFilter(applianceID: applianceID, since: Date().addingTimeInterval(-30 * 86_400), limit: 20), false),
            ("stats --by program", ["stats", "--db", database, "--by", "program"], CycleFilter(), true),
        ]
        var result = HistoryBenchmark()
        var environment = ProcessInfo.processInfo.environment
        environment["CYCLETRACK_DB"] = nil
        for (number, item) in cases.enumerated() {
            var timing = Timing(label: item.label, arguments: item.arguments)
            for repetition in 0..<repetitions {
                let name = "history-\(number)-\(repetition)"
                let process = try ChildProcess(executable: binary, arguments: item.arguments, environment: environment,
                                               stdoutPath: scratch.path(name + ".out"), stderrPath: scratch.path(name + ".err"))
                guard let status = process.wait(timeout: 60), let exitedAt = process.exitedAt else {
                    throw BenchError("cycletrack \(item.label) did not finish within 60 s")
                }
                guard status == .exited(0) else {
                    throw BenchError("cycletrack \(item.label) failed (\(status)): \(process.stderrTail())")
                }
                timing.spawned.append(Stopwatch.seconds(exitedAt - process.spawnedAt) * 1000)
                timing.outputLines = process.standardOutput().split(separator: "\n").count
            }
            try measureInProcess(&timing, database: database, filter: item.filter, isStats: item.isStats, repetitions: repetitions)
            result.timings.append(timing)
        }
        return result
    }

    /// Where the time goes: opening read-only, fetching the rows, the whole command.
    private static func measureInProcess(_ timing: inout Timing, database: String, filter: CycleFilter, isStats: Bool,
                                         repetitions: Int) throws(BenchError) {
        var opens: [Double] = []
        var fetches: [Double] = []
        var commands: [Double] = []
        let arguments = Array(timing.arguments.dropFirst())
        for _ in 0..<repetitions {
            do {
                let opening = Stopwatch()
                let store = try HistoryStore(path: database, mode: .readOnly)
                opens.append(opening.milliseconds)
                let fetching = Stopwatch()
                // What each command reads: full records for query, the lean figures for stats.
                if isStats {
                    var rows = 0
                    try store.forEachCycleFigures(matching: filter, by: .program) { _ in rows += 1 }
                    timing.rowsFetched = rows
                } else {
                    timing.rowsFetched = try store.cycles(matching: filter).count
                }
                fetches.append(fetching.milliseconds)
                let whole = Stopwatch()
                if isStats {
                    _ = try StatsCommand(arguments: arguments, environment: [:]).run(now: Date())
                } else {
                    _ = try QueryCommand(arguments: arguments, environment: [:]).run(now: Date())
                }
                commands.append(whole.milliseconds)
            } catch {
                throw BenchError("in-process \(timing.label) on \(database) failed: \(error)")
            }
        }
        timing.openMilliseconds = Summary.median(opens) ?? 0
        timing.fetchMilliseconds = Summary.median(fetches) ?? 0
        timing.commandMilliseconds = Summary.median(commands) ?? 0
    }

    /// The in-process breakdown, one row per command.
    func breakdownTable() -> PlainTable {
        var table = PlainTable(["command", "spawned median", "spawned max", "in-process: open", "fetch rows", "rows", "whole command", "lines out"])
        for timing in timings {
            table.rows.append([
                timing.label, Summary.fixed(timing.median, 1) + " ms", Summary.fixed(timing.worst, 1) + " ms",
                Summary.fixed(timing.openMilliseconds, 2) + " ms", Summary.fixed(timing.fetchMilliseconds, 2) + " ms",
                Summary.grouped(timing.rowsFetched), Summary.fixed(timing.commandMilliseconds, 2) + " ms",
                String(timing.outputLines),
            ])
        }
        return table
    }
}
