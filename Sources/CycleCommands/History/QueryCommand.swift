import CycleHistory
import HomeAssistantAPI
import CycleService
import CycleCore
import FoundationEssentials
import LocalTime

/// `cycletrack query`: the cycle history, newest first, as a table, JSON or CSV.
/// Opens the database read-only, so it works while `run` writes to it.
///
/// The executable builds it from the words after `query`, calls `run(now:)`, writes
/// the returned text to stdout as is (it ends with a newline), and turns a
/// `CommandError` into its exit code and a one-line message on stderr.
public struct QueryCommand: Sendable {
    /// The `--help` text.
    public static let help = """
        usage: cycletrack query [--db FILE | --config FILE] [--appliance ID] [--since WHEN] [--until WHEN]
                                [--program P] [--outcome O] [--source S] [--limit N] [--format table|json|csv]

        Lists stored cycles, newest first. Reads the database without changing it, so it
        works while the service runs.

          --db FILE         the history database (default: $CYCLETRACK_DB, else the config's
                            "database", else ./cycletrack.sqlite)
          --config FILE     the configuration whose "database" to read (found as 'run' finds it)
          --appliance ID    only this appliance
          --since WHEN      cycles that started at or after WHEN
          --until WHEN      cycles that started before WHEN (a bare date includes that whole day)
          --program P       program key or readable name containing P, ignoring case
                            ("eco" finds eco_50 shown as "Eco 50°C")
          --outcome O       finished, aborted, failed, lost, or open (still running)
          --source S        run, replay or demo: who recorded the cycle
          --limit N         at most N cycles (0 for all); the table shows 20 unless told,
                            json and csv everything
          --format F        table (default), json or csv (LF line ends)

        WHEN is an ISO date (2026-11-02, local midnight), an ISO date-time
        (2026-11-02T08:02:00Z, 2026-11-02T09:02:00+01:00; local time without a zone),
        or a time ago: 30m, 12h, 7d, 2w. Local time is $TZ, else /etc/localtime.
        The table shows local times and readable program names; json and csv give UTC
        times, durations in seconds, and both the program key and its name.

        """

    /// How many rows the table shows when `--limit` is not given.
    static let tablePage = 20

    let options: HistoryOptions
    /// Nil: all.
    let limit: Int?
    let showHelp: Bool
    let timeZone: LocalTimeZone
    let programName: @Sendable (String) -> String

    /// Reads the options; a usage error (exit 64) for an unknown option or a bad
    /// `--format`, `--outcome`, `--source` or `--limit`.
    /// - Parameters:
    ///   - timeZone: for the table's local times and local dates in `--since`/`--until`;
    ///     nil for the one `$TZ` or `/etc/localtime` names.
    ///   - programName: the readable name of a program key.
    public init(
        arguments: [String], environment: [String: String], timeZone: LocalTimeZone? = nil,
        programName: @escaping @Sendable (String) -> String = { ProgramName.readable($0) }
    ) throws(CommandError) {
        let parsed: Arguments
        (parsed, options, showHelp) = try HistoryOptions.parse(arguments, command: .query, extra: ["limit"], environment: environment)
        let count = try parsed.int("limit", in: 0...Int(Int32.max)) ?? (options.format == .table ? Self.tablePage : 0)
        limit = count == 0 ? nil : count
        self.timeZone = timeZone ?? LocalTimeZone.resolve(environment: environment)
        self.programName = programName
    }

    /// Reads the matching cycles and returns the text for stdout: a usage error (64) for
    /// a bad time, 66 for a missing database, 78 for one that can't be read.
    public func run(now: Date) throws(CommandError) -> String {
        if showHelp { return Self.help }
        let range = try options.range(now: now, timeZone: timeZone)
        let store = try options.openStore()
        let filter = try options.filter(range: range, store: store, programName: programName, limit: limit)
        let cycles = try HistoryOptions.read(store) { () throws(StoreError) in try store.cycles(matching: filter) }
        switch options.format {
        case .table:
            var total = cycles.count
            if let limit, cycles.count == limit {
                total = try HistoryOptions.read(store) { () throws(StoreError) in try store.countCycles(matching: filter) }
            }
            let sources = try HistoryOptions.read(store) { () throws(StoreError) in try store.cycleSources() }
            return table(cycles, total: total, showSource: sources.count > 1)
        case .json: return ReportValue.jsonDocument(cycles.map(record))
        case .csv: return ReportValue.csvDocument(columns: CycleReport.columns, cycles.map(record))
        }
    }

    private func table(_ cycles: [CycleRecord], total: Int, showSource: Bool) -> String {
        guard !cycles.isEmpty else { return "no cycles match\n" }
        var columns: [(title: String, alignment: TextTable.Alignment)] = [
            ("id", .right), ("appliance", .left), ("program", .left), ("started", .left),
            ("duration", .left), ("outcome", .left), ("pushes", .right), ("energy", .right),
        ]
        if showSource { columns.append(("source", .left)) }
        var table = TextTable(columns)
        for cycle in cycles {
            var row = [
                String(cycle.id),
                cycle.applianceID,
                cycle.program.map(programName) ?? "",
                TimeText.local(cycle.startedAt, timeZone: timeZone),
                cycle.duration.map(TimeText.duration) ?? "running",
                cycle.outcome?.rawValue ?? "open",
                String(cycle.pushes),
                cycle.energyKWh.map { TimeText.fixed($0, decimals: 2) + " kWh" } ?? "",
            ]
            if showSource { row.append(cycle.source.rawValue) }
            table.rows.append(row)
        }
        guard total > cycles.count else { return table.text }
        return table.text + "showing \(cycles.count) of \(total) (use --limit 0 for all)\n"
    }

    /// A cycle for JSON and CSV (`CycleReport`, the history page's CSV too).
    func record(_ cycle: CycleRecord) -> ReportValue.Record { CycleReport.record(cycle, programName: programName) }
}
