/// Everything the core needs to know about one appliance: who it is and how its
/// cycles are turned into pushes. Built by the service from the configuration
/// (defaults as in docs/REFERENCE.md, "Configuration"); the core never reads files.
public struct ApplianceSettings: Sendable, Equatable, Codable {
    /// The part after `appliance_` in the notification tag: `[A-Za-z0-9_-]{1,50}`.
    public var id: String
    /// The start title, e.g. "Dishwasher".
    public var name: String
    /// `mdi:...`; nil means guessed from the program key or the name.
    public var icon: String?
    public var notifyStart: Bool = true
    public var notifyProgress: Bool = false
    public var notifyEnd: Bool = true
    /// `live_activity`: false makes no Live Activity / Live Update calls for the
    /// appliance at all (no start, update or clear); the end notification and the
    /// unload reminder still go as set.
    public var liveActivity: Bool = true
    public var steps: ProgressSteps = .default
    public var cyclePushLimit: Int = 18
    /// Dashboard path sent as `url` and `clickAction`; nil sends neither.
    public var dashboard: String?
    /// Supernotify targets passed as is; nil or empty means Supernotify's default recipients.
    public var target: [String]?
    public var color: String?
    public var relevance: Double?
    public var persistent: Bool = false
    public var fcmHighPriority: Bool = false
    public var settleSeconds: Double = 30
    public var minUpdateSeconds: Double = 15
    public var finishJitterSeconds: Double = 120
    public var temperatureStep: Double = 20
    public var heartbeatMinutes: Double = 25
    public var lostAfterMinutes: Double = 360
    /// `finish_correction`: shift the finish time shown by what this appliance's past
    /// cycles of the program ran over or under (docs/PUSHES.md, "Finish-time correction").
    public var finishCorrection: Bool = true
    /// `unload_reminder_minutes`: how long a finished cycle's door may stay closed before
    /// a reminder; 0 is off; nil is 30 for washers and dryers (told by the program key or
    /// the name, as the icon is guessed) and off for other appliances.
    public var unloadReminderMinutes: Double?
    /// `unload_reminder_repeats`: reminders after the first, at the same interval.
    public var unloadReminderRepeats: Int = 2
    /// `anomaly_notes`: say once when a cycle needs attention, runs much longer than usual or
    /// its progress stops (docs/PUSHES.md, "Anomalies").
    public var anomalyNotes: Bool = true
    /// `dryer`: where a washer's laundry goes next (docs/PUSHES.md, "Washer and dryer"): `auto`,
    /// the household's one dryer when this is a washer; `off`; or the dryer's appliance id.
    public var dryer: String = LaundryLink.automatic
    /// The name of the dryer the household linked this appliance to (`LaundryLink`), which its
    /// end notification and unload reminders name; nil: none. Set by the household, never configured.
    public var linkedDryer: String?
    /// The Supernotify deliveries that reach phones (`delivery` of mobile-only calls).
    public var mobileDeliveries: [String] = ["mobile_push"]
    public var texts: Texts = Texts()
    /// How the appliance's entities are read (docs/CYCLES.md, "Brands").
    public var profile: BrandProfile = .homeConnect
    /// The smart plug thresholds, used with `profile` `.plug`.
    public var power: PowerSettings = PowerSettings()
    /// Durations learned from the appliance's own finished cycles, for a progress and a
    /// finish time where it reports none; nil: nothing learned (the world leaves it nil
    /// for appliances that report their own).
    public var learned: LearnedDurations?
    /// `quiet_hours` of the appliance: nil takes the household's (docs/PUSHES.md, "Quiet hours").
    public var quietHours: QuietOverride?
    /// A fixed electricity price per kWh, for the cost of a cycle without a price entity,
    /// and the currency prices are in (a price entity's unit may name its own).
    public var pricePerKWh: Double?
    public var currency: String?

    public init(id: String, name: String) {
        self.id = id
        self.name = name
    }
}
