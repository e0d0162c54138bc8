import CycleCore
import FoundationEssentials

/// One appliance as cycletrack shows it outside: the REST-posted `sensor.cycletrack_<id>`
/// and the local API's appliance (docs/API.md) are both made from this one value, so
/// that the two never disagree. Made by `ApplianceSnapshots.snapshot`.
public struct ApplianceSnapshot: Sendable, Equatable {
    /// The last cycle that ended.
    public struct LastCycle: Sendable, Equatable {
        public var outcome: CycleOutcome
        public var endedAt: Date?
        public var duration: Double
        public var energy: Double?
        /// The program key.
        public var program: String?
    }

    public var id: String
    public var name: String
    public var profile: BrandProfile
    /// HA's device id from discovery.
    public var deviceID: String?
    /// `idle`, `running`, `paused`, `action_required`, `unavailable`, or the last
    /// cycle's outcome until the appliance's operation state moves on.
    public var state: String
    public var running: Bool
    /// The program key of the open cycle (or the one shown).
    public var program: String?
    public var progress: Int?
    /// The finish time the phone shows (corrected).
    public var finish: Date?
    public var startedAt: Date?
    /// Calls of the open cycle; nil without one.
    public var pushes: Int?
    public var lastCycle: LastCycle?
    /// The energy of every stored cycle, kWh.
    public var energyTotal: Double
    public var icon: String
    /// The settings in effect (configuration, then the API's changes).
    public var settings: ApplianceSettings
    /// Whether a Live Activity shows for the open cycle now.
    public var liveActivityShown: Bool
    /// Whether a finished cycle waits to be unloaded (`ApplianceTracker.awaitsUnloading`).
    public var awaitsUnloading = false
}
