import CycleCore
import Foundation
import Testing

/// The dishwasher cycle `ServiceWithHomeAssistantTests` and `ServiceRestartsWithHomeAssistantTests`
/// play through the home_connect stand-in.
enum DishwasherScript {
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
}

/// `cycletrack run` against a real Home Assistant, as the service suites drive it: the
/// config, starting the service, showing HA the script line by line, and what replay
/// sends for the same lines. The two suites are apart so that CI runs them side by side.
protocol ServiceAgainstHomeAssistant {
    var ha: HomeAssistantProcess { get }
    var scratch: Scratch { get }
}

extension ServiceAgainstHomeAssistant {
    static var program: String { DishwasherScript.program }
    static var lines: [[String: String]] { DishwasherScript.lines }

    /// In `events` mode the poll interval is an hour: only events can move the cycle on.
    func config(updates: String = "poll") -> String {
        let poll = updates == "poll" ? 1 : 3600
        return scratch.write("cycletrack.json", """
            {"home_assistant": {"url": "\(ha.url.absoluteString)", "token_file": "\(ha.tokenFile.path)"},
             "updates": "\(updates)", "poll": {"active_seconds": \(poll), "idle_seconds": \(poll)}, "discover": true,
             "appliances": [{"id": "dishwasher", "settle_seconds": 0, "min_update_seconds": 0,
                             "entities": {"operation_state": "sensor.dishwasher_operation_state"}}]}
            """)
    }

    var database: String { scratch.path + "/history.sqlite" }

    func startService(updates: String = "poll") throws -> CycletrackProcess {
        let service = try CycletrackProcess(["run", "--config", config(updates: updates), "--db", database],
                                            environment: ["CYCLETRACK_LOG": "debug"])
        #expect(service.waitForLog("event=tracking appliance=dishwasher", timeout: 60), "\(service.stderrSoFar)")
        if updates == "events" {
            #expect(service.waitForLog("event=events_connected", timeout: 30), "\(service.stderrSoFar)")
        }
        return service
    }

    /// Shows one line in HA and waits until the service, following events, has taken it in:
    /// HA sends the line's entities as one coalesced message, which the service takes as
    /// one burst and logs as one `changed` (nothing straggles after it).
    func showByEvent(_ line: [String: String], to service: CycletrackProcess) async throws {
        let before = service.stderrSoFar.components(separatedBy: "event=changed").count
        try await ha.setAppliance(line)
        try await waitFor("the service took in \(line)", timeout: 10) {
            service.stderrSoFar.components(separatedBy: "event=changed").count > before
        }
    }

    /// Shows one line in HA, then waits until the service has polled twice, so it has seen it.
    func show(_ line: [String: String], to service: CycletrackProcess) async throws {
        try await ha.setAppliance(line)
        let before = service.stderrSoFar.components(separatedBy: "event=polled").count
        let deadline = Date().addingTimeInterval(30)
        while service.stderrSoFar.components(separatedBy: "event=polled").count < before + 2, Date() < deadline {
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    var settings: ApplianceSettings {
        var settings = ApplianceSettings(id: "dishwasher", name: "Dishwasher")
        settings.settleSeconds = 0
        settings.minUpdateSeconds = 0
        return settings
    }

    /// What replay sends for the scripted lines (one a minute; no body carries a time but the end's duration).
    func replayed() -> [CycleCore.SupernotifyCall] {
        let start = Date(timeIntervalSince1970: 1_793_606_400)
        let observations = Self.lines.enumerated().map { index, line in
            var raw: [Role: String] = [:]
            for (key, value) in line { if let role = Role(rawValue: key) { raw[role] = value } }
            return Observation(at: start.addingTimeInterval(Double(index) * 60), raw: raw, units: [.progress: "%"])
        }
        return Replay.run(settings: settings, observations: observations).calls
    }

    /// A call's data as canonical JSON, with the end summary's duration (timing) blanked.
    func comparable(_ data: [String: Any]) -> String {
        var data = data
        if let message = data["message"] as? String, let range = message.range(of: " done in ") {
            data["message"] = String(message[..<range.upperBound]) + "…"
        }
        return canonicalJSON(data)
    }

    func kinds(_ calls: [RecordedSupernotifyCall]) -> [String] {
        calls.map { call in
            let extra = call.data["extra_data"] as? [String: Any] ?? [:]
            if extra["mobile_push_clear_notification"] as? Bool == true { return "clear" }
            if (extra["mobile_push_notification_tag"] as? String)?.hasSuffix("_end") == true { return "end" }
            if extra["silent"] as? Bool == true { return "quiet" }
            return "start"
        }
    }
}
