import CycleCommands
import TestSupport

extension HistoryFixture {
    /// Runs `query` with these words (plus `--db` for the fixture), program keys shown as they are
    /// unless `programName` is given.
    func query(_ words: [String], environment: [String: String] = [:],
               programName: @escaping @Sendable (String) -> String = { $0 }) throws(CommandError) -> String {
        try QueryCommand(arguments: ["--db", path] + words, environment: environment, timeZone: Self.timeZone,
                         programName: programName)
            .run(now: Self.now)
    }

    /// Runs `stats` with these words (plus `--db` for the fixture), program keys shown as they are
    /// unless `programName` is given.
    func stats(_ words: [String], programName: @escaping @Sendable (String) -> String = { $0 }) throws(CommandError) -> String {
        try StatsCommand(arguments: ["--db", path] + words, environment: [:], timeZone: Self.timeZone, programName: programName)
            .run(now: Self.now)
    }
}
