import FoundationEssentials
import Testing
@testable import CycleCore

/// docs/PUSHES.md, "Unload reminder": the *Unloaded* button on the end notification and the
/// reminders, and what a tap (or the local API) does.
@Suite struct UnloadedButtonTests {
    static let button: JSONValue = .array([.object(JSONObject([
        ("action", .string("CYCLETRACK_UNLOADED_washer")), ("title", .string("Unloaded")),
    ]))])

    /// A washer followed by a household that took `lines`, up to and including them.
    static func household(_ lines: [String], delivery: DeliverySettings = DeliverySettings(),
                          settings: ApplianceSettings = .washer()) throws -> Household {
        var household = Household(dailyLimit: 400, delivery: delivery)
        household.follow(settings)
        for observation in try Replay.observations(lines: numbered(lines)).observations {
            _ = household.handle(.observed("washer", observation))
        }
        return household
    }

    @Test func theEndNotificationAndEveryReminderCarryTheButtonLast() throws {
        let result = try Replay.run(settings: .washer(), lines: numbered(washerTrace(withDoor: false) { _ in nil }))
        let ending = result.calls.filter { $0.kind == .end || $0.kind == .reminder }
        #expect(ending.map(\.kind) == [.end, .reminder, .reminder, .reminder])
        for call in ending {
            #expect(call.body["actions"] == Self.button)
            #expect(call.body.keys.last == "actions")
        }
        // The live calls and the clear have none: there is nothing to unload yet.
        #expect(result.calls.filter { $0.kind == .start || $0.kind == .clear }.allSatisfy { $0.body["actions"] == nil })
    }

    @Test func inTheAppliancesLanguageAndNoneWhereNoReminderComes() throws {
        let german = ApplianceSettings.washer { $0.texts = Texts.german }
        let end = try #require(try Replay.run(settings: german, lines: numbered(washerTrace())).calls.first { $0.kind == .end })
        #expect(end.body["actions"] == .array([.object(JSONObject([
            ("action", .string("CYCLETRACK_UNLOADED_washer")), ("title", .string("Ausgeräumt")),
        ]))]))
        // A dishwasher reminds only when asked to; a washer set to 0 doesn't.
        let dishwasher = washerTrace().map { $0.replacing(cotton, with: eco50) }
        for (settings, lines) in [(ApplianceSettings(id: "dishwasher", name: "Dishwasher"), dishwasher),
                                  (.washer { $0.unloadReminderMinutes = 0 }, washerTrace())] {
            let calls = try Replay.run(settings: settings, lines: numbered(lines)).calls
            #expect(calls.contains { $0.kind == .end })
            #expect(calls.allSatisfy { $0.body["actions"] == nil }, "\(settings.id)")
        }
    }

    @Test func aTapStopsTheReminders() throws {
        var household = try Self.household(washerTrace(until: 90, withDoor: false) { _ in nil })
        _ = household.handle(.tick(minute(90)))
        #expect(household.callsCounted(on: minute(90)) == 4, "start, clear, end and the first reminder")
        #expect(household.nextDeadline == minute(120))

        let steps = household.handle(.unloaded("washer", at: minute(95)))
        #expect(steps.map(\.applianceID) == ["washer"])
        #expect(steps.flatMap(\.effects) == [
            .unloaded(at: minute(95)),
            .waiting(kind: .reminder, at: minute(95), reason: "unload reminder 2" + TrackerEffect.droppedMark + "marked unloaded"),
        ])
        #expect(household.tracker("washer")?.awaitsUnloading == false)
        #expect(household.nextDeadline == nil)
        #expect(household.handle(.tick(minute(300))).flatMap(\.effects).kinds.isEmpty)

        // A second tap has nothing left to stop: one step, no effect.
        #expect(household.handle(.unloaded("washer", at: minute(310))).flatMap(\.effects).isEmpty)
        #expect(household.handle(.unloaded("dryer", at: minute(310))).isEmpty, "an appliance not followed")
    }

    @Test func aTapDropsAnEndNotificationWaitingForMorning() throws {
        // zero is 08:00 UTC: the washer runs 22:10-23:10, in quiet hours (22:00-07:00), so
        // its end notification waits for 07:00.
        let start = minute(14 * 60 + 10), end = minute(15 * 60 + 10)
        let running = ["operation_state": "run", "program": cotton, "progress": "0", "finish_time": ISOTime.format(end)]
        var household = try Self.household([traceLine(start, running),
                                            traceLine(end, ["operation_state": "finished", "program": cotton])],
                                           delivery: quiet())
        #expect(household.budget(at: end).reserve == 1, "the end waits")
        let steps = household.handle(.unloaded("washer", at: end.addingTimeInterval(3600)))
        #expect(steps.flatMap(\.effects).map(\.dropsNotice) == [false, true], "unloaded, then the end dropped")
        #expect(household.budget(at: end.addingTimeInterval(3600)).reserve == 0)
        #expect(household.handle(.tick(end.addingTimeInterval(12 * 3600))).flatMap(\.effects).kinds.isEmpty,
                "neither the end nor a reminder in the morning")
    }

    @Test func theActionNamesItsApplianceAndNothingElseIsTaken() {
        #expect(UnloadedAction.action(applianceID: "washer") == "CYCLETRACK_UNLOADED_washer")
        #expect(UnloadedAction.applianceID(of: "CYCLETRACK_UNLOADED_washer") == "washer")
        #expect(UnloadedAction.applianceID(of: "CYCLETRACK_UNLOADED_") == nil)
        #expect(UnloadedAction.applianceID(of: "SUPERNOTIFY_SNOOZE_EVERYONE_CAMERA_camera.door") == nil)
        #expect(UnloadedAction.applianceID(of: "cycletrack_unloaded_washer") == nil)
    }

    @Test func aFinishedCycleAwaitsUnloadingUntilTheDoorOpensOrANewCycleStarts() throws {
        // Behind a closed door: from the end until the door opens.
        let opened = try Self.household(washerTrace(until: 80) { $0 >= 80 ? "open" : "closed" })
        var household = try Self.household(washerTrace(until: 70))
        #expect(household.tracker("washer")?.awaitsUnloading == true)
        #expect(opened.tracker("washer")?.awaitsUnloading == false)
        // A dishwasher without reminders awaits it too; a new cycle ends the wait.
        let dishwasher = ApplianceSettings(id: "washer", name: "Dishwasher")
        let eco = washerTrace(until: 70).map { $0.replacing(cotton, with: eco50) }
        var quiet = try Self.household(eco, settings: dishwasher)
        #expect(quiet.tracker("washer")?.awaitsUnloading == true)
        #expect(quiet.nextDeadline == nil, "no reminder")
        let again = try #require(try Replay.observations(lines: numbered([washerTrace()[0]])).observations.first)
        _ = quiet.handle(.observed("washer", Observation(at: minute(100), raw: again.raw)))
        #expect(quiet.tracker("washer")?.awaitsUnloading == false)
        // Nor after a cycle that did not finish.
        let aborted = try Self.household(washerTrace(end: "aborting", until: 70))
        #expect(aborted.tracker("washer")?.awaitsUnloading == false)

        // Kept across a restart; a snapshot from before it existed reads as not waiting.
        let saved = try #require(household.saved("washer"))
        let json = try #require(String(data: try JSONEncoder().encode(saved), encoding: .utf8))
        #expect(json.contains(#""awaitsUnloading":true"#))
        let restored = ApplianceTracker(settings: .washer(), restoring: try JSONDecoder().decode(ApplianceTracker.Snapshot.self, from: Data(json.utf8)))
        #expect(restored.awaitsUnloading)
        let older = json.replacing(#","awaitsUnloading":true"#, with: "").replacing(#""awaitsUnloading":true,"#, with: "")
        let before = ApplianceTracker(settings: .washer(), restoring: try JSONDecoder().decode(ApplianceTracker.Snapshot.self, from: Data(older.utf8)))
        #expect(!before.awaitsUnloading)
        _ = household.handle(.unloaded("washer", at: minute(75)))
        #expect(household.tracker("washer")?.awaitsUnloading == false)
    }
}
