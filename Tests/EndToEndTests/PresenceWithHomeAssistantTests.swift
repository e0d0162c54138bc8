import Foundation
import Testing

/// `cycletrack run` with `people` against a real Home Assistant: a person entity set to
/// `not_home`, then `home`, over REST; the stand-in Supernotify records the held end
/// notification going to that person only (docs/PUSHES.md, "Presence").
@Suite(
    "Presence against a real Home Assistant",
    .serialized,
    .realHomeAssistant
)
struct PresenceWithHomeAssistantTests {
    let ha: HomeAssistantProcess
    let scratch: Scratch

    init() async throws {
        ha = try await .started()
        scratch = try Scratch()
    }

    /// Waits until the service has polled `count` more times.
    private func polls(_ count: Int, by service: CycletrackProcess) async throws {
        let before = service.stderrSoFar.components(separatedBy: "event=polled").count
        let deadline = Date().addingTimeInterval(30)
        while service.stderrSoFar.components(separatedBy: "event=polled").count < before + count, Date() < deadline {
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    private func ends() throws -> [[String: Any]] {
        try ha.supernotifyCalls().map(\.data).filter { call in
            let extra = call["extra_data"] as? [String: Any]
            return (extra?["mobile_push_notification_tag"] as? String) == "appliance_dishwasher_end"
        }
    }

    @Test func theHeldEndNotificationGoesToThePersonWhoCameHome() async throws {
        #expect(try await ha.setState("person.alice", "not_home") < 300)
        #expect(try await ha.setState("person.bob", "not_home") < 300)
        let config = scratch.write("cycletrack.json", """
            {"home_assistant": {"url": "\(ha.url.absoluteString)", "token_file": "\(ha.tokenFile.path)"},
             "updates": "poll", "poll": {"active_seconds": 1, "idle_seconds": 1}, "discover": true,
             "people": [{"entity": "person.alice"}, {"entity": "person.bob"}],
             "appliances": [{"id": "dishwasher", "settle_seconds": 0, "min_update_seconds": 0,
                             "entities": {"operation_state": "sensor.dishwasher_operation_state"}}]}
            """)
        let service = try CycletrackProcess(["run", "--config", config, "--db", scratch.path + "/history.sqlite"],
                                            environment: ["CYCLETRACK_LOG": "debug"])
        #expect(service.waitForLog("event=tracking appliance=dishwasher", timeout: 60), "\(service.stderrSoFar)")
        let program = "dishcare_dishwasher_program_eco_50"
        try await ha.setAppliance(["operation_state": "run", "progress": "40", "finish_time": "2026-11-02T11:37:00+00:00",
                                   "program": program])
        try await polls(2, by: service)
        try await ha.setAppliance(["operation_state": "finished", "progress": "96", "program": program])
        #expect(service.waitForLog("event=call_waiting appliance=dishwasher kind=end", timeout: 30), "\(service.stderrSoFar)")
        try await polls(2, by: service)
        #expect(try ends().isEmpty, "nobody is home: the end notification waits")

        #expect(try await ha.setState("person.alice", "home") < 300)
        try await waitFor("the end notification sent", timeout: 30) { try !ends().isEmpty }
        let sent = try ends()
        #expect(sent.count == 1)
        #expect(sent.first?["target"] as? [String] == ["person.alice"], "\(sent)")

        // Bob coming home later gets nothing more.
        #expect(try await ha.setState("person.bob", "home") < 300)
        try await polls(3, by: service)
        #expect(try ends().count == 1)
        service.signal(SIGTERM)
        #expect(service.wait(timeout: 30).status == 0)
        await ha.stop()
    }
}
