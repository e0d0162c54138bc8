import FoundationEssentials
import Testing
@testable import CycleCore

let cotton = "laundry_care_washer_program_cotton"

extension ApplianceSettings {
    static func washer(_ change: (inout ApplianceSettings) -> Void = { _ in }) -> ApplianceSettings {
        var settings = ApplianceSettings(id: "washer", name: "Washer")
        change(&settings)
        return settings
    }
}

/// A washer trace: a cycle from minute 0 to `endAt` (its finish time known, so no
/// heartbeats) ending `end`, its door locked then closed unless `withDoor` is false, then
/// an idle line every 10 minutes up to `until` with the door as `door(minute)` says.
func washerTrace(end: String = "finished", endAt: Double = 60, until: Double = 200, withDoor: Bool = true,
                 door: (Double) -> String? = { _ in "closed" }) -> [String] {
    var running = ["operation_state": "run", "program": cotton, "progress": "0", "finish_time": "2026-11-02T09:00:00+00:00"]
    var ended = ["operation_state": end, "program": cotton]
    if withDoor {
        running["door"] = "locked"
        ended["door"] = "closed"
    }
    var lines = [traceLine(zero, running), traceLine(minute(endAt), ended)]
    for minutes in stride(from: endAt + 10, through: until, by: 10) {
        var states = ["operation_state": "finished", "program": cotton]
        states["door"] = door(minutes)
        lines.append(traceLine(minute(minutes), states))
    }
    return lines
}

/// docs/PUSHES.md, "Unload reminder": replayed, since that is how `run` drives it too.
@Suite struct UnloadReminderTests {
    @Test func aReminderAfterTheWaitThenRepeatedTwice() throws {
        let result = try Replay.run(settings: .washer(), lines: numbered(washerTrace()))
        let reminders = result.calls.filter { $0.kind == .reminder }
        #expect(reminders.map(\.at) == [minute(90), minute(120), minute(150)])
        #expect(reminders.map(\.reason) == ["unload reminder 1", "unload reminder 2", "unload reminder 3"])
        #expect(reminders.map(\.message) == [
            "Washer: Cotton finished 30 min ago", "Washer: Cotton finished 60 min ago", "Washer: Cotton finished 90 min ago",
        ])
        let first = try #require(reminders.first)
        #expect(first.kind.isAlerting)
        #expect(first.body["title"] == .string("Washer finished"))
        #expect(first.body["delivery"] == nil, "to every delivery, like the end")
        #expect(first.extra["mobile_push_notification_tag"] == .string("appliance_washer_end"), "replaces the end notification")
        #expect(first.extra["notification_icon"] == .string("mdi:washing-machine"))
        #expect(first.extra["live_update"] == nil)
        // Not among the cycle's calls, nor in its per-cycle limit.
        #expect(result.cycles.first?.calls.map(\.kind) == [.start, .clear, .end])
    }

    @Test func theWaitAndTheRepeatsAreSettingsAndTheTextTooWithoutAProgram() throws {
        let settings = ApplianceSettings.washer {
            $0.unloadReminderMinutes = 15
            $0.unloadReminderRepeats = 0
            $0.texts.unloadReminderNoProgram = "{name}: {minutes} Minuten"
        }
        let lines = [
            traceLine(zero, ["operation_state": "run", "door": "locked"]),
            traceLine(minute(60), ["operation_state": "finished", "door": "closed"]),
            traceLine(minute(100), ["operation_state": "finished", "door": "closed"]),
        ]
        let result = try Replay.run(settings: settings, lines: numbered(lines))
        #expect(result.calls.filter { $0.kind == .reminder }.map(\.message) == ["Washer: 15 Minuten"])
        #expect(result.calls.filter { $0.kind == .reminder }.map(\.at) == [minute(75)])
    }

    @Test func theDoorOpeningStopsThem() throws {
        let lines = washerTrace { $0 >= 100 ? "open" : "closed" }
        let result = try Replay.run(settings: .washer(), lines: numbered(lines))
        #expect(result.calls.filter { $0.kind == .reminder }.map(\.at) == [minute(90)])
    }

    @Test func aDoorOpenedBeforeTheWaitMeansNone() throws {
        let lines = washerTrace { $0 == 70 ? "open" : "closed" }
        let result = try Replay.run(settings: .washer(), lines: numbered(lines))
        #expect(!result.calls.contains { $0.kind == .reminder })
    }

    @Test func aNewCycleStopsThem() throws {
        var lines = washerTrace(until: 100)
        lines.append(traceLine(minute(110), ["operation_state": "run", "program": cotton, "door": "locked"]))
        lines.append(traceLine(minute(200), ["operation_state": "run", "program": cotton, "door": "locked"]))
        let result = try Replay.run(settings: .washer(), lines: numbered(lines))
        #expect(result.calls.filter { $0.kind == .reminder }.map(\.at) == [minute(90)])
        #expect(result.cycles.count == 2)
    }

    @Test func theDailyBudgetStopsThem() throws {
        // Four calls a day: the start, the clear, the end and one reminder; the second
        // is held back, and none follows it.
        let result = try Replay.run(settings: .washer(), lines: numbered(washerTrace()), dailyLimit: 4)
        #expect(result.calls.filter { $0.kind == .reminder }.map(\.at) == [minute(90)])
        #expect(result.effects.heldBack == ["reminder unload reminder 2"])
    }

    @Test(arguments: ["aborting", "error"])
    func noneAfterACycleThatDidNotFinish(end: String) throws {
        // An error ends a cycle only when the washer leaves it for ready or off (docs/CYCLES.md, "Errors").
        let after = end == "error" ? #""operation_state": "ready""# : #""operation_state": "finished""#
        let lines = washerTrace(end: end).map { $0.replacing(#""operation_state": "finished""#, with: after) }
        let result = try Replay.run(settings: .washer(), lines: numbered(lines))
        #expect(result.cycles.first?.outcome != .finished)
        #expect(!result.calls.contains { $0.kind == .reminder })
    }

    @Test func withoutADoorTooTheButtonBeingWhatStopsThem() throws {
        // A washer on a plug reports no door: nothing but its *Unloaded* button, a new cycle
        // or the dryer starting tells that it was unloaded (UnloadedButtonTests).
        let lines = washerTrace(withDoor: false) { _ in nil }
        let result = try Replay.run(settings: .washer(), lines: numbered(lines))
        #expect(result.cycles.first?.outcome == .finished)
        #expect(result.calls.filter { $0.kind == .reminder }.map(\.at) == [minute(90), minute(120), minute(150)])
    }

    @Test func offForADishwasherUnlessSetAndOffWhenZero() throws {
        let dishwasher = ApplianceSettings(id: "dishwasher", name: "Dishwasher")
        let lines = washerTrace().map { $0.replacing(cotton, with: eco50) }
        #expect(!(try Replay.run(settings: dishwasher, lines: numbered(lines))).calls.contains { $0.kind == .reminder })
        var asked = dishwasher
        asked.unloadReminderMinutes = 45
        let reminders = try Replay.run(settings: asked, lines: numbered(lines)).calls.filter { $0.kind == .reminder }
        #expect(reminders.map(\.at) == [minute(105), minute(150), minute(195)])
        #expect(reminders.first?.message == "Dishwasher: Eco 50°C finished 45 min ago")
        let off = ApplianceSettings.washer { $0.unloadReminderMinutes = 0 }
        #expect(!(try Replay.run(settings: off, lines: numbered(washerTrace()))).calls.contains { $0.kind == .reminder })
        // A dryer is laundry too, told by its program key.
        let dryer = ApplianceSettings(id: "d1", name: "Appliance")
        let dried = washerTrace().map { $0.replacing(cotton, with: "laundry_care_dryer_program_cotton") }
        #expect(try Replay.run(settings: dryer, lines: numbered(dried)).calls.filter { $0.kind == .reminder }.count == 3)
    }

    @Test func unavailableForGoodStopsThemAShortOutageDoesNot() throws {
        let settings = ApplianceSettings.washer { $0.lostAfterMinutes = 45 }
        var lines = washerTrace(until: 70)
        // Unavailable from minute 80 on: the reminders at 90 and 120 still go out (10 and
        // 40 min, short of 45); at 150 it has been 70 min, gone for good.
        for minutes in stride(from: 80.0, through: 200, by: 10) {
            lines.append(traceLine(minute(minutes), ["operation_state": "unavailable"]))
        }
        let result = try Replay.run(settings: settings, lines: numbered(lines))
        #expect(result.calls.filter { $0.kind == .reminder }.map(\.at) == [minute(90), minute(120)])
    }

    @Test func theHouseholdWakesForItAndARestartKeepsIt() throws {
        var household = Household(dailyLimit: 400)
        household.follow(.washer())
        let lines = washerTrace(until: 60)
        for observation in try Replay.observations(lines: numbered(lines)).observations {
            _ = household.handle(.observed("washer", observation))
        }
        #expect(household.nextDeadline == minute(90))

        // Saved and restored as the store does it, then woken at the deadline.
        let saved = try JSONDecoder().decode(ApplianceTracker.Snapshot.self, from: JSONEncoder().encode(household.saved("washer")))
        var restarted = Household(dailyLimit: 400)
        restarted.follow(.washer(), restoring: saved)
        #expect(restarted.nextDeadline == minute(90))
        let steps = restarted.handle(.tick(minute(90)))
        #expect(steps.flatMap(\.effects).kinds == [.reminder])
        #expect(restarted.callsCounted(on: minute(90)) == 1, "counted in the daily budget")
        #expect(restarted.nextDeadline == minute(120))
    }

    @Test func aSnapshotSavedBeforeRemindersExistedStillDecodes() throws {
        var harness = Harness(.washer())
        var raw = states("run", progress: 10, program: cotton)
        raw[.door] = "locked"
        harness.see(zero, raw)
        var json = try #require(String(data: JSONEncoder().encode(harness.tracker.snapshot), encoding: .utf8))
        #expect(json.contains(#""doorClosed":true"#))
        json = json.replacing(#","doorClosed":true"#, with: "").replacing(#""doorClosed":true,"#, with: "")
        #expect(!json.contains("doorClosed"))
        let snapshot = try JSONDecoder().decode(ApplianceTracker.Snapshot.self, from: Data(json.utf8))
        #expect(ApplianceTracker(settings: .washer(), restoring: snapshot).cycle?.program == cotton)
    }
}
