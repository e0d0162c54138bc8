import FoundationEssentials

/// One cycle of a replay, with the calls made for it.
public struct ReplayCycle: Sendable, Equatable {
    /// Whose cycle: the replayed appliance, or another a trace of several names.
    public var applianceID: String
    public var startedAt: Date
    public var endedAt: Date?
    public var outcome: CycleOutcome?
    public var program: String?
    public var calls: [SupernotifyCall]
}

/// Everything a replay produced.
public struct ReplayResult: Sendable {
    public var observations: [Observation]
    public var effects: [TrackerEffect]
    public var calls: [SupernotifyCall]
    public var cycles: [ReplayCycle]
    public var warnings: [String]
    /// Steps thinned away so that the tuning fits the per-cycle limit.
    public var droppedSteps: [Int]
}

/// One line of a trace: whose it is (nil: the replayed appliance's) and what it showed.
public struct TraceEntry: Sendable {
    /// The line's number in the file (from 1).
    public var line: Int
    /// `appliance` of the line; nil: the replayed appliance.
    public var appliance: String?
    public var observation: Observation

    public init(line: Int = 0, appliance: String? = nil, observation: Observation) {
        self.line = line
        self.appliance = appliance
        self.observation = observation
    }
}

/// Feeds a recorded trace through the same tracker `run` uses, with ticks made from
/// the trace's own times: deadlines between two lines fire at their due time, and
/// nothing happens after the last line.
public enum Replay {
    /// Replays `lines` (numbered as in the file; blank ones skipped), which must be in
    /// time order. The daily budget is counted per UTC day from the replay's own calls.
    /// `others`: the settings of every other appliance the trace's lines name (`appliance`);
    /// a line naming one not among them is a `TraceError`.
    public static func run(settings: ApplianceSettings, others: [ApplianceSettings] = [], lines: [(number: Int, text: String)],
                           dailyLimit: Int = 400, history: FinishHistory = FinishHistory(),
                           delivery: DeliverySettings = DeliverySettings()) throws(TraceError) -> ReplayResult {
        let trace = try entries(lines: lines)
        let known = Set([settings.id] + others.map(\.id))
        if let stranger = trace.entries.first(where: { $0.appliance.map { !known.contains($0) } ?? false }) {
            let ids = known.sorted().joined(separator: ", ")
            throw TraceError(line: stranger.line, message: "expected an appliance of the replay (\(ids)), found '\(stranger.appliance ?? "")'")
        }
        var result = run(settings: settings, others: others, entries: trace.entries, dailyLimit: dailyLimit, history: history,
                         delivery: delivery)
        result.warnings = trace.warnings + result.warnings
        return result
    }

    /// The replayed appliance's observations of a trace (its lines that name no other
    /// appliance), as `entries` reads them.
    public static func observations(lines: [(number: Int, text: String)]) throws(TraceError) -> (observations: [Observation], warnings: [String]) {
        let trace = try entries(lines: lines)
        return (trace.entries.filter { $0.appliance == nil }.map(\.observation), trace.warnings)
    }

    /// Parses trace lines into observations, checking their time order; roles the
    /// trace names that cycletrack doesn't know become warnings. A unit a line gives
    /// holds for the lines after it, as an entity's unit does in HA.
    /// Each appliance's units are its own.
    public static func entries(lines: [(number: Int, text: String)]) throws(TraceError) -> (entries: [TraceEntry], warnings: [String]) {
        var entries: [TraceEntry] = []
        var warnings: [String] = []
        var units: [String?: [Role: String]] = [:]
        var previous: Date?
        for line in lines where !line.text.trimmingASCIISpaces().isEmpty {
            let parsed = try TraceLine.parse(line.text, line: line.number)
            if let previous, parsed.at < previous {
                throw TraceError(line: line.number, message: "expected a time at or after \(ISOTime.format(previous)), found \(ISOTime.format(parsed.at)) (lines must be in time order)")
            }
            previous = parsed.at
            for role in parsed.unknownRoles {
                warnings.append("line \(line.number): unknown role '\(role)' ignored; roles: \(Role.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            units[parsed.appliance, default: [:]].merge(parsed.units) { _, given in given }
            var observation = Observation(at: parsed.at, raw: parsed.raw, units: units[parsed.appliance] ?? [:])
            observation.people = parsed.people
            entries.append(TraceEntry(line: line.number, appliance: parsed.appliance, observation: observation))
        }
        return (entries, warnings)
    }

    /// Replays observations in time order through a fresh household of one appliance,
    /// exactly as `run` feeds polled ones. `onEvent` sees each event's steps with the
    /// household after them, as `run`'s recorder does (`replay --record` stores them). `history` is what the store knew of
    /// the appliance's finish estimates before the trace (none: no correction at first);
    /// `delivery`, the household's quiet hours and people (the trace's `person.*` states).
    public static func run(settings: ApplianceSettings, observations: [Observation], dailyLimit: Int = 400,
                           history: FinishHistory = FinishHistory(), delivery: DeliverySettings = DeliverySettings(),
                           onEvent: ([Household.Step], Household) -> Void = { _, _ in }) -> ReplayResult {
        run(settings: settings, entries: observations.map { TraceEntry(observation: $0) }, dailyLimit: dailyLimit,
            history: history, delivery: delivery, onEvent: onEvent)
    }

    /// Replays a trace of several appliances: the replayed one (`settings`, its lines naming
    /// none) and `others`, each line's observation for its appliance, in one household, as
    /// `run` follows them together (a washer and its dryer: `LaundryLink`). Each appliance's
    /// calls and cycles are in the result, in time order.
    public static func run(settings: ApplianceSettings, others: [ApplianceSettings] = [], entries: [TraceEntry],
                           dailyLimit: Int = 400, history: FinishHistory = FinishHistory(),
                           delivery: DeliverySettings = DeliverySettings(),
                           onEvent: ([Household.Step], Household) -> Void = { _, _ in }) -> ReplayResult {
        var household = Household(dailyLimit: dailyLimit, delivery: delivery)
        household.follow(settings, history: history)
        for other in others where other.id != settings.id { household.follow(other) }
        var effects: [TrackerEffect] = []
        var cycles: [ReplayCycle] = []
        var waiting: [String: [SupernotifyCall]] = [:]
        for entry in entries {
            let steps = household.handle(.observed(entry.appliance ?? settings.id, entry.observation))
            for step in steps {
                effects += step.effects
                take(step, into: &cycles, waiting: &waiting)
            }
            if !steps.isEmpty { onEvent(steps, household) }
        }
        return ReplayResult(
            observations: entries.map(\.observation),
            effects: effects,
            calls: effects.compactMap { if case .call(let call) = $0 { call } else { nil } },
            cycles: cycles,
            warnings: effects.compactMap { if case .warning(let text) = $0 { text } else { nil } },
            droppedSteps: household.tracker(settings.id)?.droppedSteps ?? []
        )
    }

    /// `waiting`: by appliance, the calls of a delayed start's wait, which count in the cycle its run starts.
    private static func take(_ step: Household.Step, into cycles: inout [ReplayCycle],
                             waiting: inout [String: [SupernotifyCall]]) {
        var last: Int? { cycles.lastIndex { $0.applianceID == step.applianceID } }
        for effect in step.effects {
            switch effect {
            case .cycleStarted(let at, let program):
                cycles.append(ReplayCycle(applianceID: step.applianceID, startedAt: at, endedAt: nil, outcome: nil,
                                          program: program, calls: waiting[step.applianceID] ?? []))
                waiting[step.applianceID] = nil
            case .call(let call) where DelayedStart.isWaitCall(call):
                // A wait that ended without a run belongs to no cycle.
                waiting[step.applianceID] = call.kind == .clear ? nil : (waiting[step.applianceID] ?? []) + [call]
            case .call(let call):
                // Reminders follow the cycle's end and are not among its calls (nor its limit).
                if let last, call.kind != .reminder { cycles[last].calls.append(call) }
            case .cycleEnded(let at, let outcome):
                guard let last else { break }
                cycles[last].endedAt = at
                cycles[last].outcome = outcome
                cycles[last].program = step.ended?.program
            case .heldBack, .waiting, .warning, .unloaded:
                break
            }
        }
        // The program may become known after the start.
        if let open = step.cycle, let last, cycles[last].endedAt == nil {
            cycles[last].program = open.program
        }
    }
}
