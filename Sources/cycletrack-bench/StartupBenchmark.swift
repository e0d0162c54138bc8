import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Phase 5: from the exec of `cycletrack run` to its first poll arriving at the
/// stand-in, on the big history database and, for comparison, on a new empty one
/// (created and migrated by the service). Each start is stopped with SIGTERM.
struct StartupBenchmark {
    /// Milliseconds per start.
    var withHistory: [Double] = []
    var withEmptyDatabase: [Double] = []
    /// Exit statuses of the stops that were not `exit 0`.
    var badStops: [String] = []

    static func run(harness: ServiceHarness, historyDatabase: String, workspace: BenchWorkspace,
                    repetitions: Int) throws(BenchError) -> StartupBenchmark {
        var result = StartupBenchmark()
        for repetition in 0..<repetitions {
            result.withHistory.append(try startOnce(harness, database: historyDatabase,
                                                    logName: "startup-history-\(repetition)", result: &result))
            result.withEmptyDatabase.append(try startOnce(harness, database: workspace.path("startup-empty-\(repetition).sqlite"),
                                                          logName: "startup-empty-\(repetition)", result: &result))
        }
        return result
    }

    private static func startOnce(_ harness: ServiceHarness, database: String, logName: String,
                                  result: inout StartupBenchmark) throws(BenchError) -> Double {
        let before = harness.pollsAnswered()
        let process = try harness.startService(database: database, logName: logName)
        var firstPoll: ContinuousClock.Instant?
        let timer = Stopwatch()
        while timer.seconds < 30 {
            if harness.pollsAnswered() > before {
                firstPoll = ContinuousClock.now
                break
            }
            if let status = process.poll() {
                throw BenchError("cycletrack run ended before its first poll (\(status)): \(process.stderrTail())")
            }
            usleep(200)
        }
        let signalledAfter = Stopwatch.seconds(ContinuousClock.now - process.spawnedAt) * 1000
        let stop = harness.stop(process)
        if stop.status != .exited(0) {
            result.badStops.append("\(logName): \(stop.status.map(\.description) ?? "did not exit within 15 s") "
                + "(SIGTERM \(Summary.fixed(signalledAfter, 0)) ms after exec)")
        }
        guard let firstPoll else {
            throw BenchError("cycletrack run made no poll within 30 s of its start: \(process.stderrTail())")
        }
        return Stopwatch.seconds(firstPoll - process.spawnedAt) * 1000
    }
}
