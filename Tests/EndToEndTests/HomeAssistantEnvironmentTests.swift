@testable import CycleCore
import Foundation
import Testing

/// Proves the real-Home-Assistant environment the end-to-end tests stand on: HA
/// 2026.11.0 from scripts/ha/forky-root.sh's root (or 2024.3.3 from scripts/ha/setup.sh's
/// venv, CYCLETRACK_HA_VERSION), the supernotify and home_connect stand-ins from
/// Fixtures/ha-config, shaped as HA 2026.11's home_connect and Supernotify 2.x. Each
/// test starts its own HA on a fresh copy of the fixture.
@Suite(
    "Real Home Assistant environment",
    .serialized,
    .realHomeAssistant
)
struct HomeAssistantEnvironmentTests {
    static let operationStates = [
        "inactive", "ready", "delayedstart", "run", "pause", "actionrequired", "finished", "error", "aborting",
    ]

    /// What cycletrack's discovery asks HA for: every home_connect entity, its device
    /// and the attributes that tell the roles apart.
    static let discoveryTemplate = """
        {% set ns = namespace(rows=[]) %}
        {% for e in integration_entities('home_connect') %}
        {% set ns.rows = ns.rows + [{'entity_id': e, 'device_id': device_id(e), 'state': states(e),
           'device_name': device_attr(device_id(e), 'name'), 'manufacturer': device_attr(device_id(e), 'manufacturer'),
           'options': state_attr(e, 'options'), 'unit_of_measurement': state_attr(e, 'unit_of_measurement'),
           'device_class': state_attr(e, 'device_class')}] %}
        {% endfor %}
        {{ ns.rows | tojson }}
        """

    let ha: HomeAssistantProcess

    init() async throws {
        ha = try await .started()
    }

    func discovered() async throws -> [String: [String: Any]] {
        let text = try await ha.renderTemplate(Self.discoveryTemplate)
        let rows = try #require(
            try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]], "template gave \(text)")
        var byEntity: [String: [String: Any]] = [:]
        for row in rows {
            byEntity[try #require(row["entity_id"] as? String)] = row
        }
        return byEntity
    }

    @Test("HA answers with the onboarded token, and only with it")
    func answersWithToken() async throws {
        let (status, data) = try await ha.request("GET", "/api/")
        #expect(status == 200)
        #expect(String(decoding: data, as: UTF8.self).contains("API running"))
        #expect(try await ha.request("GET", "/api/", authorized: false).status == 401)

        let config = try #require(try await ha.getJSON("/api/config") as? [String: Any])
        #expect(config["version"] as? String == HomeAssistantProcess.version)
        #expect(config["time_zone"] as? String == "UTC")
        let components = Set(config["components"] as? [String] ?? [])
        #expect(components.isSuperset(of: ["api", "http", "supernotify", "home_connect", "sensor", "select"]))
        #expect(!components.contains("default_config"))

        let attributes = try FileManager.default.attributesOfItem(atPath: ha.tokenFile.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let token = try String(contentsOf: ha.tokenFile, encoding: .utf8)
        #expect(token.count > 100)
        let onboardLog = try String(contentsOf: ha.directory.appendingPathComponent("onboard.log"), encoding: .utf8)
        #expect(!ha.logTail(lines: 100_000).contains(token))
        #expect(!onboardLog.contains(token))
    }

    @Test("A state POSTed to /api/states reads back with its attributes")
    func postedStateReadsBack() async throws {
        #expect(try await ha.state("sensor.e2e_probe") == nil)
        let attributes: [String: Any] = ["options": Self.operationStates, "device_class": "enum"]
        #expect(try await ha.setState("sensor.e2e_probe", "run", attributes: attributes) == 201)
        let first = try #require(try await ha.state("sensor.e2e_probe"))
        #expect(first["state"] as? String == "run")
        #expect(canonicalJSON(first["attributes"] ?? [:]) == canonicalJSON(attributes))

        #expect(try await ha.setState("sensor.e2e_probe", "finished", attributes: attributes) == 200)
        #expect(try await ha.state("sensor.e2e_probe")?["state"] as? String == "finished")
    }

    @Test("supernotify.notify records exactly the body HA received, and can be made to fail")
    func supernotifyRecordsCalls() async throws {
        let body: [String: Any] = [
            "title": "Dishwasher",
            "message": "Eco 50°C",
            "force_resend": true,
            "delivery_selection": "fixed",
            "delivery": ["mobile_push"],
            "extra_data": [
                "mobile_push_notification_tag": "appliance_dishwasher",
                "live_update": true,
                "notification_icon": "mdi:dishwasher",
                "channel": "Appliances",
                "importance": "high",
                "sticky": true,
                "progress": 40,
                "progress_max": 100,
                "chronometer": true,
                "when": 1_791_566_212,
                "relevance_score": 0.5,
                "silent": true,
                "alert_once": true,
            ] as [String: Any],
        ]
        #expect(try ha.supernotifyCalls().isEmpty)
        let before = Date()
        let (status, _) = try await ha.callService("supernotify", "notify", body)
        #expect(status == 200)
        let calls = try ha.supernotifyCalls()
        try #require(calls.count == 1)
        #expect(calls[0].canonicalData == canonicalJSON(body))
        #expect(calls[0].failure == nil)
        let received = try #require(calls[0].receivedDate)
        #expect(received.timeIntervalSince(before) > -5 && received.timeIntervalSinceNow < 5)
        // The call_service event's time, which the benchmark measures to: fired before
        // the handler ran (received_at is cut to the millisecond).
        let fired = try #require(calls[0].callFiredDate, "call_fired_at: \(calls[0].callFiredAt ?? "none")")
        #expect(fired <= received.addingTimeInterval(0.001) && received.timeIntervalSince(fired) < 1)

        try ha.setSupernotifyFailure(.invalid)
        #expect(try await ha.callService("supernotify", "notify", ["title": "x", "message": "y"]).status == 400)
        try ha.setSupernotifyFailure(.error)
        #expect(try await ha.callService("supernotify", "notify", ["title": "x", "message": "z"]).status == 500)
        try ha.setSupernotifyFailure(nil)
        #expect(try await ha.callService("supernotify", "notify", ["message": "ok again"]).status == 200)

        let all = try await ha.waitForSupernotifyCalls(count: 4, timeout: .seconds(5))
        #expect(all.map(\.failure) == [nil, "invalid", "error", nil])
        #expect(all.map { $0.data["message"] as? String } == ["Eco 50°C", "y", "z", "ok again"])
        #expect(try await ha.callService("supernotify", "no_such_action", [:]).status == 400)
    }

    /// Supernotify 2.13+ fingerprints a notification's title and message (digits and
    /// punctuation stripped) and delivers a repeat only with `force_resend` or a higher
    /// priority. cycletrack's own bodies (SupernotifyBody) carry `force_resend: true`, so a
    /// clear retried after a failure and two identical quiet updates all reach the phone;
    /// the same quiet update without it is suppressed (the stand-in tells them apart).
    @Test("supernotify.notify: a retried clear and two identical quiet updates reach the phone with force_resend; without it the repeat is suppressed")
    func supernotifyDeliversRepeatsOnlyWithForceResend() async throws {
        func object(_ body: JSONObject) throws -> [String: Any] {
            try #require(try JSONSerialization.jsonObject(with: Data(body.compactJSON().utf8)) as? [String: Any])
        }
        let settings = ApplianceSettings(id: "dishwasher", name: "Dishwasher")
        let clear = try object(SupernotifyBody.clear(outcome: .finished, settings: settings))
        var view = CycleView()
        view.progress = 40
        let cycle = CycleInfo(startedAt: Date(timeIntervalSince1970: 1_791_560_000))
        let quiet = try object(SupernotifyBody.live(kind: .quiet, message: SupernotifyBody.quietMessage(view: view, settings: settings),
                                                    view: view, cycle: cycle, settings: settings))
        #expect(clear["force_resend"] as? Bool == true && quiet["force_resend"] as? Bool == true)

        try ha.setSupernotifyFailure(.error)
        #expect(try await ha.callService("supernotify", "notify", clear).status == 500)
        try ha.setSupernotifyFailure(nil)
        #expect(try await ha.callService("supernotify", "notify", clear).status == 200)
        #expect(try await ha.callService("supernotify", "notify", quiet).status == 200)
        #expect(try await ha.callService("supernotify", "notify", quiet).status == 200)
        var unforced = quiet
        unforced["force_resend"] = nil
        #expect(try await ha.callService("supernotify", "notify", unforced).status == 200)
        #expect(try await ha.callService("supernotify", "notify", unforced).status == 200)
        var urgent = unforced
        urgent["priority"] = "critical"
        #expect(try await ha.callService("supernotify", "notify", urgent).status == 200)

        let calls = try await ha.waitForSupernotifyCalls(count: 7, timeout: .seconds(10))
        #expect(calls.map(\.failure) == ["error", nil, nil, nil, nil, nil, nil])
        // The failed clear, its retry, the two quiet updates, then the unforced repeat twice
        // (suppressed: the quiet updates' fingerprint was delivered) and at a higher priority.
        #expect(calls.map(\.delivered) == [false, true, true, true, false, false, true])
    }

    @Test("supernotify.notify takes the fields of Supernotify 2.x's action and refuses the rest with 400, unrecorded")
    func supernotifyRefusesWhatTheActionDoesNotTake() async throws {
        for refused: [String: Any] in [
            ["message": "x", "delivery_selection": "some"], ["message": "x", "force_resend": "yes"],
            ["message": "x", "no_such_field": 1], ["message": 5], ["message": "x", "extra_data": ["a", "b"]],
            ["message": "x", "priority": "urgent"],
        ] {
            let (status, _) = try await ha.callService("supernotify", "notify", refused)
            #expect(status == 400, "supernotify.notify \(refused) should be refused")
        }
        #expect(try ha.supernotifyCalls().isEmpty)
        let taken: [String: Any] = ["message": "x", "title": NSNull(), "target": ["person.me"], "priority": "high",
                                    "delivery": ["mobile_push": ["data": ["tag": "t"]]], "data": ["k": 1]]
        #expect(try await ha.callService("supernotify", "notify", taken).status == 200)
        #expect(try ha.supernotifyCalls().count == 1)
    }

    @Test("The template API discovers the home_connect stand-in as one device with the real entities' shape")
    func templateDiscoversDevice() async throws {
        let rows = try await discovered()
        // The event sensors are disabled by default: HA never adds them, so they are not here.
        #expect(Set(rows.keys) == [
            "sensor.dishwasher_operation_state", "sensor.dishwasher_program_progress",
            "sensor.dishwasher_program_finish_time", "select.dishwasher_active_program",
            "select.dishwasher_selected_program", "sensor.dishwasher_door", "binary_sensor.dishwasher_remote_control",
            "binary_sensor.dishwasher_remote_start", "binary_sensor.dishwasher_local_control",
        ])
        let devices = Set(rows.values.compactMap { $0["device_id"] as? String })
        #expect(devices.count == 1)
        #expect(rows.values.allSatisfy { $0["device_name"] as? String == "Dishwasher" })
        #expect(rows.values.allSatisfy { $0["manufacturer"] as? String == "BSH" })

        let operation = try #require(rows["sensor.dishwasher_operation_state"])
        #expect(operation["device_class"] as? String == "enum")
        #expect(operation["options"] as? [String] == Self.operationStates)
        #expect(operation["state"] as? String == "inactive")
        #expect(rows["sensor.dishwasher_program_progress"]?["unit_of_measurement"] as? String == "%")
        #expect(rows["sensor.dishwasher_program_progress"]?["state"] as? String == "unavailable")
        #expect(rows["sensor.dishwasher_program_finish_time"]?["device_class"] as? String == "timestamp")
        let programs = try #require(rows["select.dishwasher_active_program"]?["options"] as? [String])
        #expect(programs.contains("dishcare_dishwasher_program_eco_50"))
        #expect(rows["select.dishwasher_active_program"]?["state"] as? String == "unknown")
        #expect(rows["sensor.dishwasher_door"]?["options"] as? [String] == ["closed", "locked", "open"])
        #expect(rows["sensor.dishwasher_door"]?["device_class"] as? String == "enum")
    }

    @Test("As in HA 2026.11: unique ids end in the Home Connect key, the event sensors are registered disabled, no door binary sensor")
    func entityRegistryHasThe2026Shape() async throws {
        await ha.stop()  // HA writes its entity registry to .storage on the way out
        let file = ha.configDirectory.appendingPathComponent(".storage/core.entity_registry")
        let registry = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        let entities = try #require((registry["data"] as? [String: Any])?["entities"] as? [[String: Any]])
        var ours: [String: [String: Any]] = [:]
        for entity in entities where entity["platform"] as? String == "home_connect" {
            ours[try #require(entity["entity_id"] as? String)] = entity
        }
        let operation = try #require(ours["sensor.dishwasher_operation_state"])
        #expect(operation["unique_id"] as? String == "SIEMENS-SN65ZX49CE-68A40E000001-BSH.Common.Status.OperationState")
        #expect(operation["translation_key"] as? String == "operation_state")
        #expect(operation["disabled_by"] is NSNull)
        for event in ["program_aborted", "program_finished", "salt_lack", "rinse_aid_lack"] {
            #expect(ours["sensor.dishwasher_\(event)"]?["disabled_by"] as? String == "integration", "\(event)")
        }
        #expect(ours["sensor.dishwasher_door"]?["translation_key"] as? String == "door")
        #expect(!ours.keys.contains { $0.hasPrefix("binary_sensor.") && $0.contains("door") })
    }

    @Test("Progress and finish time are unavailable unless a program is on, as HA 2026.11 shows them")
    func programSensorsFollowTheOperationState() async throws {
        try await ha.setAppliance(["operation_state": "ready", "progress": 30, "finish_time": "2026-11-29T13:05:12+00:00"])
        #expect(try await ha.state("sensor.dishwasher_program_progress")?["state"] as? String == "unavailable")
        #expect(try await ha.state("sensor.dishwasher_program_finish_time")?["state"] as? String == "unavailable")
        try await ha.setAppliance(["operation_state": "delayedstart"])
        #expect(try await ha.state("sensor.dishwasher_program_progress")?["state"] as? String == "30")
        try await ha.setAppliance(["operation_state": "finished"])
        #expect(try await ha.state("sensor.dishwasher_program_finish_time")?["state"] as? String == "2026-11-29T13:05:12+00:00")
        try await ha.setAppliance(["operation_state": "inactive"])
        #expect(try await ha.state("sensor.dishwasher_program_progress")?["state"] as? String == "unavailable")
    }

    @Test("home_connect.set_state drives what HA shows; impossible values are refused")
    func setStateDrivesEntities() async throws {
        try await ha.setAppliance([
            "operation_state": "run",
            "progress": 42,
            "finish_time": "2026-11-29T13:05:12+00:00",
            "program": "dishcare_dishwasher_program_eco_50",
            "sensor.dishwasher_door": "locked",
        ])
        var rows = try await discovered()
        #expect(rows["sensor.dishwasher_operation_state"]?["state"] as? String == "run")
        #expect(rows["sensor.dishwasher_program_progress"]?["state"] as? String == "42")
        #expect(rows["sensor.dishwasher_program_finish_time"]?["state"] as? String == "2026-11-29T13:05:12+00:00")
        #expect(rows["select.dishwasher_active_program"]?["state"] as? String == "dishcare_dishwasher_program_eco_50")
        #expect(rows["sensor.dishwasher_door"]?["state"] as? String == "locked")

        try await ha.setAppliance(["progress": "unavailable", "program": NSNull(), "operation_state": "pause"])
        rows = try await discovered()
        #expect(rows["sensor.dishwasher_program_progress"]?["state"] as? String == "unavailable")
        #expect(rows["select.dishwasher_active_program"]?["state"] as? String == "unknown")
        #expect(rows["sensor.dishwasher_operation_state"]?["state"] as? String == "pause")
        // An unavailable entity keeps its shape: discovery still recognises it.
        #expect(rows["sensor.dishwasher_program_progress"]?["unit_of_measurement"] as? String == "%")

        for refused: [String: Any] in [
            ["operation_state": "cooling"], ["finish_time": "2026-11-29T13:05:12"], ["progress": "lots"],
            ["program": "laundry_care_washer_program_cotton"], ["no_such_role": "1"], ["operation_state": "run", "door": "ajar"],
        ] {
            let (status, _) = try await ha.callService("home_connect", "set_state", refused)
            #expect(status == 400, "set_state \(refused) should be refused")
        }
        // HA answers a bare 400; the stand-in logs why, for whoever reads the log.
        #expect(ha.logTail(lines: 500).contains("home_connect.set_state refused"))
        #expect(try await ha.state("sensor.dishwasher_operation_state")?["state"] as? String == "pause")
        #expect(try await ha.state("sensor.dishwasher_door")?["state"] as? String == "locked")
    }

    @Test("HA stopped and started again on the same config answers with the same token and state")
    func restartKeepsTokenAndState() async throws {
        try await ha.setAppliance(["operation_state": "run", "progress": 10])
        let token = try String(contentsOf: ha.tokenFile, encoding: .utf8)
        await ha.stop()
        #expect(!ha.isRunning)
        await #expect(throws: (any Error).self) { _ = try await ha.request("GET", "/api/") }

        try await ha.start()
        #expect(try String(contentsOf: ha.tokenFile, encoding: .utf8) == token)
        #expect(try await ha.request("GET", "/api/").status == 200)
        #expect(try await ha.state("sensor.dishwasher_operation_state")?["state"] as? String == "run")
        #expect(try await ha.state("sensor.dishwasher_program_progress")?["state"] as? String == "10")
        #expect(try await ha.callService("supernotify", "notify", ["message": "after restart"]).status == 200)
        #expect(try ha.supernotifyCalls().map { $0.data["message"] as? String } == ["after restart"])
    }
}
