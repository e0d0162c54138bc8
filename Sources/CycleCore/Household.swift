import FoundationEssentials

/// Every appliance cycletrack follows, with the one daily budget they share and the
/// one clock of deadlines they wake for (docs/CYCLES.md, "The household";
/// docs/PUSHES.md, "Budget"). `run`, `replay`, `demo` and the benchmark all drive it
/// the same way: an event in, the steps out, no I/O and no clock.
///
/// A value: the runner works on a copy and keeps it only when everything the copy
/// decided was recorded, so a failed store write leaves the household where it was and
/// the same transition happens again at the next event.
public struct Household: Sendable {
    /// What one appliance's tracker decided on one event.
    public struct Step: Sendable {
        public var applianceID: String
        /// The observation handled; nil for a tick.
        public var observation: Observation?
        public var effects: [TrackerEffect]
        /// The open cycle after the step.
        public var cycle: CycleInfo?
        /// The cycle this step ended, with its final values; nil when none ended.
        public var ended: CycleInfo?
    }

    private struct Member: Sendable {
        var tracker: ApplianceTracker
    }

    /// `daily_push_limit`: calls per UTC day over all appliances.
    public let dailyLimit: Int
    private var members: [String: Member] = [:]
    /// Appliance ids in the order they were added: the order steps come out in.
    public private(set) var order: [String] = []
    /// Calls counted in `countedDay` (a UTC day number).
    private var countedDay: Int?
    private var countedCalls = 0
    /// Quiet hours and the people (docs/PUSHES.md, "Quiet hours", "Presence").
    public var delivery: DeliverySettings
    /// Each followed person's last state (`home`, `not_home`, a zone), by entity.
    public private(set) var presence: [String: String] = [:]
    /// Each washer's dryer, by the washer's id (`LaundryLink`).
    public private(set) var dryers: [String: String] = [:]

    /// An empty household.
    /// - Parameters:
    ///   - dailyLimit: calls per UTC day, all appliances together.
    ///   - callsToday: calls already made on the UTC day of `at` (after a restart,
    ///     what the store counted); nil for none.
    ///   - delivery: quiet hours and people; none by default.
    public init(dailyLimit: Int, callsToday: (count: Int, at: Date)? = nil, delivery: DeliverySettings = DeliverySettings()) {
        self.dailyLimit = dailyLimit
        self.delivery = delivery
        if let callsToday {
            countedDay = UTCDay.number(of: callsToday.at)
            countedCalls = callsToday.count
        }
    }

    // MARK: Members

    /// Follows an appliance, fresh or carrying on from what was saved. Following one
    /// again replaces its settings and keeps its tracker's state.
    /// - Parameter history: how the appliance's past finish estimates turned out, as the
    ///   store has it (docs/PUSHES.md, "Finish-time correction"); nil keeps what the
    ///   household has (none for a new appliance). Cycles that finish later are added by
    ///   the household itself.
    public mutating func follow(_ settings: ApplianceSettings, restoring saved: ApplianceTracker.Snapshot? = nil,
                                history: FinishHistory? = nil) {
        if var member = members[settings.id] {
            let known = member.tracker.history
            member.tracker = ApplianceTracker(settings: settings, restoring: member.tracker.snapshot)
            member.tracker.history = history ?? known
            members[settings.id] = member
            relink()
            return
        }
        var tracker = saved.map { ApplianceTracker(settings: settings, restoring: $0) }
            ?? ApplianceTracker(settings: settings)
        if let history { tracker.history = history }
        members[settings.id] = Member(tracker: tracker)
        order.append(settings.id)
        relink()
    }

    /// Links each washer to its dryer again, from every appliance's `dryer` setting and kind
    /// (`LaundryLink`), and tells each appliance the name of its dryer.
    private mutating func relink() {
        dryers = LaundryLink.links(order.compactMap { members[$0]?.tracker.settings })
        let names = members.mapValues(\.tracker.settings.name)
        for id in order { members[id]?.tracker.settings.linkedDryer = dryers[id].flatMap { names[$0] } }
    }

    /// After `step`: when it started a dryer's cycle, each washer linked to it was emptied
    /// (`ApplianceTracker.laundryMoved`); one step for each washer whose reminder stopped.
    private mutating func emptied(by step: Step) -> [Step] {
        guard let at = step.effects.lazy.compactMap({ if case .cycleStarted(let at, _) = $0 { at } else { nil } }).first
        else { return [] }
        var steps: [Step] = []
        for id in order where dryers[id] == step.applianceID {
            guard var member = members[id], let effects = member.tracker.laundryMoved(at: at, budget: budget(at: at))
            else { continue }
            members[id] = member
            steps.append(self.step(id, observation: nil, effects: effects))
        }
        return steps
    }

    /// Whether the appliance is followed.
    public func follows(_ applianceID: String) -> Bool { members[applianceID] != nil }

    /// The appliance's tracker.
    public func tracker(_ applianceID: String) -> ApplianceTracker? { members[applianceID]?.tracker }

    /// What to save for the appliance so that a restart carries on.
    public func saved(_ applianceID: String) -> ApplianceTracker.Snapshot? {
        members[applianceID]?.tracker.snapshot
    }

    /// Appliances with an open cycle.
    public var openCycles: Int { members.values.filter { $0.tracker.cycle != nil }.count }

    // MARK: Time and budget

    /// The earliest moment a tick would do something for any appliance (an unload
    /// reminder included).
    public var nextDeadline: Date? {
        members.values.compactMap(\.tracker.nextDeadline?.at).min()
    }

    /// Calls counted on the UTC day of `date` (zero on a later day).
    public func callsCounted(on date: Date) -> Int {
        countedDay == UTCDay.number(of: date) ? countedCalls : 0
    }

    /// The daily budget as it stands at `date`.
    public func budget(at date: Date) -> DailyBudget {
        DailyBudget(limit: dailyLimit, usedToday: callsCounted(on: date), openCycles: openCycles,
                    waitingEnds: members.values.filter(\.tracker.holdsEnd).count)
    }

    /// What the trackers are handed about the people with each event: the settings and who is home.
    public var audience: Audience {
        Audience(delivery: delivery, home: Set(presence.filter { $0.value == "home" }.keys))
    }

    // MARK: Events

    /// Handles one event: for an observation, every deadline before it fires first (as
    /// ticks at their due times), then the observation; for a tick, every deadline up
    /// to and including it, earliest first across appliances.
    public mutating func handle(_ event: HouseholdEvent) -> [Step] {
        switch event {
        case .observed(let applianceID, let observation):
            var steps = fireDeadlines(before: observation.at, inclusive: false)
            steps += see(observation.people, at: observation.at)
            steps += observe(applianceID, observation)
            return steps
        case .people(let states, let at):
            return fireDeadlines(before: at, inclusive: false) + see(states, at: at)
        case .polled(let observations):
            guard let at = observations.first?.observation.at else { return [] }
            var steps = fireDeadlines(before: at, inclusive: false)
            for (applianceID, observation) in observations { steps += observe(applianceID, observation) }
            return steps
        case .tick(let now):
            return fireDeadlines(before: now, inclusive: true)
        case .retuned(let applianceID, let settings, let at):
            let steps = command(applianceID, at: at) { tracker, budget in tracker.retune(settings, at: at, budget: budget) }
            relink()
            return steps
        case .endActivity(let applianceID, let at):
            return command(applianceID, at: at) { tracker, budget in tracker.endActivity(at: at, budget: budget) }
        case .unloaded(let applianceID, let at):
            return command(applianceID, at: at) { tracker, budget in tracker.unloaded(at: at, budget: budget) }
        case .redelivered(let settings, let at):
            let steps = fireDeadlines(before: at, inclusive: false)
            delivery = settings
            return steps + reconsiderAll(at: at)
        }
    }

    /// A command for one appliance at `at`: every deadline before it fires first, then
    /// the command, as one step (also when it decided nothing, so the caller sees it).
    private mutating func command(_ applianceID: String, at: Date,
                                  _ apply: (inout ApplianceTracker, DailyBudget) -> [TrackerEffect]) -> [Step] {
        var steps = fireDeadlines(before: at, inclusive: false)
        guard var member = members[applianceID] else { return steps }
        let effects = apply(&member.tracker, budget(at: at))
        members[applianceID] = member
        steps.append(step(applianceID, observation: nil, effects: effects))
        return steps
    }

    /// Takes the people's states; when someone's changed, every waiting notice is tried again.
    private mutating func see(_ states: [String: String], at: Date) -> [Step] {
        var changed = false
        for (entity, state) in states where presence[entity] != state {
            presence[entity] = state
            changed = true
        }
        guard changed else { return [] }
        return reconsiderAll(at: at)
    }

    /// Every waiting notice tried again at `at`: who is home, or the settings, changed.
    private mutating func reconsiderAll(at: Date) -> [Step] {
        var steps: [Step] = []
        for id in order {
            guard var member = members[id] else { continue }
            let effects = member.tracker.reconsider(at: at, budget: budget(at: at), audience: audience)
            members[id] = member
            if !effects.isEmpty { steps.append(step(id, observation: nil, effects: effects)) }
        }
        return steps
    }

    /// The appliance's step, then those of the washers a dryer's start emptied.
    private mutating func observe(_ applianceID: String, _ observation: Observation) -> [Step] {
        guard var member = members[applianceID] else { return [] }
        let effects = member.tracker.observe(observation, budget: budget(at: observation.at), audience: audience)
        members[applianceID] = member
        let observed = step(applianceID, observation: observation, effects: effects)
        return [observed] + emptied(by: observed)
    }

    /// Each due deadline gets its own tick at its own time, so that a call counts
    /// against the budget of the day it falls in.
    private mutating func fireDeadlines(before limit: Date, inclusive: Bool) -> [Step] {
        var steps: [Step] = []
        while let (applianceID, due) = earliestDeadline(), inclusive ? due <= limit : due < limit {
            guard var member = members[applianceID] else { break }
            let effects = member.tracker.advance(to: due, budget: budget(at: due), audience: audience)
            members[applianceID] = member
            let fired = step(applianceID, observation: nil, effects: effects)
            steps += [fired] + emptied(by: fired)
            // Every firing moves the deadline on; stop rather than spin should that break.
            if let next = member.tracker.nextDeadline?.at, next <= due { break }
        }
        return steps
    }

    private func earliestDeadline() -> (String, Date)? {
        var earliest: (String, Date)?
        for id in order {
            guard let due = members[id]?.tracker.nextDeadline?.at else { continue }
            if earliest.map({ due < $0.1 }) ?? true { earliest = (id, due) }
        }
        return earliest
    }

    /// Counts the step's calls into the day each falls in, and describes it.
    private mutating func step(_ applianceID: String, observation: Observation?, effects: [TrackerEffect]) -> Step {
        var ended: CycleInfo?
        for effect in effects {
            switch effect {
            case .call(let call):
                let day = UTCDay.number(of: call.at)
                if countedDay != day {
                    countedDay = day
                    countedCalls = 0
                }
                countedCalls += 1
            case .cycleEnded:
                ended = members[applianceID]?.tracker.lastEndedCycle
            case .cycleStarted, .heldBack, .waiting, .warning, .unloaded:
                break
            }
        }
        return Step(applianceID: applianceID, observation: observation, effects: effects,
                    cycle: members[applianceID]?.tracker.cycle, ended: ended)
    }
}

/// What reaches the household.
public enum HouseholdEvent: Sendable {
    /// One appliance's observation.
    case observed(String, Observation)
    /// One poll: every appliance's observation at the same moment, in order.
    case polled([(applianceID: String, observation: Observation)])
    /// The passing of time.
    case tick(Date)
    /// One appliance's settings changed at `at` (the local API): the open cycle goes on
    /// with them (`ApplianceTracker.retune`).
    case retuned(String, ApplianceSettings, at: Date)
    /// End one appliance's Live Activity now, with a clear (the local API).
    case endActivity(String, at: Date)
    /// One appliance was unloaded (its *Unloaded* button, or the local API): its unload
    /// reminders stop.
    case unloaded(String, at: Date)
    /// The followed people's states at one moment (`home`, `not_home`, a zone), by `person.*` entity.
    case people([String: String], at: Date)
    /// Quiet hours or the people's settings changed at `at` (the local API): every waiting
    /// notice is tried again with them (it may go out now, or wait for another moment).
    case redelivered(DeliverySettings, at: Date)
}

/// UTC days as whole numbers: the daily budget's unit. Unix time has no leap seconds,
/// so a UTC day is exactly 86,400 of its seconds.
public enum UTCDay {
    /// The day's number since 1970-01-01.
    public static func number(of date: Date) -> Int {
        NumberText.int(date.timeIntervalSince1970 / 86_400, .down) ?? 0
    }

    /// The first moment of the day `date` falls in.
    public static func start(of date: Date) -> Date {
        Date(timeIntervalSince1970: Double(number(of: date)) * 86_400)
    }
}
