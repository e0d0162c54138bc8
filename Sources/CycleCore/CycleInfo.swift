import FoundationEssentials

/// The open cycle as the store keeps it.
public struct CycleInfo: Sendable, Equatable, Codable {
    public var startedAt: Date
    /// The first program known while it runs.
    public var program: String?
    public var firstPredictedFinish: Date?
    public var lastPredictedFinish: Date?
    /// The first and latest finish time shown on the phone: the reported one, shifted by
    /// the finish-time correction when there is one (docs/PUSHES.md).
    public var firstShownFinish: Date?
    public var lastShownFinish: Date?
    public var maxProgress: Int?
    /// Calls emitted for this cycle so far (start, updates, clear, end).
    public var calls: Int
    /// The energy counter (kWh) when the cycle started, or first seen while it ran.
    public var energyAtStart: Double?
    /// The energy counter (kWh) last seen while it ran; with `energyAtStart`, the cycle's energy.
    public var energyLatest: Double?
    /// kWh integrated from the power readings while it ran (trapezoid rule), for the
    /// cycle's energy when there is no counter; nil until a power reading was seen.
    public var energyIntegrated: Double?
    /// The last power reading taken into `energyIntegrated`, in watts, and its time.
    public var lastPowerWatts: Double?
    public var lastPowerAt: Date?
    /// Its progress and finish time were estimated from the appliance's past cycles
    /// (`LearnedDurations`), not reported; nil when not (and in older snapshots).
    public var progressEstimated: Bool?
    /// What its energy cost so far at the price entity's prices (`accumulateCost`); nil
    /// until both a price and an energy reading were seen.
    public var cost: Double?
    /// The price entity's latest price per kWh, and the currency its unit names.
    public var pricePerKWh: Double?
    public var currency: String?
    /// Its start was dropped for the daily budget: tracked and stored, sends nothing.
    public var silent: Bool
    /// It began from a delayed start (the appliance started itself, nobody just pressed
    /// start): in quiet hours its start doesn't alert. Nil when not (and in older snapshots).
    public var delayedStart: Bool?

    /// A cycle that has just begun, with no calls yet.
    public init(startedAt: Date, program: String? = nil) {
        self.startedAt = startedAt
        self.program = program
        self.calls = 0
        self.silent = false
    }

    /// kWh used so far: from the energy counter when one was seen at both ends, else
    /// integrated from the power readings.
    public var energyUsed: Double? {
        guard let start = energyAtStart, let latest = energyLatest else { return energyIntegrated }
        return latest - start
    }
}
