import CycleCore
import Foundation
import Testing

/// Real devices of the corpus (Tests/HomeAssistantAPITests/Fixtures/RealDevices, converted from
/// Home Assistant's own test snapshots) served by a real Home Assistant through the brand
/// stand-ins (custom_components/miele, smartthings and lg_thinq, built on cycletrack_corpus): a
/// Miele refrigerator and freezer that are simply on (`in_use`), a Miele hood, a SmartThings
/// refrigerator, an LG ThinQ oven cooking and an LG ThinQ air conditioner (both left out,
/// expected.json), a Miele washing machine and a SmartThings dishwasher. `run` must start
/// nothing for any but the washer and the dishwasher, whose cycles must each end with one
/// clear and one end.
@Suite("Real devices of the corpus against a real Home Assistant", .serialized, .realHomeAssistant)
struct RealDevicesWithHomeAssistantTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../HomeAssistantAPITests/Fixtures/RealDevices").standardizedFileURL
    static let served = ["miele/refrigerator", "miele/freezer", "miele/hood", "miele/washing-machine",
                          "smartthings/da-ref-normal-000001", "smartthings/da-wm-dw-000001",
                          "lg_thinq/test-oven", "lg_thinq/air-conditioner"]

    let ha: HomeAssistantProcess
    let scratch: Scratch

    init() async throws {
        ha = try HomeAssistantProcess()
        try Self.serve(Self.served, config: ha.configDirectory)
        try await ha.start()
        scratch = try Scratch()
    }

    /// Copies the fixtures where the stand-ins read them (`<config>/cycletrack_corpus/<integration>/`)
    /// and sets up the integrations the fixture config doesn't (miele is there already).
    static func serve(_ devices: [String], config: URL) throws {
        let files = FileManager.default
        for device in devices {
            let target = config.appendingPathComponent("cycletrack_corpus/\(device).json")
            try files.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try files.copyItem(at: corpus.appendingPathComponent(device + ".json"), to: target)
        }
        let configuration = config.appendingPathComponent("configuration.yaml")
        let yaml = try String(contentsOf: configuration, encoding: .utf8)
        try (yaml + "\n# Real devices of the corpus (RealDevicesWithHomeAssistantTests).\nsmartthings:\nlg_thinq:\n")
            .write(to: configuration, atomically: true, encoding: .utf8)
    }

    var database: String { scratch.path + "/history.sqlite" }

    func config() -> String {
        scratch.write("cycletrack.json", """
            {"home_assistant": {"url": "\(ha.url.absoluteString)", "token_file": "\(ha.tokenFile.path)"},
             "updates": "poll", "poll": {"active_seconds": 1, "idle_seconds": 1}, "discover": true}
            """)
    }

    /// The appliances `check --format json` lists.
    func discovered(_ path: String) throws -> [[String: Any]] {
        let check = try CycletrackProcess.run(["check", "--config", path, "--format", "json"])
        let object = try #require(JSONSerialization.jsonObject(with: Data(check.stdout.utf8)) as? [String: Any], "\(check.stdout)")
        return try #require(object["appliances"] as? [[String: Any]], "\(check.stdout)")
    }

    func set(_ domain: String, _ states: [String: Any]) async throws {
        let (status, body) = try await ha.callService(domain, "set_entity_state", ["states": states])
        #expect(status == 200, "\(domain): \(String(decoding: body, as: UTF8.self))")
    }

    @Test("The fridges, the freezer, the hood, an oven and an air conditioner start nothing; the washer's and the dishwasher's cycles end with one clear and one end")
    func realDevices() async throws {
        let path = config()
        let appliances = try discovered(path)
        let names = appliances.compactMap { $0["name"] as? String }
        for name in ["Refrigerator", "Freezer", "Hood", "Test oven", "Test air conditioner"] {
            #expect(!names.contains(name), "\(name) was taken for a cycle appliance: \(names)")
        }
        func id(of operationState: String) throws -> String {
            try #require(appliances.first { $0["operation_state"] as? String == operationState }?["id"] as? String,
                         "no appliance reads \(operationState): \(appliances)")
        }
        let washer = try id(of: "sensor.washing_machine")
        let dishwasher = try id(of: "sensor.dishwasher_machine_state")
        // check names the devices it left out, each with why.
        let table = try CycletrackProcess.run(["check", "--config", path]).stdout
        for name in ["Refrigerator", "Freezer", "Hood"] {
            let line = table.split(separator: "\n").first { $0.contains("left out \(name)") }
            #expect(line.map { $0.count > "left out \(name)".count + 10 } == true, "no reason for \(name) in:\n\(table)")
        }

        let service = try CycletrackProcess(["run", "--config", path, "--db", database],
                                            environment: ["CYCLETRACK_LOG": "debug"])
        #expect(service.waitForLog("event=tracking appliance=\(washer)", timeout: 60), "\(service.stderrSoFar)")
        #expect(service.waitForLog("event=tracking appliance=\(dishwasher)", timeout: 60), "\(service.stderrSoFar)")
        let finish = ISO8601DateFormatter().string(from: Date().addingTimeInterval(90 * 60))
        let steps: [(miele: [String: Any], smartthings: [String: Any])] = [
            (["sensor.washing_machine": "in_use", "sensor.washing_machine_program": "cottons",
              "sensor.washing_machine_program_phase": "main_wash", "sensor.washing_machine_remaining_time": 90,
              "sensor.washing_machine_elapsed_time": 0, "sensor.washing_machine_energy_consumption": 0.1],
             ["sensor.dishwasher_machine_state": "run", "sensor.dishwasher_job_state": "wash",
              "sensor.dishwasher_completion_time": finish]),
            (["sensor.washing_machine_program_phase": "rinse", "sensor.washing_machine_remaining_time": 45,
              "sensor.washing_machine_elapsed_time": 45, "sensor.washing_machine_energy_consumption": 0.6],
             ["sensor.dishwasher_job_state": "rinse"]),
            (["sensor.washing_machine": "program_ended", "sensor.washing_machine_program_phase": "finished",
              "sensor.washing_machine_remaining_time": 0, "sensor.washing_machine_elapsed_time": 90],
             ["sensor.dishwasher_machine_state": "stop", "sensor.dishwasher_job_state": "finish"]),
        ]
        for step in steps {
            try await set("miele", step.miele)
            try await set("smartthings", step.smartthings)
            try await service.waitForPolls(2)  // the service has read this step before the next
        }
        let washerCalls = try await ha.callKinds(of: washer, once: "end", timeout: 60)
        let dishwasherCalls = try await ha.callKinds(of: dishwasher, once: "end", timeout: 60)
        try await service.waitForPolls(3)  // the fridge and the freezer have had time to show anything
        service.signal(SIGTERM)
        #expect(service.wait(timeout: 15).status == 0)

        for (name, calls) in [("washer", washerCalls), ("dishwasher", dishwasherCalls)] {
            #expect(calls.first == "start", "\(name): \(calls)")
            #expect(calls.filter { $0 == "start" }.count == 1, "\(name): \(calls)")
            #expect(calls.filter { $0 == "clear" }.count == 1 && calls.filter { $0 == "end" }.count == 1, "\(name): \(calls)")
            #expect(calls.suffix(2) == ["clear", "end"], "\(name): \(calls)")
        }
        let ours = [washer, dishwasher].map { NotificationTag.live(applianceID: $0) }
        let strays = try ha.supernotifyCalls().compactMap { call -> String? in
            let extra = call.data["extra_data"] as? [String: Any] ?? [:]
            let tag = extra["mobile_push_notification_tag"] as? String ?? "(no tag) \(call.data)"
            return ours.contains { tag.hasPrefix($0) } ? nil : tag
        }
        #expect(strays.isEmpty, "Supernotify calls for appliances that are no cycle appliance: \(strays)")
        let stored = try storedCycles(database: database)
        #expect(stored.count == 2, "\(stored)")
        #expect(stored.allSatisfy { $0["outcome"] as? String == "finished" }, "\(stored)")
    }
}
