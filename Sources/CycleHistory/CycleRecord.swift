import CycleCore
import FoundationEssentials

/// One row of `cycles`: a run of an appliance, open while `outcome` is nil.
public struct CycleRecord: Sendable, Equatable {
    public var id: Int64
    public var applianceID: String
    /// The program key as Home Assistant shows it, if known.
    public var program: String?
    public var startedAt: Date
    public var endedAt: Date?
    /// How it ended; nil while the cycle is open.
    public var outcome: CycleOutcome?
    public var firstPredictedFinish: Date?
    public var lastPredictedFinish: Date?
    /// The highest progress seen, 0...100.
    public var maxProgress: Int?
    /// How many Supernotify calls were made for the cycle (every status but `not_sent`, the
    /// held back); for a `replay --record` cycle, whose calls are `replayed`, the calls planned.
    public var pushes: Int
    /// The appliance's energy counter at the start, kWh.
    public var energyStart: Double?
    /// Energy used by the cycle, kWh, when the counter was read at both ends.
    public var energyKWh: Double?
    /// Who recorded it.
    public var source: CycleSource
    /// The first and latest finish time shown on the phone (the predicted one after the
    /// finish-time correction); nil for cycles recorded before it existed.
    public var firstShownFinish: Date?
    public var lastShownFinish: Date?
    /// What its energy cost, in `currency`, when a price was known (docs/REFERENCE.md, "Energy and cost").
    public var cost: Double?
    public var currency: String?

    public init(
        id: Int64, applianceID: String, program: String?, startedAt: Date, endedAt: Date?, outcome: CycleOutcome?,
        firstPredictedFinish: Date?, lastPredictedFinish: Date?, maxProgress: Int?, pushes: Int,
        energyStart: Double?, energyKWh: Double?, source: CycleSource,
        firstShownFinish: Date? = nil, lastShownFinish: Date? = nil
    ) {
        self.id = id
        self.applianceID = applianceID
        self.program = program
        self.startedAt = startedAt
        self.endedAt = endedAt
        self.outcome = outcome
        self.firstPredictedFinish = firstPredictedFinish
        self.lastPredictedFinish = lastPredictedFinish
        self.maxProgress = maxProgress
        self.pushes = pushes
        self.energyStart = energyStart
        self.energyKWh = energyKWh
        self.source = source
        self.firstShownFinish = firstShownFinish
        self.lastShownFinish = lastShownFinish
    }

    /// Whether the cycle is still running (no outcome yet).
    public var isOpen: Bool { outcome == nil }

    /// The finish time last shown on the phone, else the one HA last gave, else the first.
    public var expectedFinish: Date? { lastShownFinish ?? lastPredictedFinish ?? firstShownFinish ?? firstPredictedFinish }

    /// How long past its expected finish an open cycle may run before it is overdue (a
    /// late finish within it is an estimate's error; past it, the end was likely missed).
    public static let overdueAfterSeconds: TimeInterval = 30 * 60

    /// Whether the cycle is open and more than `overdueAfterSeconds` past its expected finish at `now`.
    public func isOverdue(at now: Date) -> Bool {
        guard isOpen, let finish = expectedFinish else { return false }
        return now.timeIntervalSince(finish) > Self.overdueAfterSeconds
    }

    /// How long the cycle ran, for an ended cycle.
    public var duration: TimeInterval? { endedAt.map { $0.timeIntervalSince(startedAt) } }

    /// The columns `SQLiteRow` reading via `init(row:)` expects, in order.
    static let columns = """
        id, appliance_id, program, started_at, ended_at, outcome, first_predicted_finish, \
        last_predicted_finish, max_progress, \(pushesExpression), energy_start, energy_kwh, source, \
        first_shown_finish, last_shown_finish, cost, currency
        """

    /// A cycle's calls as `query` and `stats` count them: the `pushes` column, kept by the
    /// schema's triggers (calls made, or for a recorded replay the calls it planned, stored
    /// as `replayed`), so that tunings replayed with `--record` can be compared in `stats`.
    static let pushesExpression = "cycles.pushes"

    /// The schema's CHECK constraints keep `outcome` and `source` to the enums' values.
    init(row: SQLiteRow) {
        self.init(
            id: row.int64(0), applianceID: row.string(1), program: row.optionalString(2),
            startedAt: row.date(3), endedAt: row.optionalDate(4), outcome: row.optionalString(5).flatMap(CycleOutcome.init(rawValue:)),
            firstPredictedFinish: row.optionalDate(6), lastPredictedFinish: row.optionalDate(7),
            maxProgress: row.optionalInt64(8).map { Int($0) }, pushes: Int(row.int64(9)),
            energyStart: row.optionalDouble(10), energyKWh: row.optionalDouble(11), source: CycleSource(rawValue: row.string(12)) ?? .run,
            firstShownFinish: row.optionalDate(13), lastShownFinish: row.optionalDate(14))
        cost = row.optionalDouble(15)
        currency = row.optionalString(16)
    }
}
