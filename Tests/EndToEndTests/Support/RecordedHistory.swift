import CycleCore
import CycleHistory
import Foundation
import LocalTime

/// A history as `cycletrack run` records it, written through `HistoryStore`: six weeks
/// of a dishwasher's and a washer's cycles with observations every two minutes, every
/// Supernotify call with its body and reason (one held back by the budget), and a
/// washer cycle running now. Deterministic apart from `now`.
enum RecordedHistory {
    /// The cycle whose timeline the screenshots show.
    struct Written {
        var timelineCycle: Int64
        var cycles: Int
    }

    static func write(to path: String, now: Date) throws -> Written {
        let store = try HistoryStore(path: path)
        var random = UInt64(0x2545F4914F6CDD1D)
        func next(_ range: ClosedRange<Double>) -> Double {
            random = random &* 6364136223846793005 &+ 1442695040888963407
            return range.lowerBound + Double(random >> 11) / Double(1 << 53) * (range.upperBound - range.lowerBound)
        }
        try store.upsertAppliance(id: "dishwasher", name: "Dishwasher", at: now.addingTimeInterval(-50 * 86_400))
        try store.upsertAppliance(id: "washer", name: "Washer", at: now.addingTimeInterval(-50 * 86_400))
        var count = 0
        var timeline: Int64 = 0
        for day in stride(from: 42, through: 1, by: -3) {
            let start = now.addingTimeInterval(-Double(day) * 86_400 + next(-3_600...3_600) - 5 * 3_600)
            let minutes = next(124...144).rounded()
            let late = next(-8...12).rounded()
            let id = try cycle(store, "dishwasher", "Dishwasher", "dishcare_dishwasher_program_eco_50", start: start, minutes: minutes,
                               estimateLate: late, energy: next(0.78...0.98), heldBack: day == 3, now: now)
            if day == 3 { timeline = id }
            count += 1
        }
        for day in stride(from: 40, through: 2, by: -4) {
            let start = now.addingTimeInterval(-Double(day) * 86_400 + next(-3_600...3_600) - 8 * 3_600)
            let id = try cycle(store, "washer", "Washer", "laundrycare_washer_program_cotton", start: start, minutes: next(150...190).rounded(),
                               estimateLate: next(-5...25).rounded(), energy: next(0.9...1.4), heldBack: false, now: now)
            _ = id
            count += 1
        }
        // Running now: started 50 minutes ago, 45% done, 55 minutes to go.
        _ = try cycle(store, "washer", "Washer", "laundrycare_washer_program_cotton", start: now.addingTimeInterval(-50 * 60),
                      minutes: nil, estimateLate: 0, energy: 1.1, heldBack: false, now: now)
        return Written(timelineCycle: timeline, cycles: count + 1)
    }

    /// One cycle: observations every two minutes, a start call, a quiet update every 10%,
    /// an alerting one at 50%, the clear and the end call; `minutes` nil leaves it running.
    private static func cycle(
        _ store: HistoryStore, _ appliance: String, _ name: String, _ program: String, start: Date, minutes: Double?,
        estimateLate: Double, energy: Double, heldBack: Bool, now: Date
    ) throws -> Int64 {
        let total = (minutes ?? 105) * 60
        let id = try store.openCycle(applianceID: appliance, program: program, startedAt: start, source: .run)
        let end = start.addingTimeInterval(total)
        let firstEstimate = end.addingTimeInterval(estimateLate * 60)
        try store.updateCycle(id: id, program: program, firstPredictedFinish: firstEstimate, lastPredictedFinish: nil,
                              maxProgress: nil, energyStart: 500)
        let readable = ProgramName.readable(program)
        func push(_ at: Date, _ kind: CallKind, _ reason: String, message: String, progress: Int?, finish: Date?,
                  status: PushStatus = .sent) throws {
            var extra: [String] = []
            if kind == .clear {
                extra.append("\"mobile_push_clear_notification\":true")
            } else if kind != .end {
                if let progress { extra.append("\"progress\":\(progress),\"progress_max\":100") }
                if let finish { extra.append("\"chronometer\":true,\"when\":\(NumberText.int(finish.timeIntervalSince1970, .down) ?? 0)") }
                // As SupernotifyBody writes a quiet update: without sound, alerting once.
                if kind == .quiet { extra.append("\"silent\":true,\"alert_once\":true") }
            }
            let title = kind == .end ? "\(name) finished" : name
            let body = "{\"title\":\(JSONValue.quoted(title)),\"message\":\(JSONValue.quoted(message)),\"extra_data\":{\(extra.joined(separator: ","))}}"
            let pushID = try store.recordPush(cycleID: id, applianceID: appliance, at: at, kind: kind, reason: reason, body: body, status: status)
            if status == .sent {
                try store.markPush(id: pushID, status: .sent, httpStatus: 200, error: nil, latencyMs: 180 + Double(pushID % 7) * 23, at: at)
            }
        }
        try push(start, .start, "cycle started", message: "\(name) started: \(readable)", progress: 0, finish: firstEstimate)
        var nextStep = 10
        var at = start
        var estimate = firstEstimate
        let limit = minutes == nil ? now : end
        while at < limit {
            let elapsed = at.timeIntervalSince(start)
            let progress = min(NumberText.int(elapsed / total * 100, .down) ?? 0, 99)
            // The estimate drifts toward the real end over the cycle, in a few jumps.
            if elapsed > total * 0.3, elapsed < total * 0.3 + 120 { estimate = end.addingTimeInterval(estimateLate * 30) }
            if elapsed > total * 0.7, elapsed < total * 0.7 + 120 { estimate = end.addingTimeInterval(estimateLate * 8) }
            try store.recordObservation(applianceID: appliance, cycleID: id, at: at, states: [
                .operationState: "run", .progress: String(progress), .finishTime: ISOTime.format(estimate),
                .program: program, .energy: String(500 + energy * elapsed / total),
            ])
            try store.updateCycle(id: id, program: nil, firstPredictedFinish: nil, lastPredictedFinish: estimate, maxProgress: progress,
                                  energyStart: nil)
            if progress >= nextStep {
                if nextStep == 50 {
                    try push(at, .progress, "step 50: alerting at half way", message: "50% complete", progress: progress, finish: estimate)
                } else if heldBack && nextStep == 70 {
                    try push(at, .quiet, "step 70: held back, daily budget of 400 reached", message: readable, progress: progress,
                             finish: estimate, status: .notSent)
                } else {
                    try push(at, .quiet, "step \(nextStep)", message: readable, progress: progress, finish: estimate)
                }
                nextStep += 10
            }
            at = at.addingTimeInterval(120)
        }
        if minutes != nil {
            try store.recordObservation(applianceID: appliance, cycleID: id, at: end, states: [
                .operationState: "finished", .progress: "100", .program: program, .energy: String(500 + energy),
            ])
            try store.updateCycle(id: id, program: nil, firstPredictedFinish: nil, lastPredictedFinish: nil, maxProgress: 100, energyStart: nil)
            try push(end, .clear, "cycle ended: finished", message: "\(name) finished", progress: nil, finish: nil)
            try push(end, .end, "cycle finished", message: "\(readable) in \(TimeText.duration(total)), \(TimeText.fixed(energy, decimals: 2)) kWh",
                     progress: nil, finish: nil)
            try store.closeCycle(id: id, endedAt: end, outcome: .finished, energyEnd: 500 + energy)
            try store.recordObservation(applianceID: appliance, cycleID: nil, at: end.addingTimeInterval(60), states: [
                .operationState: "ready", .program: program, .energy: String(500 + energy),
            ])
        }
        return id
    }
}
