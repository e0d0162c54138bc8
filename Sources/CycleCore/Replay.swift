import FoundationEssentials

/// One cycle of a replay, with the calls made for it.
public struct ReplayCycle: Sendable, Equatable {
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

/// Feeds a recorded trace through the same tracker `run` uses, with ticks made from
/// the trace's own times: deadlines between two lines fire at their due time, and
/// nothing happens after the last line.
public enum Replay {
    /// Replays `lines` (numbered as in the file; blank ones skipped), which must be in
    /// time order. The daily budget is counted per UTC day from the replay's own calls.
    public static func run(settings: ApplianceSettings, lines: [(number: Int, text: String)],
                           dailyLimit: Int = 400, history: FinishHistory = FinishHistory(),
                           delivery: DeliverySettings = DeliverySettings()) throws(TraceError) -> ReplayResult {
        let trace = try observations(lines: lines)
        var result = run(settings: settings, observations: trace.observations, dailyLimit: dailyLimit, history: history,
                         delivery: delivery)
        result.warnings = trace.warnings + result.warnings
        return result
    }

    /// Parses trace lines into observations, checking their time order; roles the
    /// trace names that cycletrack doesn't know become warnings. A unit a line gives
    /// holds for the lines after it, as an entity's unit does in HA.
    public static func observations(lines: [(number: Int, text: String)]) throws(TraceError) -> (observations: [Observation], warnings: [String]) {
        var observations: [Observation] = []
        var warnings: [String] = []
        var units: [Role: String] = [:]
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
            units.merge(parsed.units) { _, given in given }
            var observation = Observation(at: parsed.at, raw: parsed.raw, units: units)
            observation.people = parsed.people
            observations.append(observation)
        }
        return (observations, warnings)
    }

    /// Replays observations in time order through a fresh household of one appliance,
    /// exactly as `run` feeds polled ones. `onEvent` sees each event's steps with the
    /// household after them, as `run`'s recorder does (`replay --record` stores them). `history` is what the store knew of
    /// the appliance's finish estimates before the trace (none: no correction at first);
    /// `delivery`, the household's quiet hours and people (the trace's `person.*` states).
    public static func run(settings: ApplianceSettings, observations: [Observation], dailyLimit: Int = 400,
                           history: FinishHistory = FinishHistory(), delivery: DeliverySettings = DeliverySettings(),
                           onEvent: ([Household.Step], Household) -> Void = { _, _ in }) -> ReplayResult {
        var household = Household(dailyLimit: dailyLimit, delivery: delivery)
        household.follow(settings, history: history)
        var effects: [TrackerEffect] = []
        var cycles: [ReplayCycle] = []
        var waiting: [SupernotifyCall] = []
        for observation in observations {
            let steps = household.handle(.observed(settings.id, observation))
            for step in steps {
                effects += step.effects
                take(step, into: &cycles, waiting: &waiting)
            }
            if !steps.isEmpty { onEvent(steps, household) }
        }
        return ReplayResult(
            observations: observations,
            effects: effects,
            calls: effects.compactMap { if case .call(let call) = $0 { call } else { nil } },
            cycles: cycles,
            warnings: effects.compactMap { if case .warning(let text) = $0 { text } else { nil } },
            droppedSteps: household.tracker(settings.id)?.droppedSteps ?? []
        )
    }

    /// `waiting`: the calls of a delayed start's wait, which count in the cycle its run starts.
    private static func take(_ step: Household.Step, into cycles: inout [ReplayCycle], waiting: inout [SupernotifyCall]) {
        for effect in step.effects {
            switch effect {
            case .cycleStarted(let at, let program):
                cycles.append(ReplayCycle(startedAt: at, endedAt: nil, outcome: nil, program: program, calls: waiting))
                waiting = []
            case .call(let call) where DelayedStart.isWaitCall(call):
                // A wait that ended without a run belongs to no cycle.
                waiting = call.kind == .clear ? [] : waiting + [call]
            case .call(let call):
                // Reminders follow the cycle's end and are not among its calls (nor its limit).
                if !cycles.isEmpty, call.kind != .reminder { cycles[cycles.count - 1].calls.append(call) }
            case .cycleEnded(let at, let outcome):
                guard !cycles.isEmpty else { break }
                cycles[cycles.count - 1].endedAt = at
                cycles[cycles.count - 1].outcome = outcome
                cycles[cycles.count - 1].program = step.ended?.program
            case .heldBack, .waiting, .warning:
                break
            }
        }
        // The program may become known after the start.
        if let open = step.cycle, let last = cycles.indices.last, cycles[last].endedAt == nil {
            cycles[last].program = open.program
        }
    }
}
