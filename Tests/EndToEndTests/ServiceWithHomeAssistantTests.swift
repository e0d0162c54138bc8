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
/// that records every call reaching HA's service registry.
@Suite(
    "Service against a real Home Assistant",
    .serialized,
    .enabled(if: HomeAssistantProcess.shouldRun,
             Comment(rawValue: HomeAssistantProcess.availability() ?? "Home Assistant is available"))
)
struct ServiceWithHomeAssistantTests {
    let ha: HomeAssistantProcess
    let scratch: Scratch

    init() async throws {
        ha = try HomeAssistantProcess()
        try await ha.start()
        scratch = try Scratch()
    }

    static let program = "dishcare_dishwasher_program_eco_50"

    /// A dishwasher cycle as what HA shows, line by line: progress in 4% steps, a finish
    /// time corrected once, a pause, a moment of everything unavailable, the end.
    static let lines: [[String: String]] = {
        var lines: [[String: String]] = [["operation_state": "ready", "program": "unknown"]]
        var finish = "2026-11-02T11:37:00+00:00"
        for step in 0...24 {
            if step == 12 { finish = "2026-11-02T11:48:00+00:00" }
            let state = step == 8 ? "pause" : "run"
            lines.append(["operation_state": state, "progress": String(step * 4), "finish_time": finish, "program": program])
            if step == 16 {
                lines.append(["operation_state": "unavailable", "progress": "unavailable", "finish_time": "unavailable", "program": "unavailable"])
            }
        }
        lines.append(["operation_state": "finished", "progress": "96", "finish_time": "2026-11-02T11:49:00+00:00", "program": program])
        lines.append(["operation_state": "ready", "progress": "unavailable", "finish_time": "unavailable", "program": "unknown"])
        return lines
    }()

    /// In `events` mode the poll interval is an hour: only events can move the cycle on.
    private func config(updates: String = "poll") -> String {
        let poll = updates == "poll" ? 1 : 3600
        return scratch.write("cycletrack.json", """
            {"home_assistant": {"url": "\(ha.url.absoluteString)", "token_file": "\(ha.tokenFile.path)"},
             "updates": "\(updates)", "poll": {"active_seconds": \(poll), "idle_seconds": \(poll)}, "discover": true,
             "appliances": [{"id": "dishwasher", "settle_seconds": 0, "min_update_seconds": 0,
                             "entities": {"operation_state": "sensor.dishwasher_operation_state"}}]}
            """)
    }

    private var database: String { scratch.path + "/history.sqlite" }

    private func startService(updates: String = "poll") throws -> CycletrackProcess {
        let service = try CycletrackProcess(["run", "--config", config(updates: updates), "--db", database],
                                            environment: ["CYCLETRACK_LOG": "debug"])
        #expect(service.waitForLog("event=tracking appliance=dishwasher", timeout: 60), "\(service.stderrSoFar)")
        if updates == "events" {
            #expect(service.waitForLog("event=events_connected", timeout: 30), "\(service.stderrSoFar)")
        }
        return service
    }

    /// Shows one line in HA and waits until the service, following events, has taken it in.
    private func showByEvent(_ line: [String: String], to service: CycletrackProcess) async throws {
        let before = service.stderrSoFar.components(separatedBy: "event=changed").count
        try await ha.setAppliance(line)
        let deadline = Date().addingTimeInterval(10)
        while service.stderrSoFar.components(separatedBy: "event=changed").count <= before, Date() < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        try await Task.sleep(for: .milliseconds(300))
    }

    /// Shows one line in HA, then waits until the service has polled twice, so it has seen it.
    private func show(_ line: [String: String], to service: CycletrackProcess) async throws {
        try await ha.setAppliance(line)
        let before = service.stderrSoFar.components(separatedBy: "event=polled").count
        let deadline = Date().addingTimeInterval(30)
        while service.stderrSoFar.components(separatedBy: "event=polled").count < before + 2, Date() < deadline {
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    private var settings: ApplianceSettings {
        var settings = ApplianceSettings(id: "dishwasher", name: "Dishwasher")
        settings.settleSeconds = 0
        settings.minUpdateSeconds = 0
        return settings
    }

    /// What replay sends for the scripted lines (one a minute; no body carries a time but the end's duration).
    private func replayed() -> [CycleCore.SupernotifyCall] {
        let start = Date(timeIntervalSince1970: 1_793_606_400)
        let observations = Self.lines.enumerated().map { index, line in
            var raw: [Role: String] = [:]
            for (key, value) in line { if let role = Role(rawValue: key) { raw[role] = value } }
            return Observation(at: start.addingTimeInterval(Double(index) * 60), raw: raw, units: [.progress: "%"])
        }
        return Replay.run(settings: settings, observations: observations).calls
    }

    /// A call's data as canonical JSON, with the end summary's duration (timing) blanked.
    private func comparable(_ data: [String: Any]) -> String {
        var data = data
        if let message = data["message"] as? String, let range = message.range(of: " done in ") {
            data["message"] = String(message[..<range.upperBound]) + "…"
        }
        return canonicalJSON(data)
    }

    private func kinds(_ calls: [RecordedSupernotifyCall]) -> [String] {
        calls.map { call in
            let extra = call.data["extra_data"] as? [String: Any] ?? [:]
            if extra["mobile_push_clear_notification"] as? Bool == true { return "clear" }
            if (extra["mobile_push_notification_tag"] as? String)?.hasSuffix("_end") == true { return "end" }
            if extra["silent"] as? Bool == true { return "quiet" }
            return "start"
        }
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
        try await Task.sleep(for: .seconds(1))
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

    @Test("events mode: HA restarted mid-cycle; the service subscribes again, reads everything once, and completes the cycle")
    func homeAssistantRestartMidCycleByEvents() async throws {
        let service = try startService(updates: "events")
        let middle = Self.lines.count / 2
        for line in Self.lines.prefix(middle) { try await showByEvent(line, to: service) }
        await ha.stop()
        #expect(service.waitForLog("event=events_lost"), "\(service.stderrSoFar)")
        try await ha.start()
        // A change made while the service was away is seen by the read after subscribing.
        try await ha.setAppliance(Self.lines[middle])
        let before = service.stderrSoFar.components(separatedBy: "event=events_connected").count
        let deadline = Date().addingTimeInterval(60)
        while service.stderrSoFar.components(separatedBy: "event=events_connected").count <= before, Date() < deadline {
            try await Task.sleep(for: .milliseconds(100))
        }
        for line in Self.lines.suffix(from: middle + 1) { try await showByEvent(line, to: service) }
        _ = try await ha.waitForSupernotifyCalls(count: 1)
        try await Task.sleep(for: .seconds(1))
        service.signal(SIGTERM)
        #expect(service.wait(timeout: 15).status == 0)
        let all = kinds(try ha.supernotifyCalls())
        #expect(all.filter { $0 == "start" }.count == 1, "\(all)")
        #expect(all.filter { $0 == "clear" }.count == 1, "\(all)")
        #expect(all.suffix(2) == ["clear", "end"], "\(all)")
        // HA forgot the entities when it restarted; the service set them again.
        let entity = try await ha.state("sensor.cycletrack_dishwasher")
        #expect((entity?["attributes"] as? [String: Any])?["last_outcome"] as? String == "finished", "\(String(describing: entity))")
        #expect(try await ha.state("sensor.cycletrack_pushes_today") != nil)
    }

    @Test("kill -9 at a random moment mid-cycle, then a restart: one start, one clear, one end, nothing lost")
    func killNineAndRestart() async throws {
        var service = try startService()
        let killAt = Int.random(in: 3...(Self.lines.count - 4))
        for (index, line) in Self.lines.enumerated() {
            if index == killAt {
                service.signal(SIGKILL)
                _ = service.wait(timeout: 10)
                try await ha.setAppliance(line)
                service = try startService()
            }
            try await show(line, to: service)
        }
        let calls = try await ha.waitForSupernotifyCalls(count: 3)
        try await Task.sleep(for: .seconds(2))
        service.signal(SIGTERM)
        #expect(service.wait(timeout: 15).status == 0)
        let all = kinds(try ha.supernotifyCalls())
        #expect(all.filter { $0 == "start" }.count == 1, "killed before line \(killAt): \(all)")
        #expect(all.filter { $0 == "clear" }.count == 1, "killed before line \(killAt): \(all)")
        #expect(all.filter { $0 == "end" }.count == 1, "killed before line \(killAt): \(all)")
        #expect(all.last == "end")
        #expect(calls.count <= 18)
        let query = try CycletrackProcess.run(["query", "--db", database, "--format", "json"])
        let cycles = try #require(JSONSerialization.jsonObject(with: Data(query.stdout.utf8)) as? [[String: Any]])
        #expect(cycles.count == 1)
        #expect(cycles.first?["outcome"] as? String == "finished")
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
        let deadline = Date().addingTimeInterval(30)
        while service.stderrSoFar.components(separatedBy: "event=call appliance=dishwasher kind=start").count < 3, Date() < deadline {
            try await Task.sleep(for: .milliseconds(100))
        }
        // Long enough for every retry the clear would have had.
        try await Task.sleep(for: .seconds(12))
        for line in running.prefix(3) { try await show(line, to: service) }
        try await show(Self.lines[Self.lines.count - 2], to: service)
        #expect(service.waitForLog("event=call appliance=dishwasher kind=end"), "\(service.stderrSoFar)")
        try await Task.sleep(for: .seconds(1))
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

    @Test("HA stopped mid-cycle and started again: the outage is logged once, the cycle completes")
    func homeAssistantRestartMidCycle() async throws {
        let service = try startService()
        let half = Self.lines.count / 2
        for line in Self.lines.prefix(half) { try await show(line, to: service) }
        await ha.stop()
        #expect(service.waitForLog("event=ha_unreachable", timeout: 30))
        try await Task.sleep(for: .seconds(3))
        try await ha.start()
        #expect(service.waitForLog("event=ha_back", timeout: 60))
        for line in Self.lines.dropFirst(half) { try await show(line, to: service) }
        _ = try await ha.waitForSupernotifyCalls(count: 2)
        try await Task.sleep(for: .seconds(2))
        service.signal(SIGTERM)
        let result = service.wait(timeout: 15)
        #expect(result.status == 0)
        #expect(result.stderr.components(separatedBy: "event=ha_unreachable").count - 1 == 1)
        let all = kinds(try ha.supernotifyCalls())
        #expect(all.filter { $0 == "start" }.count == 1, "\(all)")
        #expect(all.suffix(2) == ["clear", "end"], "\(all)")
    }

    @Test("check finds the appliance by discovery and confirms token, version, entities and supernotify.notify")
    func checkAgainstRealHomeAssistant() async throws {
        let result = try CycletrackProcess.run(["check", "--config", config()])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("version \(ha.version)"))
        #expect(result.stdout.contains("found Dishwasher"))
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

