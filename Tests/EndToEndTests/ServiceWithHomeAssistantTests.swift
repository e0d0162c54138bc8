import CycleCore
import CycleHistory
import HomeAssistantAPI
import CycleService
import CycleCommands
import Foundation
import Testing

/// `cycletrack run` against a real Home Assistant (2026.11.0, or 2024.3.3 with
/// CYCLETRACK_HA_VERSION): the appliance is the
/// home_connect stand-in (found by discovery), the phone side the supernotify stand-in
/// that records every call reaching HA's service registry. HA and the service restarted
/// mid-cycle: ServiceRestartsWithHomeAssistantTests.
@Suite(
    "Service against a real Home Assistant",
    .serialized,
    .realHomeAssistant
)
struct ServiceWithHomeAssistantTests: ServiceAgainstHomeAssistant {
    let ha: HomeAssistantProcess
    let scratch: Scratch

    init() async throws {
        ha = try await .started()
        scratch = try Scratch()
    }

    @Test("A whole cycle, found by discovery, sends exactly what replay sends, and the store holds it")
    func wholeCycleMatchesReplay() async throws {
        let service = try startService()
        #expect(service.stderrSoFar.contains("origin=config+discovered"))
        for line in Self.lines { try await show(line, to: service) }
        let expected = replayed()
        let calls = try await ha.waitForSupernotifyCalls(count: expected.count)
        service.signal(SIGTERM)
        let result = service.wait(timeout: 15)
        #expect(result.status == 0)
        #expect(calls.map { comparable($0.data) } == expected.map { call in
            comparable(try! JSONSerialization.jsonObject(with: Data(call.bodyJSON().utf8)) as! [String: Any])  // our own JSON
        })
        #expect(kinds(calls).filter { $0 == "start" }.count == 1)
        #expect(!result.stderr.contains(try String(contentsOf: ha.tokenFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))

        // Inside HA: the appliance's entity shows the finished cycle (idle again, since the
        // script ends with `ready`), and the automation on cycletrack_cycle_ended has run.
        let entity = try #require(try await ha.state("sensor.cycletrack_dishwasher"))
        #expect(entity["state"] as? String == "idle")
        let attributes = try #require(entity["attributes"] as? [String: Any])
        #expect(attributes["last_outcome"] as? String == "finished")
        #expect(attributes["last_program"] as? String == "Eco 50°C")
        #expect(attributes["friendly_name"] as? String == "Dishwasher cycle")
        let today = try #require(try await ha.state("sensor.cycletrack_pushes_today"))
        #expect(today["state"] as? String == String(calls.count))
        let automation = try #require(try await ha.state("input_text.last_cycle"))
        #expect(automation["state"] as? String == "dishwasher finished \(calls.count)")

        let query = try CycletrackProcess.run(["query", "--db", database, "--format", "json"])
        let cycles = try #require(JSONSerialization.jsonObject(with: Data(query.stdout.utf8)) as? [[String: Any]])
        #expect(cycles.count == 1)
        #expect(cycles.first?["outcome"] as? String == "finished")
        #expect(cycles.first?["program"] as? String == Self.program)
        #expect(cycles.first?["pushes"] as? Int == expected.count)
        // Replaying what the service stored gives the calls it made.
        let id = try #require(cycles.first?["id"] as? Int)
        let again = try CycletrackProcess.run(["replay", "--cycle", String(id), "--db", database, "--config", config()])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout.split(separator: "\n").count == expected.count)
    }

    @Test("events mode: a whole cycle followed over the WebSocket API sends exactly what replay (and poll mode) sends")
    func wholeCycleByEventsMatchesReplay() async throws {
        let service = try startService(updates: "events")
        for line in Self.lines { try await showByEvent(line, to: service) }
        let calls = try await ha.waitForSupernotifyCalls(count: replayed().count)
        try await waitFor("the end recorded last") { kinds(try ha.supernotifyCalls()).last == "end" }
        service.signal(SIGTERM)
        let result = service.wait(timeout: 15)
        #expect(result.status == 0)
        // One read at the start and nothing after: every change came as an event.
        #expect(result.stderr.components(separatedBy: "event=polled").count - 1 == 1, "\(result.stderr)")
        #expect(!result.stderr.contains("events_unavailable"))
        #expect(calls.map { comparable($0.data) } == replayed().map { call in
            comparable(try! JSONSerialization.jsonObject(with: Data(call.bodyJSON().utf8)) as! [String: Any])  // our own JSON
        })
    }

    @Test("A clear HA refused is superseded by the next cycle's start: it never ends the new Live Activity")
    func aClearFailingAcrossTheNextStartIsSuperseded() async throws {
        let service = try startService()
        let running = Self.lines.filter { $0["operation_state"] == "run" }
        for line in Self.lines.prefix(6) { try await show(line, to: service) }
        // HA refuses the clear of the first cycle (supernotify raises: 500) ...
        try ha.setSupernotifyFailure(.error)
        try await show(Self.lines[Self.lines.count - 2], to: service)
        #expect(service.waitForLog("event=call_failed appliance=dishwasher kind=clear"), "\(service.stderrSoFar)")
        // ... and the next cycle starts before the clear's retry (5 s on) is due.
        try ha.setSupernotifyFailure(nil)
        try await show(running[0], to: service)
        try await waitFor("the second cycle's start", timeout: 30) {
            service.stderrSoFar.components(separatedBy: "event=call appliance=dishwasher kind=start").count >= 3
        }
        // The waiting clear is dropped from the queue (logged), so no retry of it can go out.
        try await waitFor("the first cycle's clear superseded") {
            service.stderrSoFar.contains("event=call_superseded appliance=dishwasher kind=clear")
        }
        for line in running.prefix(3) { try await show(line, to: service) }
        try await show(Self.lines[Self.lines.count - 2], to: service)
        #expect(service.waitForLog("event=call appliance=dishwasher kind=end"), "\(service.stderrSoFar)")
        try await waitFor("the end recorded by the Supernotify stand-in") { kinds(try ha.supernotifyCalls()).last == "end" }
        service.signal(SIGTERM)
        let result = service.wait(timeout: 15)
        #expect(result.status == 0)
        #expect(result.stderr.contains("event=call_superseded"))
        let accepted = kinds(try ha.supernotifyCalls().filter { $0.failure == nil })
        #expect(accepted.filter { $0 == "start" }.count == 2, "\(accepted)")
        let lastStart = try #require(accepted.lastIndex(of: "start"))
        // The only clear HA took is the second cycle's, after its start; no clear of the
        // first cycle reached the phone once the second had begun.
        #expect(accepted.filter { $0 == "clear" }.count == 1, "\(accepted)")
        #expect((accepted.firstIndex(of: "clear") ?? -1) > lastStart, "\(accepted)")
        #expect(accepted.suffix(2) == ["clear", "end"], "\(accepted)")
        let query = try CycletrackProcess.run(["query", "--db", database, "--format", "json"])
        let cycles = try #require(JSONSerialization.jsonObject(with: Data(query.stdout.utf8)) as? [[String: Any]])
        #expect(cycles.count == 2)
        #expect(cycles.allSatisfy { $0["outcome"] as? String == "finished" })
    }

    @Test("check finds the appliance by discovery and confirms token, version, entities and supernotify.notify")
    func checkAgainstRealHomeAssistant() async throws {
        let result = try CycletrackProcess.run(["check", "--config", config()])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("version \(ha.version)"))
        #expect(result.stdout.contains("followed Dishwasher"))
        // The entity registry read over the WebSocket: the stand-in's translation keys give the roles.
        #expect(result.stdout.contains("read: roles by each integration's keys"), "\(result.stdout)")
        #expect(result.stdout.contains("dishwasher (home_connect); by table: operation_state sensor.dishwasher_operation_state"),
                "\(result.stdout)")
        #expect(result.stdout.contains("dishwasher.progress"))
        #expect(result.stdout.contains("config+discovered"))
        // HA 2024.3 answers the enquiry over WebSocket only (the fallback), 2026.11 over REST.
        let deliveries = result.stdout.split(separator: "\n").first { $0.hasPrefix("mobile_deliveries ") }
        #expect(deliveries?.contains(" ok ") == true && deliveries?.hasSuffix("mobile_push: Supernotify has it") == true, "\(result.stdout)")
    }

    @Test("check names a mobile delivery Supernotify doesn't have, and reports as JSON for scripts")
    func checkFindsAMissingDelivery() async throws {
        let path = scratch.write("wrong.json", """
            {"home_assistant": {"url": "\(ha.url.absoluteString)", "token_file": "\(ha.tokenFile.path)"},
             "supernotify": {"mobile_deliveries": ["phones"]}, "discover": true}
            """)
        let result = try CycletrackProcess.run(["check", "--config", path])
        #expect(result.status == 1)
        #expect(result.stdout.contains("phones is not a Supernotify delivery (it has: mobile_push, plain_email)"), "\(result.stdout)")
        let json = try CycletrackProcess.run(["check", "--config", path, "--format", "json"])
        #expect(json.status == 1)
        let object = try #require(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["ok"] as? Bool == false)
        let checks = try #require(object["checks"] as? [[String: Any]])
        #expect(checks.contains { $0["check"] as? String == "mobile_deliveries" && $0["result"] as? String == "fail" })
        #expect(checks.contains { $0["check"] as? String == "home assistant" && $0["result"] as? String == "ok" })
        #expect((object["appliances"] as? [[String: Any]])?.first?["name"] as? String == "Dishwasher")
        #expect(!json.stdout.contains(try String(contentsOf: ha.tokenFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
    }
}

