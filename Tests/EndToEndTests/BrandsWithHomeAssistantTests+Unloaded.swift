import CycleHistory
import Foundation
import Testing

/// The *Unloaded* button against a real Home Assistant (the suite's HA, config and
/// database): a washer on a plug, which reports no door, gets the button on its end
/// notification, and a tap, which the Companion app reports as HA's
/// `mobile_app_notification_action` event, reaches the service over its WebSocket
/// subscription and stops the reminders.
extension BrandsWithHomeAssistantTests {
    @Test("A plug washer's end carries the Unloaded button; HA's notification action event stops its reminders")
    func unloadedButtonStopsTheReminders() async throws {
        try await ha.setWatts("washer_plug", 0.5)
        let path = scratch.write("cycletrack.json", """
            {"home_assistant": {"url": "\(ha.url.absoluteString)", "token_file": "\(ha.tokenFile.path)"},
             "updates": "events", "discover": false,
             "appliances": [{"id": "plug_washer", "name": "Washer", "power_entity": "sensor.washer_plug_power",
                             "power_start_seconds": 2, "power_off_seconds": 5}]}
            """)
        let service = try CycletrackProcess(["run", "--config", path, "--db", database],
                                            environment: ["CYCLETRACK_LOG": "debug"])
        #expect(service.waitForLog("event=events_connected", timeout: 60), "\(service.stderrSoFar)")
        try await ha.setWatts("washer_plug", 3000)
        #expect(service.waitForLog("event=cycle_started", timeout: 30), "\(service.stderrSoFar)")
        try await ha.setWatts("washer_plug", 0.5)
        let seen = try await ha.callKinds(of: "plug_washer", once: "end", timeout: 60)
        #expect(seen.suffix(2) == ["clear", "end"], "\(seen)")
        let end = try #require(try ha.supernotifyCalls().last)
        let actions = end.data["actions"] as? [[String: Any]]
        #expect(actions?.count == 1)
        #expect(actions?.first?["action"] as? String == "CYCLETRACK_UNLOADED_plug_washer")
        #expect(actions?.first?["title"] as? String == "Unloaded")

        // As the Companion app reports a tapped button.
        let (status, body) = try await ha.request("POST", "/api/events/mobile_app_notification_action",
                                                  json: ["action": "CYCLETRACK_UNLOADED_plug_washer", "tag": "appliance_plug_washer_end"])
        #expect(status == 200, "\(String(decoding: body, as: UTF8.self))")
        #expect(service.waitForLog("event=unloaded appliance=plug_washer by=notification", timeout: 30), "\(service.stderrSoFar)")
        #expect(!service.stderrSoFar.contains("notification_actions_refused"), "the test's token is an administrator's")
        service.signal(SIGTERM)
        #expect(service.wait(timeout: 15).status == 0)

        let store = try HistoryStore(path: database, mode: .readOnly)
        let cycle = try #require(try store.cycles(matching: CycleFilter(applianceID: "plug_washer")).first)
        let dropped = try store.pushes(cycleID: cycle.id).filter { $0.status == .dropped }
        #expect(dropped.map(\.reason) == ["unload reminder 1: dropped, marked unloaded"])
    }
}
