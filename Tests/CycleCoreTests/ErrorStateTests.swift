import FoundationEssentials
import Testing
@testable import CycleCore

/// docs/CYCLES.md, "Errors", and docs/PUSHES.md, "Anomalies": an `error` mid-cycle is one
/// alerting note with its reason; it ends the cycle only when the appliance leaves it without
/// running again, or when it lasts `lost_after_minutes`.
@Suite struct ErrorStateTests {
    /// What follows a running cycle's error: the next states (each 10 minutes after the last,
    /// the error at minute 10), the calls from the error on (kind and reason), and the outcome
    /// (nil: the cycle still runs).
    @Test(arguments: [
        // Recovered: one alerting note, then one quiet update when it runs again.
        (["run"], ["progress anomaly: error", "quiet resume"], nil),
        (["error", "run"], ["progress anomaly: error", "quiet resume"], nil),
        // Paused after the error: the ordinary quiet update.
        (["pause"], ["progress anomaly: error", "quiet pause"], nil),
        // Left for ready or off without running again: failed, a clear and no end notification.
        (["ready"], ["progress anomaly: error", "clear clear: failed"], CycleOutcome.failed),
        (["inactive"], ["progress anomaly: error", "clear clear: failed"], .failed),
        // Ran again, then ready: an ordinary end (Home Connect's ready after run).
        (["run", "ready"], ["progress anomaly: error", "quiet resume", "clear clear: finished", "end end: finished"],
         .finished),
        // The appliance's own end state after the error: finished; aborting: aborted.
        (["finished"], ["progress anomaly: error", "clear clear: finished", "end end: finished"], .finished),
        (["aborting"], ["progress anomaly: error", "clear clear: aborted"], .aborted),
        // A second error in the same cycle: the ordinary quiet update ("Error"), not a second alert.
        (["run", "error", "run"], ["progress anomaly: error", "quiet resume", "quiet error", "quiet resume"], nil),
    ] as [([String], [String], CycleOutcome?)])
    func afterAnError(then: [String], calls: [String], outcome: CycleOutcome?) {
        var harness = Harness()
        harness.see(zero, states("run", progress: 5))
        var effects = harness.see(minute(10), states("error", progress: 5))
        for (index, state) in then.enumerated() {
            effects += harness.see(minute(Double(index + 2) * 10), states(state, progress: 6))
        }
        #expect(effects.calls.map { "\($0.kind.rawValue) \($0.reason)" } == calls)
        #expect(effects.outcomes == (outcome.map { [$0] } ?? []))
        #expect((harness.tracker.cycle == nil) == (outcome != nil))
    }

    @Test func theNoteNamesTheApplianceAndTheDoorAndTheActivityShowsIt() throws {
        var harness = Harness()
        harness.see(zero, states("run", progress: 5, finish: finishA))
        var open = states("error", progress: 5, finish: finishA)
        open[.door] = "open"
        let note = try #require(harness.see(minute(10), open).calls.first)
        #expect(note.kind == .progress)
        #expect(note.reason == "anomaly: error (door open)")
        #expect(note.message == "Error: door open")
        #expect(note.body["title"] == .string("Dishwasher"))
        #expect(note.extra["live_update"] == .bool(true), "an update of the Live Activity")
        #expect(note.when == nil, "no countdown while in error")
        var closed = states("run", progress: 6, finish: finishA)
        closed[.door] = "closed"
        let back = harness.see(minute(20), closed).calls
        #expect(back.map(\.kind) == [.quiet])
        #expect(back.first?.when != nil, "the countdown again")
    }

    @Test func anErrorLastingTheLostTimeoutEndsTheCycleFailedAtThatDeadline() {
        var harness = Harness(.dishwasher { $0.lostAfterMinutes = 60 })
        harness.see(zero, states("run", progress: 5))
        harness.see(minute(10), states("error", progress: 5))
        // Unavailable after the error: the error's own clock still counts from minute 10.
        harness.see(minute(30), states("unavailable"))
        #expect(harness.tick(minute(69)).outcomes.isEmpty)
        let ended = harness.tick(minute(70))
        #expect(ended.outcomes == [.failed])
        #expect(ended.calls.map(\.reason) == ["clear: failed"])
        #expect(harness.tracker.cycle == nil)
    }

    @Test func runningAgainStopsTheErrorClock() {
        var harness = Harness(.dishwasher { $0.lostAfterMinutes = 60 })
        harness.see(zero, states("run", progress: 5))
        harness.see(minute(10), states("error", progress: 5))
        harness.see(minute(20), states("run", progress: 6))
        #expect(harness.tick(minute(200)).outcomes.isEmpty)
        #expect(harness.tracker.cycle != nil)
    }

    @Test func anErrorWhileIdleStartsNothing() {
        var harness = Harness()
        #expect(harness.see(zero, states("error")).isEmpty)
        #expect(harness.see(minute(10), states("ready")).isEmpty)
    }

    @Test func switchedOffTheErrorIsAQuietUpdate() {
        var harness = Harness(.dishwasher { $0.anomalyNotes = false })
        harness.see(zero, states("run", progress: 5))
        let effects = harness.see(minute(10), states("error", progress: 5))
        #expect(effects.calls.map { "\($0.kind.rawValue) \($0.reason) \($0.message ?? "-")" } == ["quiet error Error"])
    }
}
