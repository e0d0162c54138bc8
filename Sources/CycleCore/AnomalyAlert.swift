import FoundationEssentials

/// An alerting anomaly note respects quiet hours and presence as the end notification does
/// (docs/PUSHES.md, "Anomalies"): it alerts the people who are home and out of their quiet
/// hours (everyone, without people, out of quiet hours) and reaches the others quietly. When
/// nobody may be alerted at its moment, the note goes out quietly on the Live Activity and its
/// alert waits as a `HeldNotice` of kind `progress`, with the reason `alert: anomaly: …`: it
/// goes out when quiet hours end or someone comes home, if the anomaly still holds, and is
/// dropped when it cleared or the cycle ended.
extension Audience {
    /// Who gets an alerting note now: people home, getting `progress`, out of their quiet hours.
    func notePlan(settings: ApplianceSettings, at date: Date) -> LivePlan {
        let people = delivery.people
        guard !people.isEmpty else { return .one(isQuiet(settings, at: date) ? .quiet : .progress) }
        let alerting = people.filter {
            $0.kinds.contains(.progress) && home.contains($0.entity) && !isQuiet($0, settings, at: date)
        }
        if alerting.count == people.count { return .one(.progress) }
        if alerting.isEmpty { return .one(.quiet) }
        let others = people.filter { person in !alerting.contains { $0.entity == person.entity } }
        return .split(alerting: alerting.flatMap(\.target), quiet: others.flatMap(\.target))
    }

    /// Whether an alert nobody may get now can wait for someone: quiet hours or people apply,
    /// and, with people, someone gets `progress` at all.
    func alertMayWait(_ settings: ApplianceSettings) -> Bool {
        guard applies(to: settings) else { return false }
        return delivery.people.isEmpty || delivery.people.contains { $0.kinds.contains(.progress) }
    }
}

extension HeldNotice {
    /// The alert of `note`, due `at` its moment, for the cycle as it is then.
    init(alert note: AnomalyWatch.Note, view: CycleView, cycle: CycleInfo, at date: Date) {
        self.init(kind: .progress, reason: "alert: " + note.reason, dueAt: date, endedAt: date, cycle: cycle,
                  program: cycle.program)
        message = note.message
        anomaly = note.kind
        notedProgress = view.progress
        self.view = view
    }

    /// Whether the anomaly it alerts of still holds with the cycle's `view`: the error or the
    /// action required lasts, the progress has not moved; a late cycle is late while it runs.
    func stillHolds(_ view: CycleView) -> Bool {
        switch anomaly {
        case .error: view.pause == .error
        case .actionRequired: view.pause == .actionRequired
        case .stuck: view.progress == notedProgress
        case .late, .farLate, nil: true
        }
    }
}

extension ApplianceTracker {
    /// After an update: holds the alert the planner could not send now, or drops the waiting
    /// one whose anomaly cleared.
    mutating func holdAlert(at now: Date, audience: Audience, budget: inout DailyBudget) -> [TrackerEffect] {
        if let alert = planner.takeAlert() {
            var effects = dropAlert(at: now, because: "a newer note", budget: &budget)
            held = alert
            effects += deliverHeld(at: now, audience: audience, budget: &budget)
            return effects
        }
        guard let notice = held, notice.kind == .progress, let view = machine.view, !notice.stillHolds(view) else {
            return []
        }
        return dropHeld(at: now, because: "it cleared", budget: &budget)
    }

    /// Drops a waiting anomaly alert (the cycle ended, a newer note), saying why.
    mutating func dropAlert(at now: Date, because why: String, budget: inout DailyBudget) -> [TrackerEffect] {
        guard held?.kind == .progress else { return [] }
        return dropHeld(at: now, because: why, budget: &budget)
    }

    /// The door reads open: a waiting end notification or reminder is dropped (someone is at
    /// the appliance); an anomaly alert is not (an open door may be its reason).
    mutating func doorOpened(at now: Date, budget: inout DailyBudget) -> [TrackerEffect] {
        guard held?.kind != .progress else { return [] }
        return dropHeld(at: now, because: "the door opened", budget: &budget)
    }

    /// One attempt of the waiting notice; an anomaly alert shows the cycle as it is now, takes
    /// one of its `cycle_push_limit` calls, and is dropped when none is free.
    mutating func attemptHeld(_ notice: inout HeldNotice, at now: Date, audience: Audience,
                              budget: inout DailyBudget) -> (effects: [TrackerEffect], outcome: HeldNotice.Outcome) {
        guard notice.kind == .progress, var cycle = machine.cycle else {
            return notice.attempt(at: now, settings: settings, audience: audience, budget: &budget)
        }
        notice.view = machine.view ?? notice.view
        notice.cycle = cycle
        guard settings.cyclePushLimit - 2 - cycle.calls >= 1 else {
            return ([.heldBack(kind: .progress, at: now, reason: notice.reason)], .dropped)
        }
        let attempt = notice.attempt(at: now, settings: settings, audience: audience, budget: &budget)
        cycle.calls += attempt.effects.filter { if case .call = $0 { true } else { false } }.count
        machine.cycle = cycle
        return attempt
    }
}
