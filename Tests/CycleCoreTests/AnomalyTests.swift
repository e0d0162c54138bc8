import FoundationEssentials
import Testing
@testable import CycleCore

/// A washer cycle from `start` (minutes) lasting `minutes`, its progress moving every 10 minutes,
/// each line `(minute offset, operation state, door)` of `extra` put in its place at 22% (the
/// progress at minute 20 of a 90-minute cycle, so that no step is crossed by them).
private func washerCycle(start: Double, minutes: Double, extra: [(Double, String, String)] = []) -> [String] {
    var lines: [(Double, String)] = []
    for offset in stride(from: 0.0, to: minutes, by: 10) {
        let progress = min(99, Int(offset / minutes * 100))
        lines.append((offset, traceLine(minute(start + offset), ["operation_state": "run", "program": cotton,
                                                                "progress": String(progress), "door": "locked"])))
    }
    for (offset, state, door) in extra {
        lines.removeAll { $0.0 == offset }
        lines.append((offset, traceLine(minute(start + offset), ["operation_state": state, "program": cotton,
                                                                "progress": "22", "door": door])))
    }
    lines.append((minutes, traceLine(minute(start + minutes), ["operation_state": "finished", "program": cotton, "door": "closed"])))
    return lines.sorted { $0.0 < $1.0 }.map(\.1)
}

/// `count` finished cycles of an hour each, three hours apart, from minute 0; then the one cycle after them.
private func withHistory(_ count: Int, then minutes: Double) -> [String] {
    var lines: [String] = []
    for index in 0..<count {
        lines += washerCycle(start: Double(index) * 180, minutes: 60)
    }
    return lines + washerCycle(start: Double(count) * 180, minutes: minutes)
}

private extension ReplayResult {
    /// The anomaly calls: kind, minute from `zero`, reason.
    var notes: [String] {
        calls.filter { $0.reason.hasPrefix("anomaly") }.map { call in
            "\(call.kind.rawValue) \(NumberText.plain(call.at.timeIntervalSince(zero) / 60)) \(call.reason)"
        }
    }
}

/// docs/PUSHES.md, "Anomalies": replayed, since `run` drives the tracker the same way.
@Suite struct AnomalyTests {
    @Test func actionRequiredAlertsOnceWithItsReasonAndItsClearIsOneQuietUpdate() throws {
        let lines = washerCycle(start: 0, minutes: 90, extra: [
            (30, "actionrequired", "open"), (40, "run", "closed"), (50, "actionrequired", "closed"), (60, "run", "closed"),
        ])
        let result = try Replay.run(settings: .washer(), lines: numbered(lines))
        #expect(result.notes == ["progress 30 anomaly: action required (door open)"])
        let alert = try #require(result.calls.first { $0.reason.hasPrefix("anomaly") })
        #expect(alert.message == "Action required: door open")
        #expect(alert.body["title"] == .string("Washer"))
        #expect(alert.extra["live_update"] == .bool(true), "the Live Activity shows it")
        let after = result.calls.filter { $0.at > minute(30) && $0.at < minute(70) }
        #expect(after.map(\.kind) == [.quiet, .quiet, .quiet])
        #expect(after.map(\.reason) == ["resume", "action required", "resume"], "once per cycle: the second is the ordinary update")
    }

    @Test func switchedOffActionRequiredIsTheOrdinaryQuietUpdate() throws {
        let lines = washerCycle(start: 0, minutes: 90, extra: [(30, "actionrequired", "open"), (40, "run", "closed")])
        let result = try Replay.run(settings: .washer { $0.anomalyNotes = false }, lines: numbered(lines))
        #expect(result.notes.isEmpty)
        #expect(result.calls.filter { $0.at == minute(30) }.map(\.reason) == ["action required"])
        #expect(result.calls.filter { $0.at == minute(30) }.map(\.kind) == [.quiet])
    }

    @Test func aCycleFarPastItsUsualTimeGetsAQuietNoteThenOneAlert() throws {
        // Ten hours-long cycles: median and p90 60 min, margin 10 min: late at 70, far late at 90.
        let result = try Replay.run(settings: .washer(), lines: numbered(withHistory(10, then: 96)))
        #expect(result.notes == [
            "quiet 1870 anomaly: longer than usual (10 min)",
            "progress 1890 anomaly: far longer than usual (30 min)",
        ])
        let notes = result.calls.filter { $0.reason.hasPrefix("anomaly") }
        #expect(notes.map(\.message) == ["Running 10 min longer than usual", "Running 30 min longer than usual"])
        #expect(result.cycles.count == 11)
    }

    @Test func withoutEnoughHistoryNothingIsSaid() throws {
        for count in [0, 4] {
            let result = try Replay.run(settings: .washer(), lines: numbered(withHistory(count, then: 96)))
            #expect(result.notes.isEmpty, "\(count) cycles of history")
        }
        let usual = try Replay.run(settings: .washer(), lines: numbered(withHistory(10, then: 66)))
        #expect(usual.notes.isEmpty, "within the margin")
    }

    /// Five hours-long washes (three hours apart), then one from minute 900 whose progress
    /// stands at 30% from minute 20 to 70, moves, and stands at 80% from minute 80.
    private func stuckLines(history: Int) -> [String] {
        var lines = withHistory(history, then: 60).dropLast(washerCycle(start: 0, minutes: 60).count)
        let start = Double(history) * 180
        lines.append(traceLine(minute(start), ["operation_state": "run", "program": cotton, "progress": "0", "door": "locked"]))
        for minutes in stride(from: 10.0, through: 120, by: 10) {
            let progress = minutes < 20 ? 10 : minutes <= 70 ? 30 : 80
            lines.append(traceLine(minute(start + minutes), ["operation_state": "run", "program": cotton,
                                                             "progress": String(progress)]))
        }
        lines.append(traceLine(minute(start + 130), ["operation_state": "finished", "program": cotton]))
        return Array(lines)
    }

    @Test func progressStuckForLongAlertsOnceAndOnlyWithHistory() throws {
        let result = try Replay.run(settings: .washer(), lines: numbered(stuckLines(history: 5)))
        // 45 min after minute 20 of the cycle; then it runs long too (130 min against an hour).
        #expect(result.notes.first == "progress 965 anomaly: progress stuck (45 min)")
        #expect(result.notes.filter { $0.contains("stuck") }.count == 1)
        #expect(result.calls.first { $0.reason.hasPrefix("anomaly") }?.message == "No progress for 45 min")
        let none = try Replay.run(settings: .washer(), lines: numbered(stuckLines(history: 0)))
        #expect(none.notes.isEmpty)
    }

    @Test func pausedTimeIsNotAStall() throws {
        let start = 5 * 180.0
        var lines = withHistory(5, then: 60).dropLast(washerCycle(start: 0, minutes: 60).count)
        lines.append(traceLine(minute(start), ["operation_state": "run", "program": cotton, "progress": "30"]))
        for minutes in stride(from: 10.0, through: 60, by: 10) {
            lines.append(traceLine(minute(start + minutes), ["operation_state": "pause", "program": cotton, "progress": "30"]))
        }
        lines.append(traceLine(minute(start + 70), ["operation_state": "run", "program": cotton, "progress": "30"]))
        lines.append(traceLine(minute(start + 80), ["operation_state": "finished", "program": cotton]))
        let result = try Replay.run(settings: .washer(), lines: numbered(Array(lines)))
        #expect(!result.notes.contains { $0.contains("stuck") })
    }

    @Test func inQuietHoursTheAlertIsQuietAndInGermanItSaysSo() throws {
        // 22:30 UTC, in the household's quiet hours.
        let late = 14 * 60 + 30.0
        let lines = washerCycle(start: late, minutes: 90, extra: [(30, "actionrequired", "open"), (40, "run", "closed")])
        let result = try Replay.run(settings: .washer { $0.texts = .german }, lines: numbered(lines), delivery: quiet())
        let note = try #require(result.calls.first { $0.reason.hasPrefix("anomaly") })
        #expect(note.kind == .quiet)
        #expect(note.message == "Aktion erforderlich: Tür offen")
    }

    @Test func aBudgetThatRefusesTheNoteEndsItForTheCycle() throws {
        let lines = washerCycle(start: 0, minutes: 90, extra: [(30, "actionrequired", "open"), (40, "run", "closed")])
        // Room for the start and the reserved clear and end only.
        let result = try Replay.run(settings: .washer(), lines: numbered(lines), dailyLimit: 3)
        #expect(result.notes.isEmpty)
        #expect(result.effects.heldBack.filter { $0.contains("anomaly") } == ["progress anomaly: action required (door open)"])
    }

    @Test(arguments: [
        // durations (min), median, p90, late after, far late after (min); nil: too few
        ([60, 60, 60, 60, 60, 60, 60, 60, 60, 60], 60.0, 60.0, 70.0, 90.0),
        ([50, 55, 60, 60, 60, 65, 70, 80, 90, 100], 62.5, 90.0, 117.5, 172.5),
        ([200, 200, 200, 200, 200], 200.0, 200.0, 220.0, 260.0),
    ] as [([Double], Double, Double, Double, Double)])
    func usualDurationFromHistory(minutes: [Double], median: Double, p90: Double, late: Double, far: Double) throws {
        let usual = try #require(UsualDuration(durations: minutes.map { $0 * 60 }))
        #expect(usual.median / 60 == median)
        #expect(usual.p90 / 60 == p90)
        #expect(usual.lateAfter / 60 == late)
        #expect(usual.farLateAfter / 60 == far)
    }

    @Test func usualDurationNeedsFiveCyclesAndCountsTheLastTen() throws {
        #expect(UsualDuration(durations: [3600, 3600, 3600, 3600]) == nil)
        let old = Array(repeating: 36_000.0, count: 10)
        let usual = try #require(UsualDuration(durations: old + Array(repeating: 3600, count: 10)))
        #expect(usual.median == 3600)
    }
}
