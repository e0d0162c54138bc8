import CycleCore
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// The oldest Home Assistant the integration supports: hacs.json's `homeassistant`.
enum IntegrationMinimum {
    static let version: String = {
        let file = HomeAssistantProcess.repositoryRoot.appendingPathComponent("hacs.json")
        let object = (try? Data(contentsOf: file)).flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
        return object?["homeassistant"] as? String ?? "9999.0"
    }()
}

/// Issue 20 end to end: the integration in `custom_components/cycletrack`, installed from
/// the repository into a real Home Assistant 2026.11's `custom_components`, set up through
/// HA's config-flow REST API against a real `cycletrack run`, a cycle played on the Home
/// Connect stand-in's dishwasher (another integration's device). One Home Assistant for
/// the whole scenario; screenshots of the frontend's device pages in headless Chromium at
/// the end (docs/screenshots/ with `CYCLETRACK_WRITE_SCREENSHOTS=1`).
@Suite(
    "The cycletrack integration in a real Home Assistant",
    .serialized,
    .timeLimit(.minutes(10)),
    .realHomeAssistant,
    .enabled(if: HomeAssistantProcess.isAtLeast(IntegrationMinimum.version),
             Comment(rawValue: "the integration needs Home Assistant \(IntegrationMinimum.version) (hacs.json); this run is on \(HomeAssistantProcess.version)"))
)
struct IntegrationWithHomeAssistantTests {
    static let program = "dishcare_dishwasher_program_eco_50"
    static let finish = "2026-12-01T23:30:00+00:00"

    let ha: HomeAssistantProcess
    let scratch: Scratch
    let apiPort: Int
    /// Holds `apiPort` for the suite (see `PortClaim`).
    let apiPortClaim: PortClaim

    init() async throws {
        ha = try HomeAssistantProcess()
        try Self.install(into: ha.configDirectory)
        let started = ContinuousClock.now
        try await ha.start()
        print("IntegrationWithHomeAssistantTests: Home Assistant started in \(ContinuousClock.now - started)")
        scratch = try Scratch()
        apiPortClaim = try PortClaim()
        apiPort = apiPortClaim.port
    }

    /// The integration from the repository beside the stand-ins; a browser on 127.0.0.1
    /// logs in by itself (trusted_networks, one user, bypass); the frontend's onboarding
    /// step for the location is marked done (finishing it sets up integrations that want
    /// the network), so the frontend opens its pages instead of onboarding.
    static func install(into config: URL) throws {
        let files = FileManager.default
        try files.copyItem(at: HomeAssistantProcess.repositoryRoot.appendingPathComponent("custom_components/cycletrack"),
                           to: config.appendingPathComponent("custom_components/cycletrack"))
        let yaml = config.appendingPathComponent("configuration.yaml")
        let text = try String(contentsOf: yaml, encoding: .utf8)
        guard let head = text.range(of: "\nhomeassistant:\n") else { throw HomeAssistantTestError("no homeassistant: block in \(yaml.path)") }
        try text.replacingCharacters(in: head, with: """

            homeassistant:
              auth_providers:
                - type: trusted_networks
                  trusted_networks: [127.0.0.1/32]
                  allow_bypass_login: true
                - type: homeassistant

            """).write(to: yaml, atomically: true, encoding: .utf8)
        let storage = config.appendingPathComponent(".storage")
        try files.createDirectory(at: storage, withIntermediateDirectories: true)
        try #"{"version": 4, "minor_version": 1, "key": "onboarding", "data": {"done": ["core_config"]}}"#
            .write(to: storage.appendingPathComponent("onboarding"), atomically: true, encoding: .utf8)
    }

    // MARK: The service

    var serviceURL: String { "http://127.0.0.1:\(apiPort)" }

    func startService() throws -> CycletrackProcess {
        let config = scratch.write("cycletrack.json", """
            {"home_assistant": {"url": "\(ha.url.absoluteString)", "token_file": "\(ha.tokenFile.path)"},
             "database": "\(scratch.path)/history.sqlite",
             "updates": "poll", "poll": {"active_seconds": 1, "idle_seconds": 1}, "discover": true,
             "http": {"listen": "127.0.0.1", "port": \(apiPort)},
             "appliances": [{"id": "dishwasher", "settle_seconds": 0, "min_update_seconds": 0,
                             "entities": {"operation_state": "sensor.dishwasher_operation_state"}}]}
            """)
        let service = try CycletrackProcess(["run", "--config", config], environment: ["CYCLETRACK_LOG": "debug"])
        #expect(service.waitForLog("origin=config+discovered", timeout: 60), "\(service.stderrSoFar)")
        #expect(service.waitForLog("event=history_page", timeout: 30), "\(service.stderrSoFar)")
        return service
    }

    func stop(_ service: CycletrackProcess) -> CycletrackProcess.Result {
        service.signal(SIGTERM)
        return service.wait(timeout: 20)
    }

    var apiKey: String {
        get throws {
            try String(contentsOfFile: scratch.path + "/cycletrack.api-key", encoding: .utf8)
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }
    }

    /// Shows `values` in HA, then waits until the service has polled twice, so it has seen them.
    private func show(_ values: [String: Any], to service: CycletrackProcess) async throws {
        try await ha.setAppliance(values)
        try await service.waitForPolls(2)
    }

    // MARK: Home Assistant

    /// The user step of the config flow over HA's REST API, as the UI does it.
    func setUpThroughConfigFlow() async throws -> [String: Any] {
        let (status, body) = try await ha.request("POST", "/api/config/config_entries/flow", json: ["handler": "cycletrack"])
        let form = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any], "HTTP \(status)")
        #expect(form["type"] as? String == "form" && form["step_id"] as? String == "user", "\(form)")
        let flowID = try #require(form["flow_id"] as? String)
        let fields = (form["data_schema"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        #expect(fields == ["url", "api_key"])
        let (_, answer) = try await ha.request("POST", "/api/config/config_entries/flow/\(flowID)",
                                               json: ["url": serviceURL, "api_key": try apiKey])
        let created = try #require(try JSONSerialization.jsonObject(with: answer) as? [String: Any])
        #expect(created["type"] as? String == "create_entry", "\(created)")
        let entry = try #require(created["result"] as? [String: Any])
        #expect(entry["state"] as? String == "loaded", "\(entry)")
        #expect(!String(decoding: answer, as: UTF8.self).contains(try apiKey), "the flow's answer shows no key")
        return entry
    }

    /// Waits (bounded) until `entityID`'s state satisfies `condition`; returns it.
    @discardableResult
    func waitForState(_ entityID: String, timeout: Double = 60, _ what: String,
                              _ condition: (String) -> Bool) async throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var last = "(none)"
        while Date() < deadline {
            if let state = try await ha.state(entityID)?["state"] as? String {
                last = state
                if condition(state) { return state }
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw HomeAssistantTestError("\(entityID) never became \(what): last \(last)")
    }

    /// The progress values of the dishwasher's quiet Live Activity updates, in order.
    private func updateProgress(from calls: [RecordedSupernotifyCall]) -> [Int] {
        calls.compactMap { call in
            let extra = call.data["extra_data"] as? [String: Any] ?? [:]
            guard extra["silent"] as? Bool == true, extra["mobile_push_clear_notification"] as? Bool != true else { return nil }
            return extra["progress"] as? Int
        }
    }

    private func calls(after count: Int) throws -> [RecordedSupernotifyCall] { Array(try ha.supernotifyCalls().dropFirst(count)) }

    // MARK: The scenario

    @Test("Set up in HA's UI; entities on the dishwasher's device; number and button steer the running cycle; a service restart is seen and sends nothing twice; the device pages in Chromium",
          .chromium("the integration's scenario (its last step shows the device pages in Chromium) is"))
    func integrationEndToEnd() async throws {
        var service = try startService()
        defer { if service.process.isRunning { _ = stop(service) } }
        let entry = try await setUpThroughConfigFlow()
        #expect(entry["domain"] as? String == "cycletrack")
        let instanceID = try await serviceInstanceID()
        let ids = try await checkRegistries(instanceID: instanceID)

        // A cycle: the start, then updates at the default steps (10, 20).
        try await show(["operation_state": "ready", "program": "unknown"], to: service)
        try await show(["operation_state": "run", "progress": 0, "finish_time": Self.finish, "program": Self.program], to: service)
        try await waitForState(ids.cycleState, "running") { $0 == "running" }
        try await waitForState(ids.running, "on") { $0 == "on" }
        for progress in [10, 20] { try await show(["operation_state": "run", "progress": progress], to: service) }
        #expect(updateProgress(from: try ha.supernotifyCalls()) == [10, 20])
        // Assist asked when it will be done (+Assist.swift).
        try await askAssist()

        // number.set_value through HA: 25 % steps from now on, for this running cycle.
        let (setStatus, setBody) = try await ha.callService("number", "set_value", ["entity_id": ids.progressStep, "value": 25])
        #expect(setStatus == 200, "\(String(decoding: setBody, as: UTF8.self))")
        try await waitForState(ids.progressStep, "25") { Double($0) == 25 }
        let beforeTuning = try ha.supernotifyCalls().count
        for progress in [25, 30, 40, 50] { try await show(["operation_state": "run", "progress": progress], to: service) }
        // With the old 10 % steps these would have been 30, 40, 50.
        #expect(updateProgress(from: try calls(after: beforeTuning)) == [25, 50])

        // The button: one clear, then no more live calls for this cycle.
        let (pressStatus, pressBody) = try await ha.callService("button", "press", ["entity_id": ids.endActivity])
        #expect(pressStatus == 200, "\(String(decoding: pressBody, as: UTF8.self))")
        let kinds = try await ha.callKinds(of: "dishwasher", once: "clear")
        #expect(kinds.filter { $0 == "clear" }.count == 1, "\(kinds)")

        // The service restarted: unavailable in HA while it is down, back after, nothing sent meanwhile.
        let beforeRestart = try ha.supernotifyCalls().count
        #expect(stop(service).status == 0)
        try await waitForState(ids.running, "unavailable") { $0 == "unavailable" }
        #expect(try await ha.state(ids.cycleState)?["state"] as? String == "unavailable")
        // A stop is the stream's clean end: one warning in HA's log, no error (aiohttp's
        // TransferEncodingError came from a cut stream).
        let logged = ha.logTail(lines: 1_000_000).split(separator: "\n")
        let errors = logged.filter { $0.contains(" ERROR ") && $0.contains("cycletrack") }
        #expect(errors.isEmpty, "\(errors.joined(separator: "\n"))")
        #expect(logged.filter { $0.contains("WARNING") && $0.contains("stopped; its entities are unavailable") }.count == 1)
        service = try startService()
        try await waitForState(ids.running, "on again") { $0 == "on" }
        #expect(try await ha.state(ids.cycleState)?["state"] as? String == "running")
        try await show(["operation_state": "run", "progress": 60], to: service)
        #expect(try calls(after: beforeRestart).isEmpty, "nothing sent again after the restart")
        // The device pages while the cycle runs, from the frontend of this same HA.
        let screenshotsStarted = ContinuousClock.now
        try await takeScreenshots(ids: ids)
        print("IntegrationWithHomeAssistantTests: the pages in Chromium took \(ContinuousClock.now - screenshotsStarted)")

        try await show(["operation_state": "finished", "progress": 100], to: service)
        try await waitForState(ids.cycleState, "finished") { $0 == "finished" }
        let final = try await ha.callKinds(of: "dishwasher", once: "end")
        #expect(final.filter { $0 == "start" }.count == 1 && final.filter { $0 == "end" }.count == 1, "\(final)")
        #expect(final.filter { $0 == "clear" }.count == 1, "the button's clear only: \(final)")
        #expect(final.first == "start" && final.last == "end", "\(final)")
        let all = try ha.supernotifyCalls().map(\.canonicalData)
        #expect(Set(all).count == all.count, "no call twice")

        let result = stop(service)
        #expect(result.status == 0)
        #expect(!result.stderr.contains(try apiKey), "the service never logs its key")
    }

    /// The service's instance id, from its own API (the entry's unique id).
    func serviceInstanceID() async throws -> String {
        var request = URLRequest(url: try #require(URL(string: serviceURL + "/api/v1/service")))
        request.setValue("Bearer \(try apiKey)", forHTTPHeaderField: "Authorization")
        let (data, _) = try await URLSession.shared.data(for: request)
        let service = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return try #require(service["instance_id"] as? String)
    }

    // MARK: Registries

    struct EntityIDs {
        var cycleState: String
        var running: String
        var progressStep: String
        var endActivity: String
        var applianceDevice: String
        var serviceDevice: String
        var entryID: String
    }

    /// Every cycletrack entity has a unique id of the service's instance; the dishwasher's
    /// are on Home Connect's device (no device of cycletrack's own for it); the service's
    /// on the service device.
    private func checkRegistries(instanceID: String) async throws -> EntityIDs {
        let entities = try #require(try await ha.webSocketCommand("config/entity_registry/list") as? [[String: Any]])
        let devices = try #require(try await ha.webSocketCommand("config/device_registry/list") as? [[String: Any]])
        let ours = entities.filter { $0["platform"] as? String == "cycletrack" }
        let homeConnect = try #require(entities.first { $0["entity_id"] as? String == "sensor.dishwasher_operation_state" })
        let dishwasherDevice = try #require(homeConnect["device_id"] as? String)
        let device = try #require(devices.first { $0["id"] as? String == dishwasherDevice })
        #expect(device["manufacturer"] as? String == "BSH", "the Home Connect stand-in's device: \(device)")
        func entity(_ key: String) throws -> [String: Any] {
            try #require(ours.first { $0["unique_id"] as? String == "\(instanceID)_dishwasher_\(key)" }, "no \(key) in \(ours.map { $0["unique_id"] ?? "" })")
        }
        // With a switch or number per setting the service declares as an entity (ApplianceSetting.declared).
        let keys = ["cycle_state", "program", "progress", "finish", "last_cycle_duration", "last_cycle_energy", "energy",
                    "running", "awaits_unloading", "cycle", "progress_step", "fine_from", "fine_step", "end_activity",
                    "unloaded"]
            + ApplianceSetting.declared.map(\.entityKey)
        for key in keys { #expect(try entity(key)["device_id"] as? String == dishwasherDevice, "\(key) on the dishwasher") }
        #expect(ours.allSatisfy { ($0["unique_id"] as? String)?.hasPrefix(instanceID + "_") == true })
        let serviceDevice = try #require(devices.first { device in
            (device["identifiers"] as? [[String]] ?? []).contains(["cycletrack", instanceID])
        })
        let serviceDeviceID = try #require(serviceDevice["id"] as? String)
        let pushesToday = try #require(ours.first { ($0["unique_id"] as? String)?.hasSuffix("_pushes_today") == true })
        #expect(pushesToday["device_id"] as? String == serviceDeviceID)
        #expect(!devices.contains { device in
            (device["identifiers"] as? [[String]] ?? []).contains(["cycletrack", "\(instanceID)_dishwasher"])
        }, "no device of cycletrack's own for the dishwasher")
        return EntityIDs(cycleState: try #require(try entity("cycle_state")["entity_id"] as? String),
                         running: try #require(try entity("running")["entity_id"] as? String),
                         progressStep: try #require(try entity("progress_step")["entity_id"] as? String),
                         endActivity: try #require(try entity("end_activity")["entity_id"] as? String),
                         applianceDevice: dishwasherDevice, serviceDevice: serviceDeviceID,
                         entryID: try #require(pushesToday["config_entry_id"] as? String))
    }
}
