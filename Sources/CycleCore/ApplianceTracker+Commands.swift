import FoundationEssentials

/// What the local API asks of one appliance's tracker, besides unloading
/// (ApplianceTracker+Laundry.swift).
extension ApplianceTracker {
    /// The settings changed while the service runs (the local API): the open cycle's
    /// steps are planned again from them and an armed unload reminder is timed by them,
    /// while everything else of the cycle stays. Switching `live_activity` off ends a
    /// running Live Activity with a clear, now.
    public mutating func retune(_ settings: ApplianceSettings, at now: Date, budget: DailyBudget) -> [TrackerEffect] {
        let before = self.settings
        self.settings = settings
        planner.retune(settings)
        if var waiting = reminder, before.unloadReminderMinutes != settings.unloadReminderMinutes {
            let interval = UnloadReminder.interval(settings: settings, program: waiting.program)
            if let interval, waiting.sent == 0 { waiting.due = max(now, waiting.endedAt.addingTimeInterval(interval)) }
            reminder = interval == nil ? nil : waiting
        }
        guard before.liveActivity, !settings.liveActivity else { return [] }
        var budget = budget
        return endWait(at: now, budget: &budget) + endActivity(at: now, reason: "clear: live activity off", budget: budget)
    }

    /// Ends the open cycle's Live Activity now with one clear; the cycle itself runs on
    /// with no more live calls. Nothing when no activity shows (see `hasLiveActivity`).
    public mutating func endActivity(at now: Date, reason: String = "clear: asked", budget: DailyBudget) -> [TrackerEffect] {
        guard var cycle = machine.cycle else { return [] }
        var budget = budget
        let effects = planner.endActivity(&cycle, at: now, reason: reason, settings: settings, budget: &budget)
        machine.cycle = cycle
        return effects
    }

    /// Whether a Live Activity shows for the open cycle: its start went out and it was not ended early.
    public var hasLiveActivity: Bool { machine.cycle.map { planner.hasActivity($0) } ?? false }
}
