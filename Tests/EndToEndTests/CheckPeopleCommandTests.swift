import CSQLite
import Foundation
import HTTPStandIn
import Testing

/// `cycletrack check` with `people` as a process against a stand-in Home Assistant on
/// loopback: a person entity HA doesn't have fails the check naming the person and the
/// key; the household's and the people's settings show with their sources, the API's
/// changes read from the history `run` uses.
@Suite struct CheckPeopleCommandTests {
    let token = "test-token-\(UUID().uuidString)"

    private func config(_ scratch: Scratch, url: String) -> String {
        scratch.write("token", token, mode: 0o600)
        return scratch.write("cycletrack.json", """
            {"home_assistant": {"url": "\(url)", "token_file": "\(scratch.path)/token"},
             "database": "\(scratch.path)/history.sqlite", "discover": false, "updates": "poll",
             "quiet_hours": "22:00-07:00",
             "people": [{"entity": "person.alice"}, {"entity": "person.bob", "kinds": ["end"], "language": "de"}],
             "appliances": [{"id": "dw", "name": "Dishwasher", "entities": {"operation_state": "sensor.dw_operation_state"}}]}
            """)
    }

    @Test func anUnknownPersonFailsTheCheckNamingThePersonAndTheKey() throws {
        let scratch = try Scratch()
        let standIn = try HomeAssistantStandIn(token: token)
        standIn.set(entity: "sensor.dw_operation_state", state: "ready", deviceClass: "enum")
        standIn.set(entity: "person.alice", state: "home")
        let missing = try CycletrackProcess.run(["check", "--config", config(scratch, url: standIn.baseURL)])
        #expect(missing.status == 1, "\(missing.stdout)\(missing.stderr)")
        #expect(missing.stdout.contains("person.alice = home"))
        #expect(missing.stdout.contains("person.bob (people[1].entity) does not exist in Home Assistant"))
        #expect(missing.stdout.contains(#"quiet_hours"#) && missing.stdout.contains(#""22:00-07:00" (config)"#))
        #expect(missing.stdout.contains(#""de" (config)"#))

        standIn.set(entity: "person.bob", state: "not_home")
        let good = try CycletrackProcess.run(["check", "--config", config(scratch, url: standIn.baseURL)])
        #expect(good.status == 0, "\(good.stdout)\(good.stderr)")
        #expect(!good.stdout.contains("FAIL"))
    }
}
