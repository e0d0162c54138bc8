import FoundationEssentials

/// The numbers `stats` needs of one cycle, read without the rest of its row: at
/// 100,000 cycles, building full `CycleRecord`s took most of the command's time.
public struct CycleFigures: Sendable, Equatable {
    /// What the cycles are grouped by, read as `key`.
    public enum Grouping: Sendable {
        case appliance, program, none
    }

    /// The appliance id or the program key, as grouped; nil when not grouped by either
    /// (or for a cycle without a program).
    public var key: String?
    public var startedAt: Date
    /// Seconds from start to end; nil while open.
    public var duration: Double?
    public var finished: Bool
    /// Seconds from the first predicted finish to the actual end, for finished cycles
    /// that had a prediction: positive when the cycle ran over.
    public var estimateError: Double?
    public var pushes: Int
    public var energyKWh: Double?
    /// The appliance and program, whatever the grouping: the finish-time correction
    /// learns per appliance and program.
    public var applianceID: String?
    public var program: String?
    /// Seconds from the start to the first predicted finish: the time left the first
    /// estimate gave, which bounds its correction.
    public var firstEstimateLead: Double?
    /// What the cycle's energy cost, and in which currency, when known.
    public var cost: Double?
    public var currency: String?

    public init(key: String?, startedAt: Date, duration: Double?, finished: Bool, estimateError: Double?,
                pushes: Int, energyKWh: Double?, applianceID: String? = nil, program: String? = nil,
                firstEstimateLead: Double? = nil, cost: Double? = nil, currency: String? = nil) {
        self.cost = cost
        self.currency = currency
        self.key = key
        self.startedAt = startedAt
        self.duration = duration
        self.finished = finished
        self.estimateError = estimateError
        self.pushes = pushes
        self.energyKWh = energyKWh
        self.applianceID = applianceID
        self.program = program
        self.firstEstimateLead = firstEstimateLead
    }
}
