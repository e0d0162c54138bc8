/// The settings of one appliance changed at run time (through the local API, kept in
/// the history), over the configuration's: each nil key keeps the configured value
/// (docs/API.md, "Settings").
public struct ApplianceOverrides: Sendable, Equatable {
    public var steps: ProgressSteps?
    public var notifyStart: Bool?
    public var notifyProgress: Bool?
    public var notifyEnd: Bool?
    public var liveActivity: Bool?
    /// Minutes; 0 is off.
    public var unloadReminderMinutes: Double?

    /// The keys as the API and the store name them, in this order.
    public static let keys = ["progress_steps", "notify_start", "notify_progress", "notify_end", "live_activity",
                              "unload_reminder_minutes"]

    public init(steps: ProgressSteps? = nil, notifyStart: Bool? = nil, notifyProgress: Bool? = nil, notifyEnd: Bool? = nil,
                liveActivity: Bool? = nil, unloadReminderMinutes: Double? = nil) {
        self.steps = steps
        self.notifyStart = notifyStart
        self.notifyProgress = notifyProgress
        self.notifyEnd = notifyEnd
        self.liveActivity = liveActivity
        self.unloadReminderMinutes = unloadReminderMinutes
    }

    /// No key overridden.
    public var isEmpty: Bool { self == ApplianceOverrides() }

    /// The keys overridden, as named in `keys`.
    public var overridden: Set<String> {
        let set: [(String, Bool)] = [
            ("progress_steps", steps != nil), ("notify_start", notifyStart != nil), ("notify_progress", notifyProgress != nil),
            ("notify_end", notifyEnd != nil), ("live_activity", liveActivity != nil),
            ("unload_reminder_minutes", unloadReminderMinutes != nil),
        ]
        return Set(set.filter(\.1).map(\.0))
    }

    /// `base` with every overridden key replaced.
    public func applied(to base: ApplianceSettings) -> ApplianceSettings {
        var settings = base
        if let steps { settings.steps = steps }
        if let notifyStart { settings.notifyStart = notifyStart }
        if let notifyProgress { settings.notifyProgress = notifyProgress }
        if let notifyEnd { settings.notifyEnd = notifyEnd }
        if let liveActivity { settings.liveActivity = liveActivity }
        if let unloadReminderMinutes { settings.unloadReminderMinutes = unloadReminderMinutes }
        return settings
    }

    /// These overrides with every key `newer` sets taken from it.
    public func merging(_ newer: ApplianceOverrides) -> ApplianceOverrides {
        ApplianceOverrides(steps: newer.steps ?? steps, notifyStart: newer.notifyStart ?? notifyStart,
                           notifyProgress: newer.notifyProgress ?? notifyProgress, notifyEnd: newer.notifyEnd ?? notifyEnd,
                           liveActivity: newer.liveActivity ?? liveActivity,
                           unloadReminderMinutes: newer.unloadReminderMinutes ?? unloadReminderMinutes)
    }
}
