import FoundationEssentials
import Testing
@testable import CycleCore

/// A dishwasher cycle of `program` starting at `start` minutes whose appliance says it
/// takes 60 minutes (HA's finish time drifting by seconds) and which ends `over`
/// minutes after that.
func overrunningCycle(start: Double, over: Double, program: String = eco50) -> [String] {
    var lines: [String] = []
    for offset in stride(from: 0.0, through: 50, by: 10) {
        let finish = ISOTime.format(minute(start + 60).addingTimeInterval(offset / 10))
        lines.append(traceLine(minute(start + offset), [
            "operation_state": "run", "program": program, "progress": String(NumberText.int(offset * 100 / 60, .down) ?? 0), "finish_time": finish,
        ]))
    }
    lines.append(traceLine(minute(start + 60 + over), ["operation_state": "finished", "program": program]))
    return lines
}

/// Whole Unix seconds, as `when` carries them.
func unix(_ date: Date) -> Int? { NumberText.int(date.timeIntervalSince1970, .down) }

/// docs/PUSHES.md, "Finish-time correction".
@Suite struct FinishCorrectionTests {
    @Test(arguments: [
        ([], nil), ([480.0], nil), ([480.0, 480], nil), ([480.0, 480, 480], 480),
        ([470.0, 490, 480, 5_400], 485), ([480.0, -3_000, 480, 500, 7_200], 480),
    ] as [([Double], Double?)])
    func theMedianOfThreeOrMore(errors: [Double], learned: Double?) {
        #expect(FinishCorrection.learned(from: errors) == learned)
    }

    @Test func theShiftIsBoundedAndKeepsItsDirection() {
        let first = minute(60)
        // Early in the cycle: the whole 8 minutes.
        #expect(FinishCorrection.shown(reported: first, firstReported: first, learned: 480, at: zero) == minute(68))
        // 10 minutes left: at most 2.5 of them.
        #expect(FinishCorrection.shown(reported: first, firstReported: first, learned: 480, at: minute(50)) == at(60 * 60 + 150))
        // The appliance moved its estimate 5 minutes later by itself: 3 are left to add.
        #expect(FinishCorrection.shown(reported: minute(65), firstReported: first, learned: 480, at: zero) == minute(68))
        // ... or 10 minutes later: nothing is taken off.
        #expect(FinishCorrection.shown(reported: minute(70), firstReported: first, learned: 480, at: zero) == minute(70))
        // Programs that end early are shown earlier, bounded the same way.
        #expect(FinishCorrection.shown(reported: first, firstReported: first, learned: -300, at: zero) == minute(55))
        #expect(FinishCorrection.shown(reported: first, firstReported: first, learned: -300, at: minute(56)) == minute(59))
        // Past the reported finish there is no time left to shift by.
        #expect(FinishCorrection.shown(reported: first, firstReported: first, learned: 480, at: minute(61)) == first)
    }

    @Test func aProgramThatAlwaysRunsEightMinutesOverIsShownSoFromTheFourthCycle() throws {
        var lines: [String] = []
        for cycle in 0..<4 { lines += overrunningCycle(start: Double(cycle) * 120, over: 8) }
        let result = try Replay.run(settings: .dishwasher(), lines: numbered(lines))
        let starts = result.calls.filter { $0.reason == "start" }
        let expected: [Int?] = [60.0, 180, 300, 428].map { unix(minute($0)) }
        #expect(starts.map(\.when) == expected)
        // The shifted time rides on the step updates: no extra call for it here.
        #expect(Set(result.cycles.map(\.calls.count)).count == 1)
        let last = result.cycles[3].calls.filter { $0.kind == .quiet }
        let reported = try #require(unix(minute(360 + 60)))
        #expect(last.allSatisfy { ($0.when ?? 0) > reported })
    }

    @Test func historyFromTheStoreCountsFromTheFirstCycleAndTheSwitchTurnsItOff() throws {
        let history = FinishHistory(errors: [eco50: [480, 480, 480]])
        let lines = overrunningCycle(start: 0, over: 8)
        let corrected = try Replay.run(settings: .dishwasher(), lines: numbered(lines), history: history)
        #expect(corrected.calls.first?.when == unix(minute(68)))
        let off = try Replay.run(settings: .dishwasher { $0.finishCorrection = false }, lines: numbered(lines), history: history)
        #expect(off.calls.first?.when == unix(minute(60)))
        // Another program's history changes nothing.
        let other = FinishHistory(errors: ["dishcare_dishwasher_program_intensiv_70": [480, 480, 480]])
        let unchanged = try Replay.run(settings: .dishwasher(), lines: numbered(lines), history: other)
        #expect(unchanged.calls == off.calls)
    }

    @Test func switchedOffWhileTheCycleRunsTheNextCallShowsTheAppliancesOwnFinish() throws {
        // `finish_correction` is tunable (the API, HA's switch): a `retuned` event carries it.
        var household = Household(dailyLimit: 400)
        let settings = ApplianceSettings.dishwasher()
        household.follow(settings, history: FinishHistory(errors: [eco50: [480, 480, 480]]))
        let observations = try Replay.observations(lines: numbered(overrunningCycle(start: 0, over: 8))).observations
        func calls(_ steps: [Household.Step]) -> [SupernotifyCall] { steps.flatMap(\.effects).calls }
        #expect(calls(household.handle(.observed("dishwasher", observations[0]))).map(\.when) == [unix(minute(68))])
        var off = settings
        off.finishCorrection = false
        #expect(calls(household.handle(.retuned("dishwasher", off, at: minute(5)))).isEmpty, "nothing sent for the change itself")
        let next = calls(household.handle(.observed("dishwasher", observations[1])))
        #expect(next.map(\.reason) == ["step 10"])
        #expect(next.map(\.when) == [unix(minute(60).addingTimeInterval(1))], "the finish HA reports, uncorrected")
    }

    @Test func theCycleKeepsTheReportedAndTheShownFinish() throws {
        var household = Household(dailyLimit: 400)
        household.follow(.dishwasher(), history: FinishHistory(errors: [eco50: [480, 480, 480]]))
        let observations = try Replay.observations(lines: numbered(overrunningCycle(start: 0, over: 8))).observations
        var ended: CycleInfo?
        for observation in observations {
            for step in household.handle(.observed("dishwasher", observation)) where step.ended != nil { ended = step.ended }
        }
        let cycle = try #require(ended)
        #expect(cycle.firstPredictedFinish == minute(60))
        #expect(cycle.firstShownFinish == minute(68))
        #expect(cycle.lastPredictedFinish == minute(60).addingTimeInterval(5))
        // With 10 minutes left, a quarter of them.
        #expect(cycle.lastShownFinish == minute(60).addingTimeInterval(5 + 150 + 1.25))
        // And it learned from itself: the next cycle's correction counts it.
        #expect(household.tracker("dishwasher")?.history.errors[eco50]?.count == 4)
    }
}
