import CycleCore
import FoundationEssentials

/// One replayed cycle of the corpus, with times relative to its start, ready to be
/// stored again and again at other times: the observations the service would record
/// (thinned, see `spacing`), the calls the planner made, and the cycle's summary.
struct CycleTemplate {
    struct Row {
        var offset: Double
        /// Every role, "unavailable" where the trace had none, as `cycletrack run` records them.
        var states: [Role: String]
    }

    struct Push {
        var offset: Double
        var kind: CallKind
        var reason: String
        var body: String
    }

    var program: String?
    var duration: Double
    var outcome: CycleOutcome
    var firstPredictedFinish: Double?
    var lastPredictedFinish: Double?
    var maxProgress: Int?
    /// The changed observations kept: every operation-state change, the first and
    /// the last, and otherwise at most one per `spacing` seconds.
    var rows: [Row]
    /// Observations during the cycle that changed some role: what the service would
    /// store for it when polling faster than the appliance reports.
    var changedObservations: Int
    var pushes: [Push]

    /// The ended cycles of `trace`, replayed with the default tuning.
    static func make(from trace: BenchTrace, spacing: Double) -> [CycleTemplate] {
        let replay = Replay.run(settings: trace.settings, observations: trace.observations)
        return replay.cycles.compactMap { cycle in
            guard let endedAt = cycle.endedAt, let outcome = cycle.outcome else { return nil }
            let start = cycle.startedAt
            let during = trace.observations.filter { $0.at >= start && $0.at <= endedAt }
            var rows: [Row] = []
            var changed = 0
            var previous: [Role: String]?
            var lastKept: Date?
            var firstFinish: Date?
            var lastFinish: Date?
            var maxProgress: Int?
            for (index, observation) in during.enumerated() {
                defer { previous = observation.raw }
                if let finish = observation.finishTime, observation.operation != .known(.finished) {
                    firstFinish = firstFinish ?? finish
                    lastFinish = finish
                }
                if let progress = observation.progress { maxProgress = max(maxProgress ?? progress, progress) }
                guard previous != observation.raw else { continue }
                changed += 1
                let stateChanged = previous?[.operationState] != observation.raw[.operationState]
                let due = lastKept.map { observation.at.timeIntervalSince($0) >= spacing } ?? true
                guard stateChanged || due || index == during.count - 1 else { continue }
                lastKept = observation.at
                let states = Dictionary(uniqueKeysWithValues: Role.allCases.map { ($0, observation.raw[$0] ?? "unavailable") })
                rows.append(Row(offset: observation.at.timeIntervalSince(start), states: states))
            }
            return CycleTemplate(
                program: cycle.program, duration: endedAt.timeIntervalSince(start), outcome: outcome,
                firstPredictedFinish: firstFinish?.timeIntervalSince(start),
                lastPredictedFinish: lastFinish?.timeIntervalSince(start), maxProgress: maxProgress,
                rows: rows, changedObservations: changed,
                pushes: cycle.calls.map { call in
                    Push(offset: call.at.timeIntervalSince(start), kind: call.kind, reason: call.reason,
                         body: call.bodyJSON())
                })
        }
    }
}
