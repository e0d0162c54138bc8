import FoundationEssentials

extension ApplianceTracker {
    /// The dryer this appliance is linked to started at `now` (`LaundryLink`): the laundry
    /// left it, so its unload reminders stop and a waiting end notification or reminder is
    /// dropped, as when its door opens. nil when nothing waited (a cycle still running, or
    /// the door already opened).
    mutating func laundryMoved(at now: Date, budget: DailyBudget) -> [TrackerEffect]? {
        guard reminder != nil || held != nil else { return nil }
        var budget = budget
        reminder = nil
        return dropHeld(at: now, because: "the dryer started", budget: &budget)
    }
}
