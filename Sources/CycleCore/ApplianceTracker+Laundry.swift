import FoundationEssentials

extension ApplianceTracker {
    /// The dryer this appliance is linked to started at `now` (`LaundryLink`): the laundry
    /// left it, so its unload reminders stop and a waiting end notification or reminder is
    /// dropped, as when its door opens. The reminder that would have come next is said
    /// dropped too (`waiting`), so that `run` stores the stop with the tracker's state and a
    /// restart doesn't bring it back. nil when nothing waited (a cycle still running, or the
    /// door already opened).
    mutating func laundryMoved(at now: Date, budget: DailyBudget) -> [TrackerEffect]? {
        stopReminders(at: now, because: "the dryer started", budget: budget)
    }

    /// Someone tapped the *Unloaded* button (`UnloadedAction`) or said so through the local
    /// API: the reminders stop, as in `laundryMoved`. Nothing when nothing waited.
    public mutating func unloaded(at now: Date, budget: DailyBudget) -> [TrackerEffect] {
        stopReminders(at: now, because: "marked unloaded", budget: budget) ?? []
    }

    private mutating func stopReminders(at now: Date, because why: String, budget: DailyBudget) -> [TrackerEffect]? {
        let emptied: [TrackerEffect] = awaitsUnloading ? [.unloaded(at: now)] : []
        awaitsUnloading = false
        // A running cycle's anomaly alert is not about unloading.
        if let kind = held?.kind, kind != .progress {
            var budget = budget
            reminder = nil
            return emptied + dropHeld(at: now, because: why, budget: &budget)
        }
        guard let next = reminder else { return emptied.isEmpty ? nil : emptied }
        reminder = nil
        return emptied + [.waiting(kind: .reminder, at: now, reason: "unload reminder \(next.sent + 1)" + TrackerEffect.droppedMark + why)]
    }
}
