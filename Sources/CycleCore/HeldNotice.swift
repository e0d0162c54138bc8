import FoundationEssentials

/// An end notification, unload reminder or anomaly alert on its way to people (docs/PUSHES.md,
/// "Quiet hours", "Presence"): it goes out when nobody it is for is in quiet hours and someone
/// is home, waits otherwise, and is dropped when the door opens (an anomaly alert: when it
/// cleared or the cycle ended), a new cycle starts, or nobody came home in time. Part of the tracker's snapshot, so a restart neither loses nor
/// repeats it: it leaves the snapshot in the same transaction that records its call.
struct HeldNotice: Sendable, Codable, Equatable {
    /// `.end`, `.reminder`, or `.progress` for an anomaly alert (`AnomalyAlert.swift`).
    var kind: CallKind
    /// "end: finished", "unload reminder 1".
    var reason: String
    /// When it fell due.
    var dueAt: Date
    /// The cycle's end.
    var endedAt: Date
    /// The ended cycle, for the end notification's summary; nil for a reminder.
    var cycle: CycleInfo?
    var program: String?
    /// The person entities it goes to, fixed when it first finds someone home; nil until
    /// then, and always without people.
    var recipients: [String]?
    /// When it is next tried without an event: the end of someone's quiet hours, or when
    /// waiting for someone to come home runs out.
    var next: Date?
    /// What the last `waiting` effect said, so the same wait is reported once.
    var said: String?
    /// An anomaly alert's note, the kind of anomaly, the progress when it was noted, and the
    /// running cycle's view (kept up to date while it waits); nil for the others.
    var message: String?
    var anomaly: AnomalyWatch.Kind?
    var notedProgress: Int?
    var view: CycleView?

    /// How one attempt went.
    enum Outcome: Equatable {
        /// Everything went out (or nothing was left to send).
        case done
        case waiting
        /// Given up (waited too long) or refused by the daily budget.
        case dropped
    }

    /// Sends what may go out at `now`, to whom it may; keeps the rest waiting.
    mutating func attempt(at now: Date, settings: ApplianceSettings, audience: Audience,
                          budget: inout DailyBudget) -> (effects: [TrackerEffect], outcome: Outcome) {
        let people = audience.delivery.people
        let clock = audience.delivery.clock
        guard !people.isEmpty else {
            if let window = audience.window(settings), window.contains(now, clock: clock) {
                return wait(until: window.end(after: now, clock: clock), at: now, why: "quiet hours")
            }
            return send([(settings.target, nil)], at: now, settings: settings, budget: &budget)
        }
        if recipients == nil {
            let home = people.filter { audience.home.contains($0.entity) && $0.kinds.contains(kind) }
            guard !home.isEmpty else {
                let limit = dueAt.addingTimeInterval(audience.delivery.presenceWaitSeconds)
                if now >= limit {
                    let hours = NumberText.plain(audience.delivery.presenceWaitSeconds / 3600)
                    return ([.waiting(kind: kind, at: now, reason: reason + TrackerEffect.droppedMark + "nobody came home within \(hours) h")],
                            .dropped)
                }
                return wait(until: limit, at: now, why: "nobody home")
            }
            recipients = home.map(\.entity)
        }
        let chosen = people.filter { recipients?.contains($0.entity) ?? false }
        let ready = chosen.filter { !audience.isQuiet($0, settings, at: now) }
        let later = chosen.filter { audience.isQuiet($0, settings, at: now) }
        recipients = later.map(\.entity)
        var effects: [TrackerEffect] = []
        if !ready.isEmpty {
            let sent = send(HeldNotice.groups(ready), at: now, settings: settings, budget: &budget)
            if sent.outcome == .dropped || later.isEmpty { return sent }
            effects = sent.effects
        }
        guard !later.isEmpty else { return (effects, .done) }
        let ends = later.compactMap { audience.window($0, settings)?.end(after: now, clock: clock) }
        let waited = wait(until: ends.min() ?? now, at: now, why: "quiet hours for \(later.map(\.entity).joined(separator: ", "))")
        return (effects + waited.effects, .waiting)
    }

    /// People with the same texts share one call, its target every one of theirs.
    private static func groups(_ people: [PersonSettings]) -> [(target: [String]?, texts: Texts?)] {
        var groups: [(target: [String]?, texts: Texts?)] = []
        for person in people {
            if let index = groups.firstIndex(where: { $0.texts == person.texts }) {
                groups[index].target = (groups[index].target ?? []) + person.target.filter { !(groups[index].target ?? []).contains($0) }
            } else {
                groups.append((person.target, person.texts))
            }
        }
        return groups
    }

    private mutating func wait(until next: Date, at now: Date, why: String) -> (effects: [TrackerEffect], outcome: Outcome) {
        self.next = next
        let text = "\(reason): \(why), waiting until \(ISOTime.format(next))"
        guard text != said else { return ([], .waiting) }
        said = text
        return ([.waiting(kind: kind, at: now, reason: text)], .waiting)
    }

    /// One call per group, each addressed to its target in its texts.
    private func send(_ groups: [(target: [String]?, texts: Texts?)], at now: Date, settings: ApplianceSettings,
                      budget: inout DailyBudget) -> (effects: [TrackerEffect], outcome: Outcome) {
        var effects: [TrackerEffect] = []
        let reason = now > dueAt ? "\(self.reason) (due \(ISOTime.format(dueAt)))" : self.reason
        for group in groups {
            guard budget.allows(kind) else {
                effects.append(.heldBack(kind: kind, at: now, reason: self.reason))
                return (effects, .dropped)
            }
            var addressed = settings
            addressed.target = group.target
            if let texts = group.texts { addressed.texts = texts }
            let body = if kind == .end, let cycle {
                SupernotifyBody.end(cycle: cycle, at: endedAt, settings: addressed)
            } else if kind == .progress, let cycle, let view {
                SupernotifyBody.live(kind: .progress, message: message ?? "", view: view, cycle: cycle, settings: addressed)
            } else {
                SupernotifyBody.reminder(program: program, endedAt: endedAt, at: now, settings: addressed)
            }
            budget.spend()
            effects.append(.call(SupernotifyCall(kind: kind, at: now, body: body, reason: reason)))
        }
        return (effects, .done)
    }
}
