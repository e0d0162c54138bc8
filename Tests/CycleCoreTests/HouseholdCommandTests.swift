import FoundationEssentials
import Testing
@testable import CycleCore

/// The household taking a settings change and "end the Live Activity now" as events
/// (docs/API.md): the open cycle carries on with the new settings.
@Suite struct HouseholdCommandTests {
    /// One event of a script and what it must give: the kinds and reasons of the calls.
    enum Event {
        case see(Double, [Role: String])
        case retune(Double, (inout ApplianceSettings) -> Void)
        case endActivity(Double)
        case tick(Double)
    }

    /// Plays `script` (times in minutes) through a household with one dishwasher and
    /// returns each event's calls as "kind reason".
    static func play(_ script: [Event], settings: ApplianceSettings = .dishwasher { $0.minUpdateSeconds = 0; $0.settleSeconds = 0 })
        -> [[String]] {
        var household = Household(dailyLimit: 400)
        household.follow(settings)
        var current = settings
        return script.map { event in
            let steps: [Household.Step] = switch event {
            case .see(let at, let raw):
                household.handle(.observed("dishwasher", Observation(at: minute(at), raw: raw)))
            case .retune(let at, let change):
                { change(&current); return household.handle(.retuned("dishwasher", current, at: minute(at))) }()
            case .endActivity(let at):
                household.handle(.endActivity("dishwasher", at: minute(at)))
            case .tick(let at):
                household.handle(.tick(minute(at)))
            }
            return steps.flatMap(\.effects).calls.map { "\($0.kind.rawValue) \($0.reason)" }
        }
    }

    @Test func aChangedStepTakesEffectForTheRunningCycle() {
        let calls = Self.play([
            .see(0, states("run", progress: 0, finish: finishA)),
            .see(1, states("run", progress: 12, finish: finishA)),
            .retune(2) { $0.steps = .at([15, 20, 50]) },
            .see(3, states("run", progress: 14, finish: finishA)),
            .see(4, states("run", progress: 15, finish: finishA)),
            .see(5, states("run", progress: 19, finish: finishA)),
            .see(6, states("run", progress: 20, finish: finishA)),
        ])
        #expect(calls == [["start start"], ["quiet step 10"], [], [], ["quiet step 15"], [], ["quiet step 20"]])
    }

    @Test func anExplicitListReplacesTheStepsAboveTheProgressSent() {
        let calls = Self.play([
            .see(0, states("run", progress: 0, finish: finishA)),
            .see(1, states("run", progress: 42, finish: finishA)),
            .retune(2) { $0.steps = .at([25, 50, 75]) },
            .see(3, states("run", progress: 49, finish: finishA)),
            .see(4, states("run", progress: 50, finish: finishA)),
        ])
        #expect(calls == [["start start"], ["quiet step 40"], [], [], ["quiet step 50"]])
    }

    @Test func endingTheActivitySendsOneClearAndNoLiveCallsAfter() {
        let calls = Self.play([
            .see(0, states("run", progress: 0, finish: finishA)),
            .endActivity(1),
            .endActivity(2),
            .see(3, states("run", progress: 50, finish: finishA)),
            .see(60, states("finished", progress: 100)),
        ])
        #expect(calls == [["start start"], ["clear clear: asked"], [], [], ["end end: finished"]])
    }

    @Test func endingWithoutACycleDoesNothing() {
        #expect(Self.play([.endActivity(0), .retune(1) { $0.liveActivity = false }]) == [[], []])
    }

    @Test func liveActivityOffMidCycleClearsOnceAndKeepsTheEnd() {
        let calls = Self.play([
            .see(0, states("run", progress: 0, finish: finishA)),
            .retune(1) { $0.liveActivity = false },
            .retune(2) { $0.notifyStart = false },
            .see(3, states("run", progress: 50, finish: finishA)),
            .see(60, states("finished", progress: 100)),
        ])
        #expect(calls == [["start start"], ["clear clear: live activity off"], [], [], ["end end: finished"]])
    }

    @Test func liveActivityOffAtTheStartMakesNoLiveCallsAtAll() {
        let settings = ApplianceSettings.dishwasher { $0.liveActivity = false; $0.minUpdateSeconds = 0 }
        let calls = Self.play([
            .see(0, states("run", progress: 0, finish: finishA)),
            .see(3, states("run", progress: 50, finish: finishA)),
            .see(60, states("finished", progress: 100)),
        ], settings: settings)
        #expect(calls == [[], [], ["end end: finished"]])
    }

    @Test func notifyEndOffMidCycleDropsTheEndNotification() {
        let calls = Self.play([
            .see(0, states("run", progress: 0, finish: finishA)),
            .retune(1) { $0.notifyEnd = false },
            .see(60, states("finished", progress: 100)),
        ])
        #expect(calls == [["start start"], [], ["clear clear: finished"]])
    }

    @Test func aShorterUnloadReminderIsDueAtOnceWhenAlreadyPast() {
        let settings = ApplianceSettings.dishwasher { $0.unloadReminderMinutes = 60; $0.settleSeconds = 0 }
        var door = states("run", progress: 0, finish: finishA)
        door[.door] = "closed"
        var done = states("finished", progress: 100)
        done[.door] = "closed"
        let calls = Self.play([
            .see(0, door),
            .see(10, done),
            .retune(30) { $0.unloadReminderMinutes = 15 },
            .tick(31),
            .retune(32) { $0.unloadReminderMinutes = 0 },
            .tick(200),
        ], settings: settings)
        #expect(calls == [["start start"], ["clear clear: finished", "end end: finished"], [], ["reminder unload reminder 1"], [], []])
    }

    @Test func overridesApplyOnlyTheirKeys() {
        let base = ApplianceSettings.dishwasher { $0.notifyProgress = true }
        let overrides = ApplianceOverrides(values: ["notify_start": .flag(false)]).merging(ApplianceOverrides(steps: .at([50])))
        let applied = overrides.applied(to: base)
        #expect(applied.notifyStart == false && applied.steps == .at([50]) && applied.notifyProgress == true)
        #expect(overrides.overridden == ["notify_start", "progress_steps"])
        #expect(ApplianceOverrides().isEmpty)
    }
}
