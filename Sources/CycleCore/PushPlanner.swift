import FoundationEssentials

/// Decides which `supernotify.notify` calls a cycle gets (docs/PUSHES.md, "Budget",
/// "Progress steps" and "Timing"): what is news, when it may go out, and whether
/// the per-cycle and daily budgets let it. A value, reset at every cycle start.
struct PushPlanner: Sendable, Codable, Equatable {
    /// What the last live call showed.
    struct Sent: Sendable, Codable, Equatable {
        var progress: Int?
        /// Nil when the call carried none (none reported, or paused).
        var finishTime: Date?
        var pause: PauseState
        var program: String?
    }

    /// What changed since the last live call, and so might be worth one.
    private struct News {
        var crossedSteps: [Int] = []
        var pauseChange = false
        var finishTime = false
        var program = false
        var temperature = false
        var heartbeat = false

        var isEmpty: Bool { crossedSteps.isEmpty && !pauseChange && !finishTime && !program && !temperature && !heartbeat }
        /// Steps and pause changes may take any free slot; the rest only spare ones.
        var isUrgent: Bool { !crossedSteps.isEmpty || pauseChange }
    }

    /// This cycle's steps, after thinning to fit the per-cycle limit.
    private(set) var steps: [Int] = []
    /// The highest step already sent (or passed when the start was sent).
    private var stepReached: Int?
    /// Nil until the start went out (and for a silent cycle).
    private var sent: Sent?
    /// The temperature last sent, or first seen when the start had none.
    private var temperatureBaseline: Double?
    private var lastLiveCallAt: Date?
    /// The last `quiet` or `progress` call.
    private var lastUpdateAt: Date?
    /// When news held back by `settle_seconds` or `min_update_seconds` may go out.
    private var pendingAt: Date?
    /// When a heartbeat was last held back: the next is due a heartbeat after it.
    private var heartbeatHeldAt: Date?
    /// The last held-back call, so that the same one is reported once, not on every observation.
    private var lastHeldBack: String?
    /// True once this cycle has no Live Activity any more, or never had one: it was
    /// ended early (a clear asked for, `live_activity` switched off) or `live_activity`
    /// was off at the start. Optional, so that snapshots saved before it still decode.
    private var activityEnded: Bool?
    /// The activity the phone shows and when it is replaced (iOS ends it after 8 hours);
    /// nil without one, and in snapshots saved before replacements existed.
    private var renewal: ActivityRenewal?
    /// The cycle's anomaly notes so far and its progress stall (docs/PUSHES.md, "Anomalies");
    /// optional, so that snapshots saved before it still decode.
    private var anomalies: AnomalyWatch?
    /// An anomaly note's alert nobody could get at its moment, for the tracker to hold (`takeAlert`).
    private var alert: HeldNotice?

    /// The steps that `settings` keep for a cycle.
    static func plannedSteps(_ settings: ApplianceSettings) -> (kept: [Int], dropped: [Int]) {
        settings.steps.thinned(toFit: max(0, settings.cyclePushLimit - 3))
    }

    // MARK: Events

    /// A cycle began: the start call, or nothing at all when the daily budget has no
    /// room for it (the cycle is then silent). `budget` already counts the cycle as open.
    /// `now`: when the start was seen, if later than the cycle's start (a smart plug's).
    /// `activitySince`: when a delayed start's wait put the activity on the lock screen; the
    /// start then updates that activity, and goes out even when the day's budget is spent.
    mutating func start(_ cycle: inout CycleInfo, view: CycleView, at now: Date? = nil, settings: ApplianceSettings,
                        budget: inout DailyBudget, audience: Audience = Audience(),
                        activitySince: Date? = nil) -> [TrackerEffect] {
        self = PushPlanner()
        steps = PushPlanner.plannedSteps(settings).kept
        anomalies = AnomalyWatch()
        anomalies?.see(view, estimated: false, at: max(now ?? cycle.startedAt, cycle.startedAt))
        let at = max(now ?? cycle.startedAt, cycle.startedAt)
        guard settings.liveActivity else {
            activityEnded = true
            return []
        }
        let plan = audience.livePlan(settings.notifyStart ? .start : .quiet, settings: settings, at: at,
                                     triggered: cycle.delayedStart != true)
        let kind: CallKind = if case .one(let one) = plan { one } else { .start }
        guard budget.allows(kind, asStart: true) || activitySince != nil else {
            cycle.silent = true
            return [.heldBack(kind: kind, at: at, reason: "start")]
        }
        let message = SupernotifyBody.startMessage(program: view.program, settings: settings)
        let calls = PushPlanner.liveCalls(plan, alerting: .start, message: message, quietMessage: message, view: view,
                                          cycle: cycle, settings: settings, at: at, reason: "start")
        // The start's message doesn't say "Paused": a cycle first seen paused gets that update after settling.
        record(view: view, pause: .running, at: at)
        lastUpdateAt = activitySince == nil ? nil : at
        if view.pause != .running { pendingAt = at.addingTimeInterval(settings.settleSeconds) }
        cycle.calls += calls.count
        for _ in calls { budget.spend() }
        renewal = ActivityRenewal(activityStartedAt: activitySince ?? at, window: audience.window(settings),
                                  clock: audience.delivery.clock)
        return calls.map(TrackerEffect.call)
    }

    /// The running cycle's view may have changed, or time passed (`now`): sends the
    /// latest state when something is news and timing and budgets allow; an anomaly note
    /// due (`context`: what the tracker knows beside the view) goes in its place.
    mutating func update(_ cycle: inout CycleInfo, view: CycleView, at now: Date, settings: ApplianceSettings,
                         budget: inout DailyBudget, audience: Audience = Audience(),
                         context: AnomalyWatch.Context = AnomalyWatch.Context()) -> [TrackerEffect] {
        pendingAt = nil
        var watch = anomalies ?? AnomalyWatch()
        watch.see(view, estimated: cycle.progressEstimated == true, at: now)
        anomalies = watch
        guard !cycle.silent, sent != nil, activityEnded != true, view.available else { return [] }
        if temperatureBaseline == nil { temperatureBaseline = view.temperature }
        // A snapshot saved before replacements existed: the activity started with the cycle.
        if renewal == nil { renewal = ActivityRenewal(activityStartedAt: cycle.startedAt, window: nil, clock: .utc) }
        renewal?.plan(window: audience.window(settings), clock: audience.delivery.clock)
        if let renewal, !renewal.givenUp, now >= renewal.dueAt {
            return renew(&cycle, view: view, at: now, settings: settings, budget: &budget, audience: audience)
        }
        if settings.anomalyNotes,
           let note = watch.due(view: view, cycle: cycle, context: context, at: now, texts: settings.texts, name: settings.name) {
            return sendNote(note, &cycle, view: view, at: now, settings: settings, budget: &budget, audience: audience)
        }
        let news = self.news(view: view, at: now, settings: settings)
        if news.isEmpty { return [] }

        let crossedTens = news.crossedSteps.filter { $0 % 10 == 0 && (10...90).contains($0) }
        let reason = PushPlanner.reason(news, view: view)
        let free = max(0, settings.cyclePushLimit - 2 - cycle.calls)
        var plan = audience.livePlan(settings.notifyProgress && !crossedTens.isEmpty ? .progress : .quiet,
                                     settings: settings, at: now, triggered: false)
        // Two calls need two slots; with one the step goes out quietly to everyone.
        if case .split = plan, free < 2 { plan = .one(.quiet) }
        let kind: CallKind = if case .one(let one) = plan { one } else { .progress }

        let stepsAhead = view.progress == nil ? 0 : steps.filter { $0 > (stepReached ?? Int.min) }.count
        let reserve = renewal?.needsReserve(finishTime: view.finishTime, at: now) == true ? ActivityRenewal.calls : 0
        guard news.isUrgent ? free >= 1 : free > stepsAhead + reserve else {
            return holdBack(kind: kind, at: now, reason: reason, heartbeat: news.heartbeat)
        }
        var earliest = (renewal?.activityStartedAt ?? cycle.startedAt).addingTimeInterval(settings.settleSeconds)
        if let lastUpdateAt { earliest = max(earliest, lastUpdateAt.addingTimeInterval(settings.minUpdateSeconds)) }
        if now < earliest {
            pendingAt = earliest
            return []
        }
        guard budget.allows(kind) else {
            return holdBack(kind: kind, at: now, reason: reason, heartbeat: news.heartbeat)
        }

        let message = crossedTens.max().map { SupernotifyBody.percentMessage($0, settings: settings) }
        let quietMessage = SupernotifyBody.quietMessage(view: view, settings: settings)
        let calls = PushPlanner.liveCalls(plan, alerting: .progress, message: message ?? quietMessage,
                                          quietMessage: quietMessage, view: view, cycle: cycle, settings: settings,
                                          at: now, reason: reason)
        record(view: view, pause: view.pause, at: now)
        lastUpdateAt = now
        cycle.calls += calls.count
        for _ in calls { budget.spend() }
        return calls.map(TrackerEffect.call)
    }

    /// An anomaly note, in the place of the update it was due with: alerting (a `progress`
    /// call to whoever may be alerted now, quiet to the others) or, for `late`, quiet. When
    /// nobody may be alerted now, it goes out quietly and its alert waits (`takeAlert`). Said
    /// once per cycle per kind, also when a budget refuses it.
    private mutating func sendNote(_ note: AnomalyWatch.Note, _ cycle: inout CycleInfo, view: CycleView, at now: Date,
                                   settings: ApplianceSettings, budget: inout DailyBudget,
                                   audience: Audience) -> [TrackerEffect] {
        let free = max(0, settings.cyclePushLimit - 2 - cycle.calls)
        var plan = note.kind.alerts ? audience.notePlan(settings: settings, at: now) : .one(.quiet)
        if case .split = plan, free < 2 { plan = .one(.quiet) }
        let kind: CallKind = if case .one(let one) = plan { one } else { .progress }
        let waits = note.kind.alerts && kind == .quiet && audience.alertMayWait(settings)
        var earliest = cycle.startedAt.addingTimeInterval(settings.settleSeconds)
        if let lastUpdateAt { earliest = max(earliest, lastUpdateAt.addingTimeInterval(settings.minUpdateSeconds)) }
        if now < earliest {
            pendingAt = earliest
            return []
        }
        anomalies?.mark(note.kind)
        guard free >= 1, budget.allows(kind) else {
            return holdBack(kind: kind, at: now, reason: note.reason, heartbeat: false)
        }
        let calls = PushPlanner.liveCalls(plan, alerting: .progress, message: note.message, quietMessage: note.message,
                                          view: view, cycle: cycle, settings: settings, at: now, reason: note.reason)
        if waits { alert = HeldNotice(alert: note, view: view, cycle: cycle, at: now) }
        record(view: view, pause: view.pause, at: now)
        lastUpdateAt = now
        cycle.calls += calls.count
        for _ in calls { budget.spend() }
        return calls.map(TrackerEffect.call)
    }

    /// The live calls of one moment: one of `plan`'s kind to the appliance's target, or
    /// the `alerting` kind to some targets and a quiet call to the others.
    private static func liveCalls(_ plan: Audience.LivePlan, alerting: CallKind, message: String, quietMessage: String,
                                  view: CycleView, cycle: CycleInfo, settings: ApplianceSettings, at: Date,
                                  reason: String) -> [SupernotifyCall] {
        func call(_ kind: CallKind, target: [String]?) -> SupernotifyCall {
            var addressed = settings
            if let target { addressed.target = target }
            let body = SupernotifyBody.live(kind: kind, message: kind == .quiet ? quietMessage : message, view: view,
                                            cycle: cycle, settings: addressed)
            return SupernotifyCall(kind: kind, at: at, body: body, reason: reason)
        }
        switch plan {
        case .one(let kind): return [call(kind, target: nil)]
        case .split(let loud, let quiet): return [call(alerting, target: loud), call(.quiet, target: quiet)]
        }
    }

    /// The cycle ended: its clear, always (unless silent), then the end notification
    /// for a finished cycle when `notify_end` is on and the day has budget left. With quiet
    /// hours or people (`audience`), the end is returned as a notice for the tracker to
    /// deliver, now or when it may.
    mutating func end(_ cycle: inout CycleInfo, at: Date, outcome: CycleOutcome, settings: ApplianceSettings,
                      budget: inout DailyBudget, audience: Audience = Audience())
        -> (effects: [TrackerEffect], notice: HeldNotice?) {
        defer { self = PushPlanner() }
        guard !cycle.silent else { return ([], nil) }
        var effects: [TrackerEffect] = []
        if hasActivity(cycle) {
            let clear = SupernotifyBody.clear(outcome: outcome, settings: settings,
                                              quietly: audience.clearsQuietly(settings, at: at))
            effects.append(.call(SupernotifyCall(kind: .clear, at: at, body: clear, reason: "clear: \(outcome.rawValue)")))
            cycle.calls += 1
            budget.spend()
        }
        guard outcome == .finished, settings.notifyEnd else { return (effects, nil) }
        let reason = "end: \(outcome.rawValue)"
        if audience.applies(to: settings) {
            return (effects, HeldNotice(kind: .end, reason: reason, dueAt: at, endedAt: at, cycle: cycle, program: cycle.program))
        }
        guard budget.allows(.end) else {
            effects.append(.heldBack(kind: .end, at: at, reason: reason))
            return (effects, nil)
        }
        let body = SupernotifyBody.end(cycle: cycle, at: at, settings: settings)
        effects.append(.call(SupernotifyCall(kind: .end, at: at, body: body, reason: reason)))
        cycle.calls += 1
        budget.spend()
        return (effects, nil)
    }

    /// When `update` would next do something without a new observation: a
    /// coalesced update falling due, a heartbeat, or an anomaly note.
    func deadline(cycle: CycleInfo, view: CycleView, settings: ApplianceSettings,
                  context: AnomalyWatch.Context = AnomalyWatch.Context()) -> Date? {
        guard hasActivity(cycle), view.available else { return nil }
        if let pendingAt { return pendingAt }
        let note = settings.anomalyNotes ? anomalies?.deadline(cycle: cycle, view: view, context: context) : nil
        return [heartbeatDue(settings: settings), note].compactMap(\.self).min()
    }

    /// When the cycle's Live Activity is replaced by a fresh one (see `ActivityRenewal`).
    func renewalDeadline(cycle: CycleInfo, view: CycleView) -> Date? {
        guard hasActivity(cycle), view.available, let renewal, !renewal.givenUp else { return nil }
        return renewal.dueAt
    }

    /// Replaces the Live Activity with a fresh one showing `view`: the clear of the old one
    /// and a quiet start of the new, both with an empty alert, when the cycle has two calls
    /// free and the day allows a quiet call; else held back once, and the activity is left to
    /// end (docs/PUSHES.md, "Cycles longer than a Live Activity").
    private mutating func renew(_ cycle: inout CycleInfo, view: CycleView, at now: Date, settings: ApplianceSettings,
                                budget: inout DailyBudget, audience: Audience) -> [TrackerEffect] {
        let count = (renewal?.count ?? 0) + 1
        let free = max(0, settings.cyclePushLimit - 2 - cycle.calls)
        guard free >= ActivityRenewal.calls, budget.allows(.quiet) else {
            renewal?.givenUp = true
            return holdBack(kind: .quiet, at: now, reason: "replace", heartbeat: false)
        }
        let clear = SupernotifyCall(kind: .clear, at: now, body: ActivityRenewal.clearBody(settings: settings),
                                    reason: "clear: replace")
        let start = SupernotifyCall(kind: .quiet, at: now,
                                    body: ActivityRenewal.startBody(view: view, cycle: cycle, settings: settings),
                                    reason: "replace")
        record(view: view, pause: view.pause, at: now)
        lastUpdateAt = now
        pendingAt = nil
        var next = ActivityRenewal(activityStartedAt: now, window: audience.window(settings), clock: audience.delivery.clock)
        next.count = count
        renewal = next
        cycle.calls += ActivityRenewal.calls
        budget.spend()
        budget.spend()
        return [.call(clear), .call(start)]
    }

    /// The anomaly alert that waits for quiet hours to end or someone to come home, once.
    mutating func takeAlert() -> HeldNotice? {
        defer { alert = nil }
        return alert
    }

    /// Whether the cycle shows a Live Activity now: its start went out and it was not ended early.
    func hasActivity(_ cycle: CycleInfo) -> Bool {
        !cycle.silent && sent != nil && activityEnded != true
    }

    /// Ends the cycle's Live Activity before the cycle ends: one clear, always sent (as
    /// the end's clear is); the cycle runs on without live calls, and its end sends no
    /// second clear. Nothing when there is no activity.
    mutating func endActivity(_ cycle: inout CycleInfo, at: Date, reason: String, settings: ApplianceSettings,
                              budget: inout DailyBudget) -> [TrackerEffect] {
        guard hasActivity(cycle) else { return [] }
        activityEnded = true
        pendingAt = nil
        cycle.calls += 1
        budget.spend()
        let body = SupernotifyBody.clearNow(settings: settings)
        return [.call(SupernotifyCall(kind: .clear, at: at, body: body, reason: reason))]
    }

    /// The settings changed during the cycle: its steps are planned again from them, and
    /// the steps at or below the progress last sent count as reached, so that the next
    /// call is the first new step above it.
    mutating func retune(_ settings: ApplianceSettings) {
        steps = PushPlanner.plannedSteps(settings).kept
        guard let progress = sent?.progress else { return }
        stepReached = steps.filter { $0 <= progress }.max() ?? stepReached
    }

    // MARK: Deciding

    private func heartbeatDue(settings: ApplianceSettings) -> Date? {
        guard let sent, sent.finishTime == nil, let lastLiveCallAt else { return nil }
        let from = max(lastLiveCallAt, heartbeatHeldAt ?? lastLiveCallAt)
        return from.addingTimeInterval(settings.heartbeatMinutes * 60)
    }

    private func news(view: CycleView, at now: Date, settings: ApplianceSettings) -> News {
        guard let sent else { return News() }
        var news = News()
        if let progress = view.progress {
            news.crossedSteps = steps.filter { $0 <= progress && $0 > (stepReached ?? Int.min) }
        }
        news.pauseChange = view.pause != sent.pause
        // While paused HA keeps pushing the finish time later: not news; the resume brings it.
        if view.pause == .running {
            switch (view.finishTime, sent.finishTime) {
            case (nil, nil): break
            case (let now?, let last?): news.finishTime = abs(now.timeIntervalSince(last)) >= settings.finishJitterSeconds
            default: news.finishTime = true
            }
        }
        if let program = view.program { news.program = program != sent.program }
        if let temperature = view.temperature, let baseline = temperatureBaseline {
            news.temperature = abs(temperature - baseline) >= settings.temperatureStep
        }
        if let due = heartbeatDue(settings: settings) { news.heartbeat = now >= due }
        return news
    }

    private static func reason(_ news: News, view: CycleView) -> String {
        if let step = news.crossedSteps.max() { return "step \(step)" }
        if news.pauseChange {
            switch view.pause {
            case .paused: return "pause"
            case .actionRequired: return "action required"
            case .error: return "error"
            case .running: return "resume"
            }
        }
        if news.finishTime { return "finish time" }
        if news.program { return "program" }
        if news.temperature { return "temperature" }
        return "heartbeat"
    }

    private mutating func holdBack(kind: CallKind, at: Date, reason: String, heartbeat: Bool) -> [TrackerEffect] {
        if heartbeat { heartbeatHeldAt = at }
        let key = "\(kind.rawValue) \(reason)"
        guard key != lastHeldBack else { return [] }
        lastHeldBack = key
        return [.heldBack(kind: kind, at: at, reason: reason)]
    }

    /// Remembers what a live call showed.
    private mutating func record(view: CycleView, pause: PauseState, at: Date) {
        sent = Sent(
            progress: view.progress,
            finishTime: view.pause == .running ? view.finishTime : nil,
            pause: pause,
            program: view.program ?? sent?.program
        )
        if let progress = view.progress, let reached = steps.filter({ $0 <= progress }).max() {
            stepReached = max(stepReached ?? reached, reached)
        }
        if let temperature = view.temperature { temperatureBaseline = temperature }
        lastLiveCallAt = at
        heartbeatHeldAt = nil
        lastHeldBack = nil
    }
}
