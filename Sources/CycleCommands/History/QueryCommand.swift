import CycleHistory
import HomeAssistantAPI
import CycleService
import CycleCore
import FoundationEssentials

/// `cycletrack query`: the cycle history, newest first, as a table, JSON or CSV.
/// Opens the database read-only, so it works while `run` writes to it.
///
/// The executable builds it from the words after `query`, calls `run(now:)`, writes
/// the returned text to stdout as is (it ends with a newline), and turns a
/// `CommandError` into its exit code and a one-line message on stderr.
public struct QueryCommand: Sendable {
    /// The `--help` text.
    public static let help = """
        usage: cycletrack query [--db FILE] [--appliance ID] [--since WHEN] [--until WHEN]
                                [--program P] [--outcome O] [--limit N] [--format table|json|csv]

        Lists stored cycles, newest first.

          --db FILE         the history database (default: $CYCLETRACK_DB, else ./cycletrack.sqlite)
          --appliance ID    only this appliance
          --since WHEN      cycles that started at or after WHEN
          --until WHEN      cycles that started before WHEN (a bare date includes that whole day)
          --program P       program key equal to P or containing it, ignoring case
          --outcome O       finished, aborted, failed, lost, or open (still running)
          --limit N         at most N cycles (default 20; 0 for all)
          --format F        table (default), json or csv (LF line ends)

        WHEN is an ISO date (2026-11-02, local midnight), an ISO date-time
        (2026-11-02T08:02:00Z, 2026-11-02T09:02:00+01:00; local time without a zone),
        or a time ago: 30m, 12h, 7d, 2w.

        """

    static let outcomes = ["finished", "aborted", "failed", "lost", "open"]

    let options: HistoryOptions
    let program: String?
    let outcome: CycleFilter.Outcome?
    let limit: Int?
    let showHelp: Bool
    let timeZone: TimeZone
    let programName: @Sendable (String) -> String

    /// Reads the options; a usage error (exit 64) for an unknown option or a bad
    /// `--format`, `--outcome` or `--limit`.
    /// - Parameters:
    ///   - timeZone: for the table's local times and bare dates in `--since`/`--until`.
    ///   - programName: the readable name of a program key, for the table.
    public init(
        arguments: [String], environment: [String: String], timeZone: TimeZone = .current,
        programName: @escaping @Sendable (String) -> String = { $0 }
    ) throws(CommandError) {
        let parsed = try Arguments(arguments, valued: HistoryOptions.names.union(["program", "outcome", "limit"]), flags: ["help"])
        if let extra = parsed.positionals.first {
            throw .usage("query takes no arguments besides options, got '\(extra)'")
        }
        showHelp = parsed.flag("help")
        options = try HistoryOptions(parsed, environment: environment)
        program = parsed.value("program")
        switch try parsed.choice("outcome", Self.outcomes, default: "") {
        case "": outcome = nil
        case "open": outcome = .open
        case let ended: outcome = .ended(ended)
        }
        let count = try parsed.int("limit", in: 0...Int(Int32.max)) ?? 20
        limit = count == 0 ? nil : count
        self.timeZone = timeZone
        self.programName = programName
    }

    /// Reads the matching cycles and returns the text for stdout. A config error
    /// (exit 78) for a bad time or a database that can't be read.
    public func run(now: Date) throws(CommandError) -> String {
        if showHelp { return Self.help }
        let range = try options.range(now: now, timeZone: timeZone)
        let store = try options.openStore()
        let filter = CycleFilter(
            applianceID: options.applianceID, since: range.since, until: range.until,
            program: program, outcome: outcome, limit: limit)
        let cycles: [CycleRecord]
        do {
            cycles = try store.cycles(matching: filter)
        } catch {
            throw .config(error.description)
        }
        switch options.format {
        case .table: return table(cycles)
        case .json: return ReportValue.jsonDocument(cycles.map(Self.record))
        case .csv: return ReportValue.csvDocument(columns: Self.columns, cycles.map(Self.record))
        }
    }

    private func table(_ cycles: [CycleRecord]) -> String {
        guard !cycles.isEmpty else { return "no cycles match\n" }
        var table = TextTable([
            ("id", .right), ("appliance", .left), ("program", .left), ("started", .left),
            ("duration", .left), ("outcome", .left), ("pushes", .right), ("energy", .right),
        ])
        for cycle in cycles {
            table.rows.append([
                String(cycle.id),
                cycle.applianceID,
                cycle.program.map(programName) ?? "",
                TimeText.local(cycle.startedAt, timeZone: timeZone),
                cycle.duration.map(TimeText.duration) ?? "running",
                cycle.outcome?.rawValue ?? "open",
                String(cycle.pushes),
                cycle.energyKWh.map { TimeText.fixed($0, decimals: 2) + " kWh" } ?? "",
            ])
        }
        return table.text
    }

    /// The JSON keys and CSV columns, in order.
    static let columns = [
        "id", "appliance", "program", "started_at", "ended_at", "duration_seconds", "outcome", "pushes",
        "energy_kwh", "first_predicted_finish", "last_predicted_finish", "max_progress", "source",
    ]

    /// A cycle for JSON and CSV: UTC ISO times, numbers as numbers, null where unknown
    /// (`outcome` is null while the cycle is open).
    static func record(_ cycle: CycleRecord) -> ReportValue.Record {
        func time(_ date: Date?) -> ReportValue { date.map { .string(TimeText.isoUTC($0)) } ?? .null }
        let values: [ReportValue] = [
            .int(Int(cycle.id)),
            .string(cycle.applianceID),
            cycle.program.map(ReportValue.string) ?? .null,
            time(cycle.startedAt),
            time(cycle.endedAt),
            cycle.duration.flatMap { NumberText.int($0, .toNearestOrAwayFromZero) }.map(ReportValue.int) ?? .null,
            cycle.outcome.map { .string($0.rawValue) } ?? .null,
            .int(cycle.pushes),
            cycle.energyKWh.map { .number(($0 * 1_000).rounded() / 1_000) } ?? .null,
            time(cycle.firstPredictedFinish),
            time(cycle.lastPredictedFinish),
            cycle.maxProgress.map(ReportValue.int) ?? .null,
            .string(cycle.source.rawValue),
        ]
        return zip(columns, values).map { (key: $0, value: $1) }
    }
}
