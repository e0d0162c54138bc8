import CycleHistory
import HomeAssistantAPI
import CycleService
import CycleCore
import FoundationEssentials
import LocalTime

/// `cycletrack stats`: per appliance, program or ISO week, how many cycles ran, how
/// long they took, how good the first finish-time estimate was, how many calls each
/// made and how much energy they used. Opens the database read-only.
///
/// Used like `QueryCommand`: build from the words after `stats`, `run(now:)`, print.
public struct StatsCommand: Sendable {
    /// The `--help` text.
    public static let help = """
        usage: cycletrack stats [--db FILE | --config FILE] [--appliance ID] [--since WHEN] [--until WHEN]
                                [--program P] [--outcome O] [--source S]
                                [--by appliance|program|week|month] [--format table|json|csv]

        Summarises stored cycles per group (default: per appliance).

          cycles, finished   all cycles (open ones too), and those that finished
          median, p90        duration of ended cycles (p90 by nearest rank)
          estimate error     median of actual end minus first predicted finish, over
                             finished cycles: +4 min means the cycle ran 4 min over its
                             first estimate, -4 min that it finished 4 min early
          abs error          median of how far off the first estimate was, either way
          corrected          the same for the first estimate after the finish-time
                             correction, each cycle corrected from the other finished
                             cycles of its appliance and program (leave-one-out)
          pushes             calls per cycle, median and maximum (for a replay recorded
                             with --record, the calls it planned)
          energy             kWh per cycle (median) and in total, where recorded
          cost               what the energy cost, per cycle (median) and in total, where
                             a price was configured

        --db, --config, --appliance, --since, --until, --program, --outcome, --source and
        --format work as for 'cycletrack query'; weeks are ISO weeks (2026-W45) of the
        local start time, months of its local date. json and csv give durations in seconds.

        """

    enum Grouping: String, CaseIterable, Sendable {
        case appliance, program, week, month
    }

    let options: HistoryOptions
    let grouping: Grouping
    let showHelp: Bool
    let timeZone: LocalTimeZone
    let programName: @Sendable (String) -> String

    /// Reads the options; a usage error (exit 64) for an unknown option or a bad `--by`,
    /// `--format`, `--outcome` or `--source`.
    public init(
        arguments: [String], environment: [String: String], timeZone: LocalTimeZone? = nil,
        programName: @escaping @Sendable (String) -> String = { ProgramName.readable($0) }
    ) throws(CommandError) {
        let parsed: Arguments
        (parsed, options, showHelp) = try HistoryOptions.parse(arguments, command: .stats, extra: ["by"], environment: environment)
        let by = try parsed.choice("by", Grouping.allCases.map(\.rawValue), default: Grouping.appliance.rawValue)
        // `choice` only returns one of the raw values.
        grouping = Grouping(rawValue: by) ?? .appliance
        self.timeZone = timeZone ?? LocalTimeZone.resolve(environment: environment)
        self.programName = programName
    }

    /// Reads the matching cycles and returns the text for stdout: a usage error (64) for
    /// a bad time, 66 for a missing database, 78 for one that can't be read.
    public func run(now: Date) throws(CommandError) -> String {
        if showHelp { return Self.help }
        let range = try options.range(now: now, timeZone: timeZone)
        let store = try options.openStore()
        let filter = try options.filter(range: range, store: store, programName: programName)
        var accumulators: [String?: CycleStatistics.Accumulator] = [:]
        var estimates = CorrectedEstimates()
        do {
            let readKey: CycleFigures.Grouping = switch grouping {
            case .appliance: .appliance
            case .program: .program
            case .week, .month: .none
            }
            // A calendar's week is the costly part of a key; cycles of one local day share it.
            var weekOfLocalDay: [Int: String] = [:]
            try store.forEachCycleFigures(matching: filter, by: readKey) { cycle in
                let key: String?
                if grouping == .month {
                    key = String(TimeText.local(cycle.startedAt, timeZone: timeZone).prefix(7))
                } else if grouping == .program {
                    key = Self.programKey(cycle)
                } else if grouping == .week {
                    let local = cycle.startedAt.timeIntervalSince1970 + Double(timeZone.secondsFromGMT(for: cycle.startedAt))
                    let day = NumberText.int(local / 86_400, .down) ?? 0
                    if let known = weekOfLocalDay[day] {
                        key = known
                    } else {
                        let week = TimeText.isoWeek(cycle.startedAt, timeZone: timeZone)
                        weekOfLocalDay[day] = week
                        key = week
                    }
                } else {
                    key = cycle.key
                }
                accumulators[key, default: CycleStatistics.Accumulator()].add(cycle)
                estimates.add(cycle, group: key)
            }
        } catch {
            throw .config(error.description)
        }
        estimates.forEachGroup { key, plain, corrected in
            accumulators[key]?.addEstimates(plain: plain, corrected: corrected)
        }
        let groups = accumulators
            .map { (key: $0.key, statistics: CycleStatistics($0.value)) }
            .sorted { ($0.key ?? "") < ($1.key ?? "") }
        switch options.format {
        case .table: return table(groups)
        case .json: return ReportValue.jsonDocument(groups.map(record))
        case .csv: return ReportValue.csvDocument(columns: columns, groups.map(record))
        }
    }

    /// A program's group: the appliance and the program key (nil: no program), apart by a
    /// unit separator, so that two appliances' "Cotton" are two rows.
    static func programKey(_ cycle: CycleFigures) -> String {
        (cycle.applianceID ?? "") + "\u{1F}" + (cycle.program ?? "\u{1F}")
    }

    /// The appliance and the program key of a `programKey`.
    static func programParts(_ key: String?) -> (appliance: String, program: String?) {
        let parts = (key ?? "").split(separator: "\u{1F}", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        let program = parts.count > 1 && parts[1] != "\u{1F}" ? parts[1] : nil
        return (parts.first ?? "", program)
    }

    private func money(_ value: Double?, _ currency: String?) -> String {
        value.map { TimeText.fixed($0, decimals: 2) + (currency.map { " " + $0 } ?? "") } ?? ""
    }

    private func table(_ groups: [(key: String?, statistics: CycleStatistics)]) -> String {
        guard !groups.isEmpty else { return "no cycles match\n" }
        let leading: [(title: String, alignment: TextTable.Alignment)] = grouping == .program ? [("appliance", .left)] : []
        var table = TextTable(leading + [
            (title: grouping.rawValue, alignment: .left), ("cycles", .right), ("finished", .right), ("median", .right), ("p90", .right),
            ("estimate error", .right), ("abs error", .right), ("corrected", .right), ("pushes", .right), ("max pushes", .right), ("energy", .right), ("total energy", .right),
            ("cost", .right), ("total cost", .right),
        ])
        for (key, stats) in groups {
            let parts = Self.programParts(key)
            let name = grouping == .program ? parts.program.map(programName) ?? "(none)" : key ?? ""
            let leading: [String] = grouping == .program ? [parts.appliance] : []
            let cells: [String] = [
                name,
                String(stats.cycles),
                String(stats.finished),
                stats.medianDuration.map(TimeText.duration) ?? "",
                stats.p90Duration.map(TimeText.duration) ?? "",
                stats.medianEstimateError.map(TimeText.signedDuration) ?? "",
                stats.medianAbsEstimateError.map(TimeText.duration) ?? "",
                stats.medianAbsCorrectedError.map(TimeText.duration) ?? "",
                stats.medianPushes.map { $0 == $0.rounded() ? NumberText.plain($0) : TimeText.fixed($0, decimals: 1) } ?? "",
                stats.maxPushes.map(String.init) ?? "",
                stats.medianEnergy.map { TimeText.fixed($0, decimals: 2) + " kWh" } ?? "",
                stats.totalEnergy.map { TimeText.fixed($0, decimals: 2) + " kWh" } ?? "",
                money(stats.medianCost, stats.currency),
                money(stats.totalCost, stats.currency),
            ]
            table.rows.append(leading + cells)
        }
        return table.text
    }

    /// The JSON keys and CSV columns, in order; the first is named after `--by` (with
    /// the readable name after a program key).
    private var columns: [String] {
        [grouping.rawValue] + (grouping == .program ? ["program_name", "appliance"] : []) + [
            "cycles", "finished", "median_duration_seconds", "p90_duration_seconds",
            "median_estimate_error_seconds", "median_abs_estimate_error_seconds", "median_abs_corrected_error_seconds",
            "median_pushes", "max_pushes", "median_energy_kwh", "total_energy_kwh", "median_cost", "total_cost", "currency",
        ]
    }

    /// A group for JSON and CSV: durations in whole seconds, as `query` gives them; energy
    /// in kWh (three decimals).
    private func record(_ group: (key: String?, statistics: CycleStatistics)) -> ReportValue.Record {
        func rounded(_ value: Double?, _ scale: Double) -> ReportValue {
            value.map { .number(($0 * scale).rounded() / scale) } ?? .null
        }
        func seconds(_ value: Double?) -> ReportValue {
            value.flatMap { NumberText.int($0, .toNearestOrAwayFromZero) }.map(ReportValue.int) ?? .null
        }
        let stats = group.statistics
        var values: [ReportValue] = [group.key.map(ReportValue.string) ?? .null]
        if grouping == .program {
            let parts = Self.programParts(group.key)
            values = [parts.program.map(ReportValue.string) ?? .null, parts.program.map { .string(programName($0)) } ?? .null,
                      .string(parts.appliance)]
        }
        values += [
            .int(stats.cycles),
            .int(stats.finished),
            seconds(stats.medianDuration),
            seconds(stats.p90Duration),
            seconds(stats.medianEstimateError),
            seconds(stats.medianAbsEstimateError),
            seconds(stats.medianAbsCorrectedError),
            rounded(stats.medianPushes, 10),
            stats.maxPushes.map(ReportValue.int) ?? .null,
            rounded(stats.medianEnergy, 1_000),
            rounded(stats.totalEnergy, 1_000),
            rounded(stats.medianCost, 10_000),
            rounded(stats.totalCost, 10_000),
            stats.currency.map(ReportValue.string) ?? .null,
        ]
        return zip(columns, values).map { (key: $0, value: $1) }
    }
}
