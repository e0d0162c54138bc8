import FoundationEssentials

/// The reminder to unload a finished cycle (docs/PUSHES.md, "Unload reminder"): armed
/// when a cycle ends `finished` behind a closed door, due `unload_reminder_minutes`
/// later and again at the same interval up to `unload_reminder_repeats` times; gone
/// when the door opens, a cycle starts, the appliance is unavailable for
/// `lost_after_minutes`, or the daily budget refuses one. Part of the tracker's
/// snapshot, so a restart keeps it.
struct UnloadReminder: Sendable, Codable, Equatable {
    /// When the cycle ended.
    var endedAt: Date
    var program: String?
    /// The next reminder.
    var due: Date
    /// Reminders made so far.
    var sent: Int = 0
    /// When the operation state went without a value; nil while available.
    var unavailableSince: Date?

    /// The wait after the end for an appliance with these settings and program; nil: none.
    static func interval(settings: ApplianceSettings, program: String?) -> Double? {
        let minutes = settings.unloadReminderMinutes ?? (isLaundry(settings: settings, program: program) ? 30 : 0)
        return minutes > 0 ? minutes * 60 : nil
    }

    /// Washers, washer-dryers and dryers, told the way the icon is guessed.
    static func isLaundry(settings: ApplianceSettings, program: String?) -> Bool {
        let icon = ApplianceIcon.guess(programKey: program, name: settings.name)
        return icon == "mdi:washing-machine" || icon == "mdi:tumble-dryer"
    }

    /// What a door reading says: true for closed (or locked), false for open, nil when
    /// not reported or not one of these. A door `binary_sensor` (Miele, Whirlpool,
    /// Electrolux) is `on` when open and `off` when closed.
    static func isClosed(_ door: String?) -> Bool? {
        switch door?.lowercased() {
        case "closed", "locked", "off": true
        case "open", "on": false
        default: nil
        }
    }

    /// Makes the reminder due `now`. `keep` is false when none follows: it was the last,
    /// the budget held it back, or the appliance has been unavailable for good.
    mutating func fire(at now: Date, settings: ApplianceSettings, budget: inout DailyBudget)
        -> (effects: [TrackerEffect], keep: Bool) {
        if let since = unavailableSince, now.timeIntervalSince(since) >= settings.lostAfterMinutes * 60 {
            return ([], false)
        }
        let reason = "unload reminder \(sent + 1)"
        guard budget.allows(.reminder) else {
            return ([.heldBack(kind: .reminder, at: now, reason: reason)], false)
        }
        let body = SupernotifyBody.reminder(program: program, endedAt: endedAt, at: now, settings: settings)
        budget.spend()
        sent += 1
        let effects: [TrackerEffect] = [.call(SupernotifyCall(kind: .reminder, at: now, body: body, reason: reason))]
        guard sent <= settings.unloadReminderRepeats,
              let interval = UnloadReminder.interval(settings: settings, program: program) else {
            return (effects, false)
        }
        due = due.addingTimeInterval(interval)
        return (effects, true)
    }
}

extension ApplianceSettings {
    /// The unload reminder's minutes as they apply to this appliance (30 for a washer or
    /// dryer when not set); 0 is off.
    public var unloadReminderMinutesInEffect: Double {
        (UnloadReminder.interval(settings: self, program: nil) ?? 0) / 60
    }
}
