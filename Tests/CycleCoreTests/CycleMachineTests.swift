import FoundationEssentials
import Testing
@testable import CycleCore

/// docs/CYCLES.md's table, its "What real appliances do", "The lost timeout" and "Restarts".
@Suite struct CycleMachineTests {
    enum WhileRunning: Sendable {
        case goesOn
        case says(String)
        /// An alerting anomaly note (docs/PUSHES.md, "Anomalies").
        case alerts(String)
        case ends(CycleOutcome, [CallKind])
    }

    @Test(arguments: [
        ("run", true, WhileRunning.goesOn),
        ("pause", true, .says("Paused")),
        ("actionrequired", true, .alerts("Action required")),
        ("delayedstart", false, .goesOn),
        ("finished", false, .ends(.finished, [.clear, .end])),
        ("ready", false, .ends(.finished, [.clear, .end])),
        ("inactive", false, .ends(.finished, [.clear, .end])),
        // An error mid-cycle may clear: the cycle runs on (docs/CYCLES.md, "Errors"; ErrorStateTests).
        ("error", false, .alerts("Error")),
        ("aborting", false, .ends(.aborted, [.clear])),
        ("unavailable", false, .goesOn),
        ("unknown", false, .goesOn),
    ])
    func tableRow(state: String, startsWhenIdle: Bool, whileRunning: WhileRunning) {
        var idle = Harness()
        let effects = idle.see(zero, states(state, progress: 5))
        #expect(effects.starts == (startsWhenIdle ? 1 : 0))
        #expect(effects.kinds == (startsWhenIdle ? [.start] : []))

        var running = Harness()
        running.see(zero, states("run", progress: 5))
        let later = running.see(minute(10), states(state, progress: 5))
        #expect(later.starts == 0)
        switch whileRunning {
        case .goesOn:
            #expect(later.calls.isEmpty)
            #expect(later.outcomes.isEmpty)
            #expect(running.tracker.cycle != nil)
        case .says(let message):
            #expect(later.calls.map(\.message) == [message])
            #expect(later.kinds == [.quiet])
            #expect(running.tracker.cycle != nil)
        case .alerts(let message):
            #expect(later.calls.map(\.message) == [message])
            #expect(later.kinds == [.progress])
            #expect(running.tracker.cycle != nil)
        case .ends(let outcome, let kinds):
            #expect(later.outcomes == [outcome])
            #expect(later.kinds == kinds)
            #expect(running.tracker.cycle == nil)
        }
    }

    @Test func unrecognisedStateWarnsAndThePreviousStateStands() {
        var harness = Harness()
        harness.see(zero, states("run", progress: 5))
        let effects = harness.see(minute(10), states("spinning", progress: 12))
        #expect(effects.contains(.warning("unrecognised operation state 'spinning': previous state stands")))
        // The line's other values still count: progress 12 crossed the step at 10.
        #expect(effects.calls.map(\.reason) == ["step 10"])
        #expect(harness.tracker.cycle != nil)

        var idle = Harness()
        let idleEffects = idle.see(zero, states("spinning", progress: 12))
        #expect(idleEffects == [.warning("unrecognised operation state 'spinning': previous state stands")])
    }

    @Test func whileTheOperationStateIsUnavailableTheOtherValuesAreIgnored() {
        var harness = Harness()
        harness.see(zero, states("run", progress: 5, finish: finishA))
        #expect(harness.see(minute(10), states("unavailable", progress: 50, finish: "2026-11-02T13:00:00+00:00",
                                               program: "dishcare_dishwasher_program_auto_2")).isEmpty)
        let back = harness.see(minute(11), states("run", progress: 6, finish: finishA))
        #expect(back.isEmpty)
        #expect(harness.tracker.cycle?.maxProgress == 6)
    }

    @Test func progressGoingUnavailableKeepsTheLastReported() {
        var harness = Harness()
        harness.see(zero, states("run", progress: 40, finish: finishA))
        let moved = harness.see(minute(10), states("run", finish: "2026-11-02T12:00:00+00:00")).calls
        #expect(moved.map(\.progress) == [40])
    }

    @Test func handleIsObserveAndAdvance() {
        var direct = ApplianceTracker(settings: .dishwasher())
        var viaEvents = direct
        let observation = Observation(at: zero, raw: states("run"))
        #expect(direct.observe(observation, budget: DailyBudget())
            == viaEvents.handle(.observed(observation), budget: DailyBudget()))
        let ticked = direct.advance(to: minute(30), budget: DailyBudget(openCycles: 1))
        #expect(ticked.calls.count == 1)
        #expect(ticked == viaEvents.handle(.tick(minute(30)), budget: DailyBudget(openCycles: 1)))
    }

    @Test func cycleProgramIsTheFirstKnownWhileRunning() {
        var harness = Harness()
        harness.see(zero, states("run", program: nil))
        harness.see(minute(1), states("run", program: eco50))
        harness.see(minute(2), states("run", program: "dishcare_dishwasher_program_auto_2"))
        #expect(harness.tracker.cycle?.program == eco50)
    }

    @Test func quirk1ProgressJumpsGoesBackAndTheEndComesFromTheState() {
        var harness = Harness()
        harness.see(zero, states("run", progress: 0))
        let jump = harness.see(minute(5), states("run", progress: 100))
        #expect(jump.calls.map(\.reason) == ["step 98"])
        #expect(harness.see(minute(6), states("run", progress: 97)).calls.isEmpty)
        #expect(harness.see(minute(7), states("run", progress: 100)).calls.isEmpty)
        #expect(harness.tracker.cycle != nil)
        #expect(harness.see(minute(8), states("finished", progress: 100)).outcomes == [.finished])
    }

    @Test func quirk2RemainingTimeSticksThenTheStateFlips() {
        var harness = Harness()
        harness.see(zero, states("run", progress: 96, finish: "2026-11-02T08:30:00+00:00"))
        for minutes in stride(from: 28.0, through: 33, by: 1) {
            #expect(harness.see(minute(minutes), states("run", progress: 97, finish: "2026-11-02T08:30:00+00:00")).calls.isEmpty)
        }
        #expect(harness.see(minute(34), states("ready", program: nil)).kinds == [.clear, .end])
    }

    @Test func quirk3FinishTimeMovesDuringTheCycleAndAgainAtTheEnd() {
        var harness = Harness()
        harness.see(zero, states("run", progress: 20, finish: finishA))
        let moved = harness.see(minute(30), states("run", progress: 25, finish: "2026-11-02T11:49:00+00:00"))
        #expect(moved.calls.map(\.reason) == ["finish time"])
        #expect(moved.calls.first?.when == 1_793_620_140)
        let end = harness.see(minute(200), states("finished", progress: 100, finish: "2026-11-02T11:20:00+00:00"))
        #expect(end.kinds == [.clear, .end])
    }

    @Test func quirk4NoProgressNoFinishStillStartsEndsAndHeartbeats() {
        var harness = Harness()
        #expect(harness.see(zero, states("run")).kinds == [.start])
        let ticks = harness.tick(minute(60))
        #expect(ticks.calls.map(\.at) == [minute(25), minute(50)])
        #expect(ticks.calls.allSatisfy { $0.when == nil && $0.progress == nil })
        #expect(harness.see(minute(61), states("ready")).kinds == [.clear, .end])
    }

    @Test func quirk5FinishedForHoursThenReadyIsOneEnd() {
        var harness = Harness()
        harness.see(zero, states("run", progress: 50, finish: finishA))
        #expect(harness.see(minute(60), states("finished", progress: 100)).kinds == [.clear, .end])
        #expect(harness.see(minute(180), states("finished", progress: 100)).isEmpty)
        #expect(harness.see(minute(181), states("ready")).isEmpty)
    }

    @Test func quirk5RunUnavailableReadySkipsFinished() {
        var harness = Harness()
        harness.see(zero, states("run", progress: 50, finish: finishA))
        #expect(harness.see(minute(60), states("unavailable", program: nil)).isEmpty)
        let end = harness.see(minute(62), states("ready"))
        #expect(end.outcomes == [.finished])
        #expect(end.kinds == [.clear, .end])
    }

    @Test func quirk6ReconnectMidCycleGoesOnWithoutANewStart() {
        var harness = Harness()
        harness.see(zero, states("run", progress: 30, finish: finishA))
        #expect(harness.see(minute(20), [:]).isEmpty)
        let back = harness.see(minute(23), states("run", progress: 33, finish: finishA))
        #expect(back.starts == 0)
        #expect(back.calls.isEmpty)
        #expect(harness.all.starts == 1)
        #expect(harness.tracker.cycle?.startedAt == zero)
    }

    @Test func quirk7StaleFinishedStartsNothing() {
        var harness = Harness()
        #expect(harness.see(zero, states("finished", progress: 100)).isEmpty)
        #expect(harness.see(minute(1), states("unavailable")).isEmpty)
        #expect(harness.see(minute(2), states("finished", progress: 100)).isEmpty)
        #expect(harness.tracker.cycle == nil)
    }

    @Test func quirk8DelayedStartBeginsTheCycleAtRun() {
        var harness = Harness()
        #expect(harness.see(zero, states("delayedstart", program: nil)).isEmpty)
        let run = harness.see(minute(120), states("run", progress: 0, finish: finishA))
        #expect(run.starts == 1)
        #expect(harness.tracker.cycle?.startedAt == minute(120))
        // Once running, delayedstart is an ordinary update: the cycle goes on.
        harness.see(minute(121), states("delayedstart", program: nil))
        #expect(harness.tracker.cycle != nil)
    }

    @Test func quirk9FastProgressIsBoundedByTheSteps() {
        var harness = Harness()
        harness.see(zero, states("run", progress: 0))
        for tenth in 1...600 {
            harness.see(at(Double(tenth) / 10), states("run", progress: tenth / 6))
        }
        harness.see(at(61), states("ready"))
        #expect(harness.calls.count <= 18)
        #expect(harness.calls.count >= 4)
    }

    @Test func quirk10TwoAppliancesFinishingTogetherEachClearAndEnd() {
        var dishwasher = Harness()
        var washer = Harness(.dishwasher { $0.id = "washer"; $0.name = "Washer" })
        dishwasher.see(zero, states("run", progress: 50, finish: finishA))
        washer.see(zero, states("run", progress: 50, finish: finishA, program: "laundry_care_washer_program_cotton"))
        let first = dishwasher.see(minute(60), states("finished"))
        let second = washer.see(at(3602), states("finished"))
        #expect(first.kinds == [.clear, .end])
        #expect(second.kinds == [.clear, .end])
        #expect(second.calls.first?.extra["mobile_push_notification_tag"] == .string("appliance_washer"))
    }

    @Test func lostEndsAtExactlyUnavailableSincePlusLostAfter() {
        var harness = Harness(.dishwasher { $0.lostAfterMinutes = 60 })
        harness.see(zero, states("run", progress: 30, finish: finishA))
        harness.see(minute(10), states("unknown"))
        harness.see(minute(40), [:])
        #expect(harness.tracker.nextDeadline == ApplianceTracker.Deadline(source: .lost, at: minute(70)))
        #expect(harness.tick(at(70 * 60 - 1)).isEmpty)
        let lost = harness.tick(minute(90))
        #expect(lost.outcomes == [.lost])
        #expect(lost.kinds == [.clear])
        #expect(lost.calls.first?.at == minute(70))
        #expect(lost.calls.first?.message == "Dishwasher stopped reporting")
        #expect(lost.contains(.cycleEnded(at: minute(70), outcome: .lost)))
    }

    @Test func comingBackAtTheLostMomentKeepsTheCycle() {
        var harness = Harness(.dishwasher { $0.lostAfterMinutes = 60 })
        harness.see(zero, states("run", progress: 30))
        harness.see(minute(10), [:])
        let back = harness.see(minute(70), states("run", progress: 31))
        #expect(back.outcomes.isEmpty)
        #expect(harness.tracker.cycle != nil)
        #expect(harness.tracker.nextDeadline?.at != minute(70))
    }

    @Test func restartFromASnapshotCarriesOn() throws {
        var before = Harness()
        before.see(zero, states("run", progress: 5, finish: finishA))
        before.see(minute(20), states("run", progress: 12, finish: finishA))
        let data = try JSONEncoder().encode(before.tracker.snapshot)
        let snapshot = try JSONDecoder().decode(ApplianceTracker.Snapshot.self, from: data)
        #expect(snapshot == before.tracker.snapshot)

        var after = Harness(restoring: snapshot)
        #expect(after.tracker.cycle == before.tracker.cycle)
        let goingOn = after.see(minute(40), states("run", progress: 21, finish: finishA))
        #expect(goingOn.starts == 0)
        #expect(goingOn.calls.map(\.reason) == ["step 20"])
        let idle = after.see(minute(90), states("inactive", program: nil))
        #expect(idle.kinds == [.clear, .end])
        #expect(after.see(minute(91), states("inactive", program: nil)).isEmpty)
    }

    @Test func restartFindingTheApplianceFinishedEndsTheCycleNow() throws {
        var before = Harness()
        before.see(zero, states("run", progress: 50, finish: finishA))
        let data = try JSONEncoder().encode(before.tracker.snapshot)
        var after = Harness(restoring: try JSONDecoder().decode(ApplianceTracker.Snapshot.self, from: data))
        let effects = after.see(minute(300), states("finished", progress: 100))
        #expect(effects.kinds == [.clear, .end])
        #expect(effects.starts == 0)
        #expect(effects.contains(.cycleEnded(at: minute(300), outcome: .finished)))
    }
}
