import CycleCore
import FoundationEssentials

/// Phase 1: calls per cycle with the default tuning, replayed exactly as `cycletrack
/// replay` does (`Replay.run`), next to a naive baseline that would push on every
/// observed change.
struct PushCountBenchmark {
    /// One cycle of one trace.
    struct CycleCount {
        var trace: String
        var scenario: String
        /// Supernotify calls the planner made for the cycle (start, updates, clear, end).
        var calls: Int
        /// Observations during the cycle whose raw states differ from the previous
        /// observation's, plus one for the start and one for the end.
        var naive: Int
        var outcome: String
    }

    var cycles: [CycleCount] = []
    /// Traces whose replay saw a different number of cycles than they hold.
    var mismatches: [String] = []
    /// The per-cycle limit of the default tuning.
    let limit = ApplianceSettings(id: "default", name: "Default").cyclePushLimit

    static func run(_ corpus: TraceCorpus) -> PushCountBenchmark {
        var result = PushCountBenchmark()
        for trace in corpus.traces {
            let replay = Replay.run(settings: trace.settings, observations: trace.observations)
            if let expected = trace.expectedCycles, expected != replay.cycles.count {
                result.mismatches.append("\(trace.name): expected \(expected) cycle(s), the replay saw \(replay.cycles.count)")
            }
            for cycle in replay.cycles {
                result.cycles.append(CycleCount(
                    trace: trace.name, scenario: trace.scenario, calls: cycle.calls.count,
                    naive: naiveCalls(cycle, observations: trace.observations),
                    outcome: cycle.outcome?.rawValue ?? "open"))
            }
        }
        return result
    }

    /// Start + end + one push per change of any role's raw state strictly between them.
    static func naiveCalls(_ cycle: ReplayCycle, observations: [Observation]) -> Int {
        let end = cycle.endedAt ?? observations.last?.at ?? cycle.startedAt
        var changes = 0
        var previous: [Role: String]?
        for observation in observations {
            defer { previous = observation.raw }
            guard observation.at > cycle.startedAt, observation.at < end || (cycle.endedAt == nil && observation.at == end) else {
                continue
            }
            if let previous, previous != observation.raw { changes += 1 }
        }
        return changes + 2
    }

    var overBudget: [CycleCount] { cycles.filter { $0.calls > limit } }
    var medianCalls: Double { Summary.median(cycles.map(\.calls)) ?? 0 }
    var maxCalls: Int { cycles.map(\.calls).max() ?? 0 }
    var medianNaive: Double { Summary.median(cycles.map(\.naive)) ?? 0 }
    var maxNaive: Int { cycles.map(\.naive).max() ?? 0 }
    var traceCount: Int { Set(cycles.map(\.trace)).count }

    /// Calls per cycle by scenario, in corpus order.
    func scenarioTable() -> PlainTable {
        var table = PlainTable(["scenario", "traces", "cycles", "calls median", "calls max", "naive median", "naive max", "naive/calls"])
        var order: [String] = []
        for cycle in cycles where !order.contains(cycle.scenario) { order.append(cycle.scenario) }
        for scenario in order {
            let group = cycles.filter { $0.scenario == scenario }
            let calls = Summary.median(group.map(\.calls)) ?? 0
            let naive = Summary.median(group.map(\.naive)) ?? 0
            table.rows.append([
                scenario, String(Set(group.map(\.trace)).count), String(group.count),
                Summary.count(calls), String(group.map(\.calls).max() ?? 0),
                Summary.count(naive), String(group.map(\.naive).max() ?? 0),
                calls > 0 ? Summary.fixed(naive / calls, 1) + "x" : "-",
            ])
        }
        return table
    }
}
