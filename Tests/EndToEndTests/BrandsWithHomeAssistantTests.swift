import CycleCore
import CycleHistory
import Foundation
import Testing

/// Other brands and smart plugs against a real Home Assistant 2024.3.3: a Miele washing
/// machine (the `miele` stand-in, found by discovery and read with the miele profile) and
/// a washer on a smart plug (a template power sensor, configured with its one entity); an
/// AEG washer and a plug dryer in BrandsWithHomeAssistantTests+OnTime.swift.
@Suite(
    "Other brands and smart plugs against a real Home Assistant",
    .serialized,
    .realHomeAssistant
)
struct BrandsWithHomeAssistantTests {
    let ha: HomeAssistantProcess
    let scratch: Scratch

    init() async throws {
        ha = try await .started()
        scratch = try Scratch()
    }

    var database: String { scratch.path + "/history.sqlite" }

    func config(_ rest: String) -> String {
        scratch.write("cycletrack.json", """
            {"home_assistant": {"url": "\(ha.url.absoluteString)", "token_file": "\(ha.tokenFile.path)"},
             "updates": "poll", "poll": {"active_seconds": 1, "idle_seconds": 1}, \(rest)}
            """)
    }

    @Test("Discovery finds the Miele washing machine, check shows its profile, and a cycle goes through")
    func mieleCycle() async throws {
        let path = config(#""discover": true"#)
        let check = try CycletrackProcess.run(["check", "--config", path, "--format", "json"])
        let object = try #require(JSONSerialization.jsonObject(with: Data(check.stdout.utf8)) as? [String: Any], "\(check.stdout)")
        let appliances = try #require(object["appliances"] as? [[String: Any]])
        let miele = try #require(appliances.first { $0["profile"] as? String == "miele" }, "\(appliances)")
        #expect(miele["name"] as? String == "Waschmaschine")
        #expect(miele["operation_state"] as? String == "sensor.waschmaschine_status")
        #expect(appliances.contains { $0["profile"] as? String == "home_connect" })
        let id = try #require(miele["id"] as? String)
        let table = try CycletrackProcess.run(["check", "--config", path])
        #expect(table.stdout.contains("miele"), "\(table.stdout)")
        // Roles by the keys the stand-in declares like miele/sensor.py (the entity registry),
        // the elapsed time by its key, not the first duration; the AEG washer's by its unique ids.
        #expect(table.stdout.contains("(miele); by table: operation_state sensor.waschmaschine_status"), "\(table.stdout)")
        #expect(table.stdout.contains("elapsed_time sensor.waschmaschine_verstrichene_zeit"), "\(table.stdout)")
        #expect(table.stdout.contains("(electrolux); by table: operation_state sensor.aeg_waschmaschine_appliance_state"),
                "\(table.stdout)")

        let service = try CycletrackProcess(["run", "--config", path, "--db", database],
                                            environment: ["CYCLETRACK_LOG": "debug"])
        #expect(service.waitForLog("event=tracking appliance=\(id)", timeout: 60), "\(service.stderrSoFar)")
        for values: [String: Any] in [
            ["status": "on", "program": "cottons"],
            ["status": "in_use", "phase": "main_wash", "remaining_time": 90, "elapsed_time": 0, "energy": 10.0],
            ["status": "in_use", "phase": "rinse", "remaining_time": 45, "elapsed_time": 45, "energy": 10.5],
            ["status": "program_ended", "phase": "finished", "remaining_time": 0, "elapsed_time": 90, "energy": 10.8],
        ] {
            let (status, body) = try await ha.callService("miele", "set_state", values)
            #expect(status == 200, "\(String(decoding: body, as: UTF8.self))")
            try await service.waitForPolls(2)
        }
        let seen = try await ha.callKinds(of: id, once: "end")
        service.signal(SIGTERM)
        #expect(service.wait(timeout: 15).status == 0)
        #expect(seen.first == "start" && seen.suffix(2) == ["clear", "end"], "\(seen)")
        #expect(seen.filter { $0 == "start" }.count == 1, "\(seen)")
        let stored = try storedCycles(database: database)
        #expect(stored.count == 1)
        #expect(stored.first?["outcome"] as? String == "finished")
        #expect(stored.first?["program"] as? String == "cottons")
        // The store keeps the profile: replaying the stored cycle reads it as a Miele again.
        let cycleID = try #require(stored.first?["id"] as? Int)
        let again = try CycletrackProcess.run(["replay", "--cycle", String(cycleID), "--db", database, "--config", path])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout.split(separator: "\n").count == seen.count, "\(again.stdout)")
    }

    @Test("A washer on a smart plug, configured with its power entity alone: a cycle starts and ends on the power")
    func plugWasherCycle() async throws {
        try await ha.setWatts("washer_plug", 0.5)
        let path = config(#"""
            "discover": false,
            "appliances": [{"id": "plug_washer", "power_entity": "sensor.washer_plug_power",
                            "power_start_seconds": 2, "power_off_seconds": 5}]
            """#)
        let check = try CycletrackProcess.run(["check", "--config", path])
        #expect(check.stdout.contains("plug"), "\(check.stdout)")
        let service = try CycletrackProcess(["run", "--config", path, "--db", database],
                                            environment: ["CYCLETRACK_LOG": "debug"])
        #expect(service.waitForLog("event=tracking appliance=plug_washer", timeout: 60), "\(service.stderrSoFar)")
        try await ha.setWatts("washer_plug", 3000)
        #expect(service.waitForLog("event=cycle_started", timeout: 30), "\(service.stderrSoFar)")
        // The load held for two more polls, so the cycle's energy has seconds of it to
        // count, however quickly the start was seen.
        try await service.waitForPolls(2)
        try await ha.setWatts("washer_plug", 0.8)  // a short soak, seen by the service: under the off time (5 s)
        try await service.waitForPolls(2)
        try await ha.setWatts("washer_plug", 350)
        try await service.waitForPolls(2)
        try await ha.setWatts("washer_plug", 0.5)
        let seen = try await ha.callKinds(of: "plug_washer", once: "end")
        service.signal(SIGTERM)
        #expect(service.wait(timeout: 15).status == 0)
        #expect(seen.first == "start" && seen.suffix(2) == ["clear", "end"], "\(seen)")
        #expect(seen.filter { $0 == "start" }.count == 1, "\(seen)")
        let stored = try storedCycles(database: database)
        #expect(stored.count == 1)
        #expect(stored.first?["outcome"] as? String == "finished")
        // Integrated from the power (no energy counter): 3000 W for a few seconds is a few Wh.
        let store = try HistoryStore(path: database, mode: .readOnly)
        let energy = try #require(try store.cycles(matching: CycleFilter(applianceID: "plug_washer")).first?.energyKWh)
        #expect(energy > 0.0005 && energy < 0.05, "\(energy)")
    }
}
