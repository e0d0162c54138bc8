import FoundationEssentials
import Testing
@testable import CycleCore

/// docs/PUSHES.md's "Budget", "Progress steps" and "Timing".
@Suite struct PushPlannerTests {
    // MARK: Per-cycle budget

    @Test func tooManyStepsAreThinnedToTheCycleLimit() {
        let settings = ApplianceSettings.dishwasher { $0.steps = .regular(step: 1, fineFrom: 100, fineStep: 1) }
        var harness = Harness(settings)
        harness.see(zero, states("run", progress: 0, finish: finishA))
        for percent in 1...99 { harness.see(minute(Double(percent)), states("run", progress: percent, finish: finishA)) }
        harness.see(minute(100), states("finished", progress: 100))
        #expect(harness.calls.count == 18)
        #expect(harness.calls.filter { $0.kind == .quiet }.count == 15)
        #expect(harness.tracker.droppedSteps.count == 99 - 15)
        #expect(harness.calls.suffix(2).map(\.kind) == [.clear, .end])
    }

    @Test func clearAndEndKeepTheirSlotsEvenWithNotifyEndOff() {
        let settings = ApplianceSettings.dishwasher { $0.cyclePushLimit = 6; $0.notifyEnd = false; $0.steps = .at([30, 60, 90]) }
        var harness = Harness(settings)
        harness.see(zero, states("run", progress: 0, finish: finishA))
        // Three slots, three steps ahead: a finish-time move can't have one.
        let move = harness.see(minute(5), states("run", progress: 5, finish: "2026-11-02T12:00:00+00:00"))
        #expect(move == [.heldBack(kind: .quiet, at: minute(5), reason: "finish time")])
        // The same news isn't reported twice.
        #expect(harness.see(minute(6), states("run", progress: 6, finish: "2026-11-02T12:00:00+00:00")).isEmpty)
        // The step takes the slot and carries the held-back finish time.
        let step = harness.see(minute(30), states("run", progress: 30, finish: "2026-11-02T12:00:00+00:00")).calls
        #expect(step.map(\.reason) == ["step 30"])
        #expect(step.first?.when == 1_793_620_800)
        harness.see(minute(60), states("run", progress: 60, finish: "2026-11-02T12:00:00+00:00"))
        harness.see(minute(90), states("run", progress: 90, finish: "2026-11-02T12:00:00+00:00"))
        let noSlot = harness.see(minute(95), states("pause", progress: 95, finish: "2026-11-02T12:00:00+00:00"))
        #expect(noSlot.heldBack == ["quiet pause"])
        harness.see(minute(100), states("finished"))
        #expect(harness.calls.map(\.kind) == [.start, .quiet, .quiet, .quiet, .clear])
    }

    @Test func aPauseTakesAnyFreeSlotButOtherNewsOnlySpareOnes() {
        let settings = ApplianceSettings.dishwasher { $0.cyclePushLimit = 7; $0.steps = .at([50, 90]) }
        var harness = Harness(settings)
        harness.see(zero, states("run", progress: 0, finish: finishA))
        // Four slots, two steps ahead: two spare.
        #expect(harness.see(minute(5), states("run", progress: 5, finish: "2026-11-02T12:00:00+00:00")).calls.count == 1)
        #expect(harness.see(minute(10), states("run", progress: 6, finish: finishA)).calls.count == 1)
        // Two slots for two steps: nothing spare, yet the pause goes out.
        #expect(harness.see(minute(15), states("run", progress: 7, finish: "2026-11-02T12:30:00+00:00")).heldBack == ["quiet finish time"])
        #expect(harness.see(minute(20), states("pause", progress: 7, finish: finishA)).calls.map(\.message) == ["Paused"])
    }

    @Test func stepsAreAheadOnlyOnceProgressWasReported() {
        let settings = ApplianceSettings.dishwasher { $0.cyclePushLimit = 5 }
        var harness = Harness(settings)
        harness.see(zero, states("run", program: nil))
        // Two slots; no progress ever reported, so no steps to protect.
        #expect(harness.see(minute(1), states("run")).calls.map(\.reason) == ["program"])
    }

    // MARK: Daily budget

    @Test(arguments: [
        ("start", 397, 0, true), ("start", 398, 0, false), ("start", 393, 2, true), ("start", 394, 2, false),
        ("quiet start", 397, 0, true), ("quiet start", 398, 0, false),
        ("quiet", 357, 0, true), ("quiet", 358, 0, false), ("quiet", 355, 1, true), ("quiet", 356, 1, false),
        ("progress", 397, 0, true), ("progress", 398, 0, false),
        ("end", 398, 0, true), ("end", 399, 0, false),
        ("clear", 400, 0, true), ("clear", 520, 3, true),
    ])
    func dailyThresholds(kind: String, usedToday: Int, otherOpenCycles: Int, sent: Bool) {
        var harness = Harness(.dishwasher {
            $0.notifyStart = kind != "quiet start"
            $0.notifyProgress = kind == "progress"
        })
        harness.budget.openCycles = otherOpenCycles
        if kind.hasSuffix("start") {
            harness.budget.usedToday = usedToday
            let effects = harness.see(zero, states("run", progress: 0, finish: finishA))
            #expect(effects.calls.count == (sent ? 1 : 0))
            #expect(effects.starts == 1)
            #expect(harness.tracker.cycle?.silent == !sent)
            return
        }
        harness.see(zero, states("run", progress: 0, finish: finishA))
        harness.budget.usedToday = usedToday
        switch kind {
        case "quiet", "progress":
            let effects = harness.see(minute(10), states("run", progress: 10, finish: finishA))
            #expect(effects.calls.count == (sent ? 1 : 0))
            #expect(effects.heldBack == (sent ? [] : ["\(kind) step 10"]))
        default:
            let effects = harness.see(minute(10), states("finished", progress: 10))
            #expect(effects.calls.filter { $0.kind.rawValue == kind }.count == (sent ? 1 : 0))
            #expect(effects.calls.first?.kind == .clear)
        }
    }

    @Test func heldBackUpdatesAreNotLost() {
        var harness = Harness()
        harness.see(zero, states("run", progress: 0, finish: finishA))
        harness.budget.usedToday = 390
        #expect(harness.see(minute(10), states("run", progress: 10, finish: finishA)).heldBack == ["quiet step 10"])
        #expect(harness.see(minute(20), states("run", progress: 15, finish: finishA)).isEmpty)
        harness.budget.usedToday = 0
        let carried = harness.see(minute(30), states("run", progress: 17, finish: finishA)).calls
        #expect(carried.map(\.reason) == ["step 10"])
        #expect(carried.first?.progress == 17)
    }

    @Test func aSilentCycleIsTrackedButSendsNothing() {
        var harness = Harness()
        harness.budget.usedToday = 399
        let start = harness.see(zero, states("run", progress: 0, finish: finishA))
        #expect(start == [.cycleStarted(at: zero, program: eco50), .heldBack(kind: .start, at: zero, reason: "start")])
        #expect(harness.tracker.cycle?.silent == true)
        harness.budget.usedToday = 0
        #expect(harness.see(minute(10), states("run", progress: 50)).isEmpty)
        #expect(harness.tracker.nextDeadline == nil)
        let end = harness.see(minute(60), states("finished"))
        #expect(end == [.cycleEnded(at: minute(60), outcome: .finished)])
    }

    @Test func callsWithinOneAdvanceCountAgainstTheBudgetGiven() {
        var tracker = ApplianceTracker(settings: .dishwasher())
        _ = tracker.observe(Observation(at: zero, raw: states("run")), budget: DailyBudget())
        // 42 left and one open cycle: the first heartbeat is the last quiet call the day allows.
        let effects = tracker.advance(to: minute(60), budget: DailyBudget(usedToday: 357, openCycles: 1))
        #expect(effects.calls.map(\.at) == [minute(25)])
        #expect(effects.heldBack == ["quiet heartbeat"])
    }

    // MARK: Steps

    @Test func progressGoingBackIsShownButNeverRetriggersAStep() {
        var harness = Harness()
        harness.see(zero, states("run", progress: 0, finish: finishA))
        #expect(harness.see(minute(10), states("run", progress: 21, finish: finishA)).calls.map(\.reason) == ["step 20"])
        #expect(harness.see(minute(11), states("run", progress: 19, finish: finishA)).isEmpty)
        #expect(harness.see(minute(12), states("run", progress: 21, finish: finishA)).isEmpty)
        harness.see(minute(13), states("run", progress: 19, finish: finishA))
        let moved = harness.see(minute(14), states("run", progress: 19, finish: "2026-11-02T12:00:00+00:00")).calls
        #expect(moved.map(\.progress) == [19])
    }

    @Test func notifyProgressSendsProgressForTensAndQuietForFineSteps() {
        var harness = Harness(.dishwasher { $0.notifyProgress = true })
        harness.see(zero, states("run", progress: 0, finish: finishA))
        let jump = harness.see(minute(10), states("run", progress: 35, finish: finishA)).calls
        #expect(jump.map(\.kind) == [.progress])
        #expect(jump.map(\.message) == ["30% complete"])
        let fine = harness.see(minute(60), states("run", progress: 92, finish: finishA)).calls
        #expect(fine.map(\.kind) == [.progress])
        #expect(fine.map(\.message) == ["90% complete"])
        let finer = harness.see(minute(70), states("run", progress: 94, finish: finishA)).calls
        #expect(finer.map(\.kind) == [.quiet])
        #expect(harness.calls.filter { $0.kind == .progress }.count == 2)
    }

    @Test func notifyStartOffSendsTheStartQuietly() {
        var harness = Harness(.dishwasher { $0.notifyStart = false })
        let start = harness.see(zero, states("run", progress: 0, finish: finishA)).calls
        #expect(start.map(\.kind) == [.quiet])
        #expect(start.map(\.reason) == ["start"])
        #expect(start.first?.message == "Dishwasher started: Eco 50°C")
        #expect(start.first?.body["delivery"] == .array([.string("mobile_push")]))
        #expect(start.first?.extra["silent"] == .bool(true))
        #expect(start.first?.extra["alert_once"] == .bool(true))
    }

    // MARK: Timing

    @Test func theFirstUpdateWaitsForSettling() {
        var harness = Harness()
        harness.see(zero, states("run", progress: 0, finish: finishA))
        #expect(harness.see(at(10), states("run", progress: 10, finish: finishA)).isEmpty)
        #expect(harness.tracker.nextDeadline == ApplianceTracker.Deadline(source: .update, at: at(30)))
        harness.see(at(20), states("run", progress: 12, finish: finishA))
        let settled = harness.tick(at(45)).calls
        #expect(settled.map(\.at) == [at(30)])
        #expect(settled.map(\.progress) == [12])
    }

    @Test func updatesAreCoalescedAndTheLatestStateGoesOutAtTheDueTime() {
        var harness = Harness()
        harness.see(zero, states("run", progress: 0, finish: finishA))
        #expect(harness.see(at(60), states("run", progress: 10, finish: finishA)).calls.count == 1)
        #expect(harness.see(at(65), states("run", progress: 20, finish: finishA)).isEmpty)
        #expect(harness.tracker.nextDeadline == ApplianceTracker.Deadline(source: .update, at: at(75)))
        #expect(harness.see(at(70), states("run", progress: 31, finish: finishA)).isEmpty)
        let due = harness.see(at(90), states("run", progress: 32, finish: finishA)).calls
        #expect(due.map(\.at) == [at(75)])
        #expect(due.map(\.progress) == [31])
        #expect(due.map(\.reason) == ["step 30"])
    }

    @Test func anUpdateDueAtTheEndMomentIsDropped() {
        var harness = Harness()
        harness.see(zero, states("run", progress: 0, finish: finishA))
        harness.see(at(60), states("run", progress: 10, finish: finishA))
        harness.see(at(65), states("run", progress: 20, finish: finishA))
        let end = harness.see(at(75), states("finished", progress: 20))
        #expect(end.kinds == [.clear, .end])
        #expect(harness.tracker.nextDeadline == nil)
    }

    @Test func finishTimeMovesUnderTheJitterAreNotNews() {
        // A single step leaves spare slots for every finish-time move.
        var harness = Harness(.dishwasher { $0.steps = .at([50]) })
        harness.see(zero, states("run", progress: 1, finish: finishA))
        #expect(harness.see(minute(5), states("run", progress: 1, finish: "2026-11-02T11:37:59+00:00")).isEmpty)
        #expect(harness.see(minute(6), states("run", progress: 1, finish: "2026-11-02T11:38:59+00:00")).isEmpty)
        let moved = harness.see(minute(7), states("run", progress: 1, finish: "2026-11-02T11:39:00+00:00")).calls
        #expect(moved.map(\.reason) == ["finish time"])
        let gone = harness.see(minute(8), states("run", progress: 1)).calls
        #expect(gone.map(\.reason) == ["finish time"])
        #expect(gone.first?.when == nil)
        #expect(harness.see(minute(9), states("run", progress: 1, finish: finishA)).calls.map(\.reason) == ["finish time"])
    }

    @Test func finishTimeMovesWhilePausedAreNotNewsAndTheResumeBringsThem() {
        var harness = Harness()
        harness.see(zero, states("run", progress: 10, finish: finishA))
        #expect(harness.see(minute(1), states("pause", progress: 10, finish: finishA)).calls.map(\.reason) == ["pause"])
        #expect(harness.see(minute(20), states("pause", progress: 10, finish: "2026-11-02T11:56:00+00:00")).isEmpty)
        let resume = harness.see(minute(21), states("run", progress: 10, finish: "2026-11-02T11:57:00+00:00")).calls
        #expect(resume.map(\.reason) == ["resume"])
        #expect(resume.first?.when == finishAUnix + 20 * 60)
        // An anomaly note (docs/PUSHES.md, "Anomalies"), in the place of the quiet update.
        #expect(harness.see(minute(22), states("actionrequired", progress: 10)).calls.map(\.reason) == ["anomaly: action required"])
    }

    @Test func temperatureMovesByTheStepAreNews() {
        var harness = Harness(.dishwasher { $0.name = "Oven" })
        let oven = "cooking_oven_program_heating_mode_hot_air"
        harness.see(zero, states("run", program: oven, temperature: 28))
        #expect(harness.see(minute(1), states("run", program: oven, temperature: 47.9)).isEmpty)
        let hot = harness.see(minute(2), states("run", program: oven, temperature: 48)).calls
        #expect(hot.map(\.reason) == ["temperature"])
        #expect(hot.map(\.message) == ["Hot air · 48°C"])
        #expect(harness.see(minute(3), states("run", program: oven, temperature: 28)).calls.map(\.reason) == ["temperature"])
    }

    @Test func aTemperatureMerelyAppearingIsNotNews() {
        var harness = Harness()
        harness.see(zero, states("run", finish: finishA))
        #expect(harness.see(minute(1), states("run", finish: finishA, temperature: 100)).isEmpty)
        #expect(harness.see(minute(2), states("run", finish: finishA, temperature: 119)).isEmpty)
        #expect(harness.see(minute(3), states("run", finish: finishA, temperature: 120)).calls.map(\.reason) == ["temperature"])
    }

    @Test func heartbeatsAtExactlyTheLastLiveCallPlusTheInterval() {
        var harness = Harness(.dishwasher { $0.steps = .at([10, 50]) })
        harness.see(zero, states("run", progress: 0))
        #expect(harness.tracker.nextDeadline == ApplianceTracker.Deadline(source: .update, at: minute(25)))
        harness.see(minute(30), states("run", progress: 12))
        #expect(harness.calls.map(\.at) == [zero, minute(25), minute(30)])
        #expect(harness.tracker.nextDeadline == ApplianceTracker.Deadline(source: .update, at: minute(55)))
        #expect(harness.tick(minute(55)).calls.map(\.reason) == ["heartbeat"])
        // With a finish time sent, no heartbeat: only the Live Activity's replacement, 7 h 45 min in.
        harness.see(minute(60), states("run", progress: 13, finish: finishA))
        #expect(harness.tracker.nextDeadline == ApplianceTracker.Deadline(source: .renewal, at: minute(465)))
        #expect(harness.tick(minute(200)).isEmpty)
    }

    @Test func noHeartbeatWhileUnavailable() {
        var harness = Harness()
        harness.see(zero, states("run", progress: 0))
        harness.see(minute(10), [:])
        #expect(harness.tracker.nextDeadline == ApplianceTracker.Deadline(source: .lost, at: minute(370)))
        #expect(harness.tick(minute(60)).isEmpty)
        let back = harness.see(minute(61), states("run", progress: 5))
        #expect(back.calls.map(\.reason) == ["heartbeat"])
        #expect(back.calls.map(\.at) == [minute(61)])
    }

    @Test func aCycleFirstSeenPausedSaysSoAfterSettling() {
        var harness = Harness()
        let start = harness.see(zero, states("pause", progress: 40, finish: finishA)).calls
        #expect(start.map(\.kind) == [.start])
        #expect(start.first?.when == nil)
        #expect(harness.tick(at(30)).calls.map(\.message) == ["Paused"])
    }
}
