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
                           dailyLimit: Int = 400) throws(TraceError) -> ReplayResult {
        let trace = try observations(lines: lines)
        var result = run(settings: settings, observations: trace.observations, dailyLimit: dailyLimit)
        result.warnings = trace.warnings + result.warnings
        return result
    }

    /// Parses trace lines into observations, checking their time order; roles the
    /// trace names that cycletrack doesn't know become warnings.
    public static func observations(lines: [(number: Int, text: String)]) throws(TraceError) -> (observations: [Observation], warnings: [String]) {
        var observations: [Observation] = []
        var warnings: [String] = []
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
            observations.append(Observation(at: parsed.at, raw: parsed.raw))
        }
        return (observations, warnings)
    }

    /// One step of a replay: an observation (nil for a tick between two of them), what
    /// the tracker decided, and the tracker afterwards. `replay --record` stores each.
    public struct Step {
        public var observation: Observation?
        public var effects: [TrackerEffect]
        public var tracker: ApplianceTracker
    }

    /// Replays observations in time order through a fresh tracker, exactly as `run` feeds
    /// polled ones; `onStep` sees every step as it happens.
    public static func run(settings: ApplianceSettings, observations: [Observation], dailyLimit: Int = 400,
                           onStep: (Step) -> Void = { _ in }) -> ReplayResult {
        var tracker = ApplianceTracker(settings: settings)
        var effects: [TrackerEffect] = []
        var callsByDay: [Int: Int] = [:]

        func budget(at date: Date, tracker: ApplianceTracker) -> DailyBudget {
            DailyBudget(limit: dailyLimit, usedToday: callsByDay[utcDay(date)] ?? 0,
                        openCycles: tracker.cycle == nil ? 0 : 1)
        }
        var cycles: [ReplayCycle] = []
        func take(_ new: [TrackerEffect], from tracker: ApplianceTracker) {
            effects += new
            for effect in new {
                switch effect {
                case .cycleStarted(let at, let program):
                    cycles.append(ReplayCycle(startedAt: at, endedAt: nil, outcome: nil, program: program, calls: []))
                case .call(let call):
                    callsByDay[utcDay(call.at), default: 0] += 1
                    if !cycles.isEmpty { cycles[cycles.count - 1].calls.append(call) }
                case .cycleEnded(let at, let outcome):
                    guard !cycles.isEmpty else { break }
                    cycles[cycles.count - 1].endedAt = at
                    cycles[cycles.count - 1].outcome = outcome
                    // One tracker call ends at most one cycle: the one it reports as last ended.
                    cycles[cycles.count - 1].program = tracker.lastEndedCycle?.program
                case .heldBack, .warning:
                    break
                }
            }
            // The program may become known after the start.
            if let open = tracker.cycle, let last = cycles.indices.last, cycles[last].endedAt == nil {
                cycles[last].program = open.program
            }
        }

        for observation in observations {
            // Each deadline before this observation gets its own tick, so that its call
            // counts against the budget of the day it falls in.
            while let due = tracker.nextDeadline, due < observation.at {
                let fired = tracker.advance(to: due, budget: budget(at: due, tracker: tracker))
                take(fired, from: tracker)
                onStep(Step(observation: nil, effects: fired, tracker: tracker))
                if let next = tracker.nextDeadline, next <= due { break }
            }
            let new = tracker.observe(observation, budget: budget(at: observation.at, tracker: tracker))
            take(new, from: tracker)
            onStep(Step(observation: observation, effects: new, tracker: tracker))
        }

        return ReplayResult(
            observations: observations,
            effects: effects,
            calls: effects.compactMap { if case .call(let call) = $0 { call } else { nil } },
            cycles: cycles,
            warnings: effects.compactMap { if case .warning(let text) = $0 { text } else { nil } },
            droppedSteps: tracker.droppedSteps
        )
    }

    private static func utcDay(_ date: Date) -> Int {
        Int((date.timeIntervalSince1970 / 86_400).rounded(.down))
    }
}
