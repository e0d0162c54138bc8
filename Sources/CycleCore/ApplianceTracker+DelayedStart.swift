import FoundationEssentials

/// A delayed start's wait on the lock screen (docs/PUSHES.md, "Delayed starts"), decided
/// here for `run` and `replay` alike: while the appliance is idle in `delayedstart`, the
/// tracker follows the wait (`DelayedStart`) and puts it on the lock screen, quietly, from
/// the moment the whole cycle fits in one Live Activity's life; the run then updates that
/// activity. A wait that ends without a run takes its activity away.
extension ApplianceTracker {
    /// When the wait goes on the lock screen, if it waits for that (`Deadline.Source.delayedStart`).
    var waitDeadline: Date? {
        settings.liveActivity ? waiting?.showAt : nil
    }

    /// How long `program` usually takes on this appliance, in seconds: the median of its
    /// finished cycles (`FinishHistory.usual`), else the learned durations (by program, else
    /// overall); nil without history.
    func usualSeconds(_ program: String?) -> Double? {
        history.usual(program)?.median ?? settings.learned?.seconds(program: program)
    }

    /// An observation while no cycle is open: `delayedstart` follows the wait and shows it
    /// when the cycle fits now; another known state ends the wait (its activity cleared); no
    /// value changes nothing.
    mutating func followWait(_ observation: Observation, at now: Date, audience: Audience,
                             budget: inout DailyBudget) -> [TrackerEffect] {
        switch observation.operation {
        case .known(.delayedstart):
            var wait = waiting ?? DelayedStart()
            wait.take(observation, usual: usualSeconds)
            waiting = wait
            if wait.shownAt != nil { return moveWait(at: now, audience: audience, budget: &budget) }
            guard let due = waitDeadline, due <= now else { return [] }
            return showWait(at: now, audience: audience, budget: &budget)
        case .known:
            return endWait(at: now, budget: &budget)
        case .unavailable, .unrecognised:
            return []
        }
    }

    /// Puts the wait on the lock screen: one quiet live call with an empty alert, at any hour
    /// (it alerts no one); refused once by the day's budget, it is not tried again.
    mutating func showWait(at now: Date, audience: Audience, budget: inout DailyBudget) -> [TrackerEffect] {
        guard settings.liveActivity, var wait = waiting, wait.shownAt == nil, !wait.refused else { return [] }
        guard budget.allows(.quiet, asStart: true) else {
            wait.refused = true
            waiting = wait
            return [.heldBack(kind: .quiet, at: now, reason: DelayedStart.startReason)]
        }
        let call = wait.call(at: now, moved: false, settings: settings, clock: audience.delivery.clock)
        waiting = wait
        budget.spend()
        return [.call(call)]
    }

    /// The shown wait's start moved (the delay changed on the appliance): one quiet update
    /// with the new start, when `DelayedStart.moved` says so and the day allows a quiet call.
    mutating func moveWait(at now: Date, audience: Audience, budget: inout DailyBudget) -> [TrackerEffect] {
        guard settings.liveActivity, var wait = waiting, wait.moved(at: now, settings: settings),
              budget.allows(.quiet) else { return [] }
        let call = wait.call(at: now, moved: true, settings: settings, clock: audience.delivery.clock)
        waiting = wait
        budget.spend()
        return [.call(call)]
    }

    /// The wait ended without a run (cancelled, switched off): its activity, if shown, is
    /// cleared with an empty alert.
    mutating func endWait(at now: Date, budget: inout DailyBudget) -> [TrackerEffect] {
        guard let wait = waiting else { return [] }
        waiting = nil
        guard wait.shownAt != nil else { return [] }
        budget.spend()
        let body = ActivityRenewal.clearBody(settings: settings)
        return [.call(SupernotifyCall(kind: .clear, at: now, body: body, reason: DelayedStart.clearReason))]
    }
}
