import FoundationEssentials

/// Follows one appliance: takes its observations and the passing of time, and says
/// which cycles begin and end and which Supernotify calls to make. `cycletrack run`
/// and `cycletrack replay` both drive it; it performs no I/O and reads no clock.
public struct ApplianceTracker: Sendable {
    /// The appliance's settings, as given at creation or restore.
    public internal(set) var settings: ApplianceSettings
    var machine = CycleMachine()
    var planner = PushPlanner()
    var reminder: UnloadReminder?
    /// A finished cycle waits to be unloaded: from its end behind a closed door (or none
    /// reported) until the door opens, *Unloaded* is said, the linked dryer starts or a
    /// new cycle does; with or without reminders (docs/PUSHES.md, "Unload reminder").
    public internal(set) var awaitsUnloading = false
    private var doorClosed: Bool?
    /// The last error event the reason entity showed (`ErrorEvent`).
    private var errorEvent: ErrorEvent?
    private var power = PowerCycleDetector()
    var held: HeldNotice?
    /// A delayed start's wait while idle in `delayedstart` (ApplianceTracker+DelayedStart.swift).
    var waiting: DelayedStart?
    /// How the finish estimates of past cycles turned out; each cycle that finishes is added.
    public internal(set) var history = FinishHistory()
    /// The cycle that ended last, with its final values (energy, calls), for the store.
    public private(set) var lastEndedCycle: CycleInfo?

    /// A tracker with no open cycle.
    public init(settings: ApplianceSettings) {
        self.settings = settings
    }

    /// A tracker carrying on from `snapshot`. `settings` may have changed since; the
    /// open cycle keeps the steps it was planned with.
    public init(settings: ApplianceSettings, restoring snapshot: Snapshot) {
        self.settings = settings
        machine = snapshot.machine
        planner = snapshot.planner
        reminder = snapshot.reminder
        awaitsUnloading = snapshot.awaitsUnloading ?? false
        doorClosed = snapshot.doorClosed
        errorEvent = snapshot.errorEvent
        power = snapshot.power ?? PowerCycleDetector()
        held = snapshot.held
        waiting = snapshot.waiting
    }

    /// The state to store so that a restarted service carries on where this one was.
    public var snapshot: Snapshot {
        Snapshot(machine: machine, planner: planner, reminder: reminder, doorClosed: doorClosed,
                 power: settings.profile == .plug ? power : nil, held: held, waiting: waiting, errorEvent: errorEvent,
                 awaitsUnloading: awaitsUnloading ? true : nil)
    }

    /// The open cycle, if any.
    public var cycle: CycleInfo? { machine.cycle }

    /// What the appliance shows now, for entities and pages outside the core.
    public var status: ApplianceStatus {
        guard machine.cycle != nil, let view = machine.view else { return ApplianceStatus(phase: .idle) }
        let phase: ApplianceStatus.Phase = if !view.available {
            .unavailable
        } else {
            switch view.pause {
            case .running: .running
            case .paused: .paused
            case .actionRequired, .error: .actionRequired
            }
        }
        return ApplianceStatus(phase: phase, progress: view.progress, finishTime: view.finishTime, program: view.program)
    }

    /// The earliest time a tick would do something, and what would: a waiting notice, an
    /// unload reminder, a smart plug's confirmation, the lost timeout, the Live Activity's
    /// replacement, or a coalesced update or heartbeat. Where two fall at the same moment,
    /// the first of that order fires first.
    public var nextDeadline: Deadline? {
        let plug = plugDeadline
        let lost = machine.lostDeadline(after: settings.lostAfterMinutes)
        let update = machine.cycle.flatMap { cycle in
            machine.view.flatMap { planner.deadline(cycle: cycle, view: $0, settings: settings, context: anomalyContext) }
        }
        let renewal = machine.cycle.flatMap { cycle in machine.view.flatMap { planner.renewalDeadline(cycle: cycle, view: $0) } }
        let wait = machine.cycle == nil ? waitDeadline : nil
        // While a notice waits, the reminders wait behind it.
        let notice = held == nil ? reminder?.due : held?.next
        guard let due = [notice, plug, lost, renewal, wait, update].compactMap(\.self).min() else { return nil }
        let source: Deadline.Source = if held?.next == due {
            .heldNotice
        } else if reminder?.due == due {
            .reminder
        } else if plug == due {
            .plug
        } else if lost == due {
            .lost
        } else if renewal == due {
            .renewal
        } else if wait == due {
            .delayedStart
        } else {
            .update
        }
        return Deadline(source: source, at: due)
    }

    /// Whether an end notification waits (its call stays reserved in the daily budget).
    public var holdsEnd: Bool { held?.kind == .end }

    /// Steps thinned away so that the tuning fits the per-cycle limit.
    public var droppedSteps: [Int] { PushPlanner.plannedSteps(settings).dropped }

    /// Fires every deadline strictly before `observation.at` (as ticks), then handles
    /// the observation. Calls emitted count against `budget` as they go; `audience` is
    /// quiet hours, the people and who is home, as the household has them now.
    public mutating func observe(_ observation: Observation, budget: DailyBudget,
                                 audience: Audience = Audience()) -> [TrackerEffect] {
        var budget = budget
        var effects = fireDeadlines(through: observation.at, inclusive: false, audience: audience, budget: &budget)
        var observation = observation.reading(as: settings.profile)
        var transitionAt: Date?
        if settings.profile == .plug {
            let wasRunning = power.running
            observation = power.read(observation, plugContext)
            if power.running != wasRunning { transitionAt = power.transitionAt }
        }
        if let event = observation.errorEvent { errorEvent = event }
        if let closed = UnloadReminder.isClosed(observation.door) {
            doorClosed = closed
            if !closed {
                reminder = nil
                awaitsUnloading = false
                effects += doorOpened(at: observation.at, budget: &budget)
            }
        }
        if case .unavailable = observation.operation {
            if reminder?.unavailableSince == nil { reminder?.unavailableSince = observation.at }
        } else {
            reminder?.unavailableSince = nil
        }
        effects += take(observation, transitionAt: transitionAt, at: observation.at, audience: audience, budget: &budget)
        return effects
    }

    /// Fires every deadline at or before `now`.
    public mutating func advance(to now: Date, budget: DailyBudget, audience: Audience = Audience()) -> [TrackerEffect] {
        var budget = budget
        return fireDeadlines(through: now, inclusive: true, audience: audience, budget: &budget)
    }

    /// `observe` for an observation, `advance` for a tick.
    public mutating func handle(_ event: TrackerEvent, budget: DailyBudget, audience: Audience = Audience()) -> [TrackerEffect] {
        switch event {
        case .observed(let observation): observe(observation, budget: budget, audience: audience)
        case .tick(let now): advance(to: now, budget: budget, audience: audience)
        }
    }

    /// Someone came home or left: a waiting notice may go out now.
    public mutating func reconsider(at now: Date, budget: DailyBudget, audience: Audience = Audience()) -> [TrackerEffect] {
        var budget = budget
        var effects = fireDeadlines(through: now, inclusive: false, audience: audience, budget: &budget)
        if held != nil { effects += deliverHeld(at: now, audience: audience, budget: &budget) }
        return effects
    }

    // MARK: Waiting notices

    /// Tries the waiting notice at `now`; once it is done or dropped, the reminders carry on
    /// (the next counted from now) or, when it was dropped for waiting too long, stop.
    mutating func deliverHeld(at now: Date, audience: Audience, budget: inout DailyBudget) -> [TrackerEffect] {
        guard var notice = held else { return [] }
        let attempt = attemptHeld(&notice, at: now, audience: audience, budget: &budget)
        guard attempt.outcome != .waiting else {
            held = notice
            return attempt.effects
        }
        finishHeld(budget: &budget)
        if attempt.outcome == .dropped, notice.recipients == nil, !audience.delivery.people.isEmpty {
            reminder = nil
        } else if var waiting = reminder,
                  let interval = UnloadReminder.interval(settings: settings, program: waiting.program) {
            waiting.due = max(waiting.due, now.addingTimeInterval(interval))
            reminder = waiting
        }
        return attempt.effects
    }

    /// Drops the waiting notice, saying why.
    mutating func dropHeld(at now: Date, because why: String, budget: inout DailyBudget) -> [TrackerEffect] {
        guard let notice = held else { return [] }
        finishHeld(budget: &budget)
        return [.waiting(kind: notice.kind, at: now, reason: notice.reason + TrackerEffect.droppedMark + why)]
    }

    private mutating func finishHeld(budget: inout DailyBudget) {
        if held?.kind == .end { budget.waitingEnds = max(0, budget.waitingEnds - 1) }
        held = nil
    }

    /// A reminder falling due with quiet hours or people: it goes out through a notice.
    private mutating func remind(_ waiting: inout UnloadReminder, at due: Date, audience: Audience,
                                 budget: inout DailyBudget) -> [TrackerEffect] {
        if let since = waiting.unavailableSince, due.timeIntervalSince(since) >= settings.lostAfterMinutes * 60 {
            reminder = nil
            return []
        }
        waiting.sent += 1
        let reason = "unload reminder \(waiting.sent)"
        let interval = UnloadReminder.interval(settings: settings, program: waiting.program)
        if waiting.sent <= settings.unloadReminderRepeats, let interval {
            waiting.due = due.addingTimeInterval(interval)
            reminder = waiting
        } else {
            reminder = nil
        }
        held = HeldNotice(kind: .reminder, reason: reason, dueAt: due, endedAt: waiting.endedAt, program: waiting.program)
        let effects = deliverHeld(at: due, audience: audience, budget: &budget)
        // A reminder the daily budget refused ends the reminders, as without quiet hours.
        if effects.contains(where: { if case .heldBack = $0 { true } else { false } }) { reminder = nil }
        return effects
    }

    /// The observation with a progress and a finish time from the learned durations,
    /// where it reports neither (LearnedDurations); the cycle starts at its time when none is open.
    /// `transitionAt`: when a cycle this observation starts really began (a plug's load).
    private func estimated(_ observation: Observation, transitionAt: Date? = nil) -> Observation {
        guard let learned = settings.learned else { return observation }
        let cycle = machine.cycle
        let startedAt = cycle?.startedAt ?? transitionAt ?? observation.at
        return learned.estimating(observation, startedAt: startedAt, program: cycle?.program)
    }

    /// Marks the open cycle's progress as estimated once an estimate was taken into it.
    private mutating func markEstimate(_ observation: Observation, reported: Observation) {
        guard observation.progress != nil, reported.progress == nil, machine.cycle != nil else { return }
        machine.cycle?.progressEstimated = true
    }

    /// What the anomaly notes know beside the cycle's view: how long its program usually takes,
    /// the door, the last error event.
    private var anomalyContext: AnomalyWatch.Context {
        AnomalyWatch.Context(usual: history.usual(machine.cycle?.program), doorOpen: doorClosed == false,
                             errorEvent: errorEvent)
    }

    /// When a smart plug's start or end is confirmed without a new reading (PowerCycleDetector).
    private var plugDeadline: Date? {
        settings.profile == .plug ? power.deadline(plugContext) : nil
    }

    /// How the plug is read: its settings, its kind (from its name) and its longest rest
    /// inside a cycle, learned from its history.
    private var plugContext: PowerCycleDetector.Context {
        PowerCycleDetector.Context(settings: settings.power, kind: PlugKind.of(id: settings.id, name: settings.name),
                                   learnedRest: settings.learned?.longestRest)
    }

    /// What a smart plug learned of itself (nil for an appliance with its own integration).
    public var plugSignature: PlugSignature? { settings.profile == .plug ? power.signature : nil }

    /// Fires each deadline up to `limit`, earliest first, each at its own moment.
    private mutating func fireDeadlines(through limit: Date, inclusive: Bool, audience: Audience,
                                        budget: inout DailyBudget) -> [TrackerEffect] {
        var effects: [TrackerEffect] = []
        while let deadline = nextDeadline, inclusive ? deadline.at <= limit : deadline.at < limit {
            effects += fire(deadline, audience: audience, budget: &budget)
            // Every firing moves the deadline on (a call sent, held back or rescheduled); stop
            // rather than spin should a cycle's deadline ever break that invariant. A notice
            // or a reminder falling at the same moment as the cycle's deadline fired first.
            if deadline.source.isCycleDeadline, let next = nextDeadline, next.at <= deadline.at { break }
        }
        return effects
    }

    private mutating func fire(_ deadline: Deadline, audience: Audience, budget: inout DailyBudget) -> [TrackerEffect] {
        let due = deadline.at
        switch deadline.source {
        case .heldNotice:
            return deliverHeld(at: due, audience: audience, budget: &budget)
        case .reminder:
            guard var waiting = reminder else { return [] }
            // With quiet hours or people, a reminder goes out through a notice.
            if audience.applies(to: settings), held == nil {
                return remind(&waiting, at: due, audience: audience, budget: &budget)
            }
            let fired = waiting.fire(at: due, settings: settings, budget: &budget)
            reminder = fired.keep ? waiting : nil
            return fired.effects
        case .plug:
            guard let confirmed = power.expire(at: due, plugContext) else { return [] }
            return take(confirmed, transitionAt: power.transitionAt, at: due, audience: audience, budget: &budget)
        case .lost:
            // An update due at the same moment as the end is dropped.
            var effects: [TrackerEffect] = []
            for event in machine.expire(at: due, lostAfterMinutes: settings.lostAfterMinutes) {
                effects += perform(event, at: due, audience: audience, budget: &budget)
            }
            return effects
        case .renewal, .update:
            // The planner's update replaces the activity when its moment has come.
            return perform(.changed, at: due, audience: audience, budget: &budget)
        case .delayedStart:
            return showWait(at: due, audience: audience, budget: &budget)
        }
    }

    /// Takes a reading into the cycle machine: estimated from the learned durations where
    /// it reports no progress, its finish corrected by how past estimates turned out
    /// (`finish_correction`), each event the machine sees performed at `at`.
    private mutating func take(_ reading: Observation, transitionAt: Date?, at: Date, audience: Audience,
                               budget: inout DailyBudget) -> [TrackerEffect] {
        let estimate = estimated(reading, transitionAt: transitionAt)
        let history = self.history
        let correction: (String) -> Double? = settings.finishCorrection ? { history.learned($0) } : { _ in nil }
        var effects: [TrackerEffect] = []
        for event in machine.observe(estimate, correction: correction, transitionAt: transitionAt) {
            effects += perform(event, at: at, audience: audience, budget: &budget)
        }
        if machine.cycle == nil { effects += followWait(reading, at: at, audience: audience, budget: &budget) }
        markEstimate(estimate, reported: reading)
        return effects
    }

    private mutating func perform(_ event: CycleMachine.Event, at: Date, audience: Audience,
                                  budget: inout DailyBudget) -> [TrackerEffect] {
        switch event {
        case .warning(let text):
            return [.warning(text)]
        case .started(var cycle):
            reminder = nil
            awaitsUnloading = false
            var effects = dropHeld(at: cycle.startedAt, because: "a new cycle started", budget: &budget)
            budget.openCycles += 1
            effects.append(.cycleStarted(at: cycle.startedAt, program: cycle.program))
            // A wait on the lock screen: the run updates its activity, and its calls count in the cycle.
            let shown = waiting?.shownAt
            cycle.calls += waiting?.calls ?? 0
            waiting = nil
            effects += planner.start(&cycle, view: machine.view ?? CycleView(), at: at, settings: settings, budget: &budget,
                                     audience: audience, activitySince: shown)
            machine.cycle = cycle
            return effects
        case .changed:
            guard var cycle = machine.cycle, let view = machine.view else { return [] }
            let effects = planner.update(&cycle, view: view, at: at, settings: settings, budget: &budget, audience: audience,
                                         context: anomalyContext)
            machine.cycle = cycle
            return effects + holdAlert(at: at, audience: audience, budget: &budget)
        case .ended(var cycle, let endedAt, let outcome):
            if settings.profile == .plug { cycle.longestRestSeconds = power.longestRest }
            let ending = planner.end(&cycle, at: max(at, endedAt), outcome: outcome, settings: settings, budget: &budget,
                                     audience: audience)
            var effects = dropAlert(at: endedAt, because: "the cycle ended", budget: &budget) + ending.effects
            budget.openCycles = max(0, budget.openCycles - 1)
            if let notice = ending.notice {
                held = notice
                budget.waitingEnds += 1
                effects += deliverHeld(at: endedAt, audience: audience, budget: &budget)
            }
            lastEndedCycle = cycle
            effects.append(.cycleEnded(at: endedAt, outcome: outcome))
            if outcome == .finished {
                if let program = cycle.program {
                    if let first = cycle.firstPredictedFinish { history.add(endedAt.timeIntervalSince(first), program: program) }
                    history.addDuration(endedAt.timeIntervalSince(cycle.startedAt), program: program)
                }
                // Behind a closed door, or on an appliance that reports no door (a plug):
                // its *Unloaded* button stops the reminders (`UnloadedAction`).
                if !cycle.silent, doorClosed != false {
                    awaitsUnloading = true
                    if let interval = UnloadReminder.interval(settings: settings, program: cycle.program) {
                        reminder = UnloadReminder(endedAt: endedAt, program: cycle.program, due: endedAt.addingTimeInterval(interval))
                    }
                }
            }
            return effects
        }
    }
}
