import FoundationEssentials

extension ApplianceTracker {
    /// The dryer this appliance is linked to started at `now` (`LaundryLink`): the laundry
    /// left it, so its unload reminders stop and a waiting end notification or reminder is
    /// dropped, as when its door opens. The reminder that would have come next is said
    /// dropped too (`waiting`), so that `run` stores the stop with the tracker's state and a
    /// restart doesn't bring it back. nil when nothing waited (a cycle still running, or the
    /// door already opened).
    mutating func laundryMoved(at now: Date, budget: DailyBudget) -> [TrackerEffect]? {
        let why = "the dryer started"
        if held != nil {
            var budget = budget
            reminder = nil
            return dropHeld(at: now, because: why, budget: &budget)
        }
        guard let next = reminder else { return nil }
        reminder = nil
        return [.waiting(kind: .reminder, at: now, reason: "unload reminder \(next.sent + 1)" + TrackerEffect.droppedMark + why)]
    }
}
