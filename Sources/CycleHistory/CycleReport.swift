import CycleCore
import LocalTime
import FoundationEssentials

/// A cycle as `query --format json|csv` and the history page's `cycles.csv` give it.
public enum CycleReport {
    /// The JSON keys and CSV columns, in order (new ones are appended).
    public static let columns = [
        "id", "appliance", "program", "program_name", "started_at", "ended_at", "duration_seconds", "outcome", "pushes",
        "energy_kwh", "first_predicted_finish", "last_predicted_finish", "max_progress", "source", "cost", "currency",
    ]

    /// UTC ISO times, numbers as numbers, null where unknown (`outcome` is null while the
    /// cycle is open).
    public static func record(_ cycle: CycleRecord, programName: (String) -> String) -> ReportValue.Record {
        func time(_ date: Date?) -> ReportValue { date.map { .string(TimeText.isoUTC($0)) } ?? .null }
        let values: [ReportValue] = [
            .int(Int(cycle.id)),
            .string(cycle.applianceID),
            cycle.program.map(ReportValue.string) ?? .null,
            cycle.program.map { .string(programName($0)) } ?? .null,
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
            cycle.cost.map { .number(($0 * 10_000).rounded() / 10_000) } ?? .null,
            cycle.currency.map(ReportValue.string) ?? .null,
        ]
        return zip(columns, values).map { (key: $0, value: $1) }
    }
}
