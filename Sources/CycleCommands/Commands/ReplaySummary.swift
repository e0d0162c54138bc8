import CycleCore
import FoundationEssentials

/// The summary `replay` writes to stderr: the cycles with their outcome, the calls per
/// kind, and per cycle how its per-cycle limit was spent, so that the numbers add up:
/// calls made plus slots left unused is the limit. Every call held back says why, and
/// every slot left unused what it was kept for.
///
/// Why a call was held back is worked out the way the planner decides it
/// (docs/PUSHES.md, "Budget"): a start or an end only for the daily budget; an update
/// for the daily budget, or because no slot was left under the per-cycle limit (two kept
/// for the clear and end), or, for news that is not a step, because the slots left were
/// kept for the progress steps still ahead.
enum ReplaySummary {
    static func render(_ result: ReplayResult, settings: ApplianceSettings, dailyLimit: Int = 400) -> String {
        let limit = settings.cyclePushLimit
        let planned = settings.steps.thinned(toFit: max(0, limit - 3))
        var lines = result.warnings.map { "warning: \($0)" } + overview(result, replayed: settings.id)
        lines.append("per-cycle limit: \(limit) calls: start, clear and end take 3, leaving \(max(0, limit - 3)) for steps and updates")
        if planned.dropped.isEmpty {
            lines.append("progress steps: \(list(planned.kept)), none dropped")
        } else {
            lines.append("progress steps kept: \(list(planned.kept)); dropped to fit the limit: \(list(planned.dropped))")
        }
        let notices = Notices(result, limit: limit, steps: planned.kept, dailyLimit: dailyLimit)
        // Only with quiet hours or people: the summary stays as it was for everything else.
        if !notices.waiting.isEmpty {
            lines.append("waiting: \(notices.waiting.count)")
            lines += notices.waiting
        }
        if notices.held.isEmpty {
            lines.append("held back: none")
        } else {
            lines.append("held back: \(notices.held.count)")
            lines += notices.held
        }
        let slots = result.cycles.enumerated().compactMap { index, cycle in
            // Another appliance's cycle (a trace of several) has its own settings and limit.
            cycle.endedAt == nil || cycle.applianceID != settings.id ? nil
                : slotLine(cycle, number: index + 1, limit: limit, steps: planned.kept, settings: settings, result: result)
        }
        if !slots.isEmpty {
            lines.append("per cycle:")
            lines += slots
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The cycles with their outcome, and the calls per kind.
    private static func overview(_ result: ReplayResult, replayed: String) -> [String] {
        let described = result.cycles.map { cycle in
            let program = cycle.program.map { " \(ProgramName.readable($0))" } ?? ""
            let calls = cycle.calls.count
            let who = cycle.applianceID == replayed ? "" : "\(cycle.applianceID): "
            return who + "\(cycle.outcome?.rawValue ?? "still running")\(program), \(calls) call\(calls == 1 ? "" : "s")"
        }
        // Reminders only when there are some: the line stays as it was for everything else.
        let perKind = CallKind.allCases.compactMap { kind -> String? in
            let count = result.calls.filter { $0.kind == kind }.count
            return kind == .reminder && count == 0 ? nil : "\(kind.rawValue) \(count)"
        }
        return [
            "cycles: \(result.cycles.count)" + (described.isEmpty ? "" : " (\(described.joined(separator: "; ")))"),
            "calls: \(perKind.joined(separator: ", ")), total \(result.calls.count)",
        ]
    }

    /// The calls held back, each with why, and the notices waiting, walking the effects
    /// in order as the planner made them.
    private struct Notices {
        var held: [String] = []
        var waiting: [String] = []

        init(_ result: ReplayResult, limit: Int, steps: [Int], dailyLimit: Int) {
            var calls = 0
            var cycleIndex = -1
            var callsToday: [Int: Int] = [:]
            var open = false
            for effect in result.effects {
                switch effect {
                case .cycleStarted:
                    cycleIndex += 1
                    calls = 0
                    open = true
                case .call(let call):
                    calls += 1
                    callsToday[day(call.at), default: 0] += 1
                case .cycleEnded:
                    open = false
                case .heldBack(let kind, let at, let reason):
                    let budget = DailyBudget(limit: dailyLimit, usedToday: callsToday[day(at)] ?? 0, openCycles: open ? 1 : 0)
                    let why: String
                    if kind == .start || kind == .end || reason == "start" || !budget.allows(kind) {
                        why = "the daily budget (\(dailyLimit)) had no room"
                    } else if reason == "replace" {
                        why = "the Live Activity's replacement needs 2 free slots, \(max(0, limit - 2 - calls)) left"
                    } else if limit - 2 - calls <= 0 {
                        why = "no slot left: \(calls) calls made, 2 kept for the clear and end"
                    } else {
                        let free = limit - 2 - calls
                        let ahead = stepsAhead(steps, cycle: cycleIndex, result: result, after: at)
                        let kept = ahead.isEmpty ? "" : " (\(list(ahead)))"
                        let renews = result.calls.contains { $0.reason == "replace" && $0.at > at }
                        let renewal = renews ? " and the Live Activity's replacement" : ""
                        why = "the \(free) \(free == 1 ? "slot left was" : "slots left were") kept for the steps still ahead\(kept)\(renewal)"
                    }
                    held.append("  \(clock(at)) \(kind.rawValue) (\(reason)): \(why)")
                case .waiting(let kind, let at, let reason):
                    waiting.append("  \(clock(at)) \(kind.rawValue) (\(reason))")
                case .warning, .unloaded:
                    break
                }
            }
        }
    }

    /// How an ended cycle spent its per-cycle limit, and what each unused slot was kept for.
    private static func slotLine(_ cycle: ReplayCycle, number: Int, limit: Int, steps: [Int],
                                 settings: ApplianceSettings, result: ReplayResult) -> String {
        let unused = limit - cycle.calls.count
        guard unused > 0 else { return "  cycle \(number): \(cycle.calls.count) of \(limit) calls made" }
        var reasons: [String] = []
        var explained = 0
        let missed = steps.filter { $0 > maxProgress(of: cycle, in: result.observations) }
        if !missed.isEmpty {
            let count = min(missed.count, unused)
            reasons.append("\(count) kept for step\(missed.count == 1 ? "" : "s") \(list(missed)), never reached")
            explained += count
        }
        if explained < unused, cycle.outcome != .finished || !settings.notifyEnd {
            reasons.append("1 kept for an end notification this cycle does not get")
            explained += 1
        }
        if explained < unused { reasons.append("\(unused - explained) not needed: nothing more to show") }
        return "  cycle \(number): \(cycle.calls.count) of \(limit) calls made, \(unused) unused (\(reasons.joined(separator: "; ")))"
    }

    private static func list(_ steps: [Int]) -> String {
        steps.isEmpty ? "none" : steps.map(String.init).joined(separator: ", ")
    }

    private static func day(_ date: Date) -> Int {
        NumberText.int(date.timeIntervalSince1970 / 86_400, .down) ?? 0
    }

    /// "08:02:00", UTC, as the table's times.
    private static func clock(_ date: Date) -> String {
        String(ISOTime.format(date).dropFirst(11).prefix(8))
    }

    /// The highest progress the cycle's observations showed.
    private static func maxProgress(of cycle: ReplayCycle, in observations: [Observation]) -> Int {
        observations
            .filter { $0.at >= cycle.startedAt && $0.at <= (cycle.endedAt ?? .distantFuture) }
            .compactMap(\.progress)
            .max() ?? -1
    }

    /// The kept steps above the progress seen by `at` in the cycle.
    private static func stepsAhead(_ kept: [Int], cycle: Int, result: ReplayResult, after at: Date) -> [Int] {
        guard result.cycles.indices.contains(cycle) else { return [] }
        let start = result.cycles[cycle].startedAt
        let reached = result.observations.filter { $0.at >= start && $0.at <= at }.compactMap(\.progress).max() ?? -1
        return kept.filter { $0 > reached }
    }
}
