import CycleCore
import Foundation
import Testing

/// Issue 21 against a real Home Assistant (the suite's HA, config and database): an AEG
/// washing machine from the `electrolux_status` stand-in (states title-cased as the HACS
/// integration shows them, its time to end in seconds shown in minutes, a door binary
/// sensor), and a dryer on a smart plug whose anti-crease bursts neither extend its cycle
/// nor start another.
extension BrandsWithHomeAssistantTests {
    private func time(_ value: Any?) -> Date? { (value as? String).flatMap(ISOTime.parse) }

    @Test("An AEG washer: discovered by its device's name, its states matched as shown, its time to end in minutes")
    func electroluxCycle() async throws {
        let path = config(#""discover": true"#)
        let check = try CycletrackProcess.run(["check", "--config", path, "--format", "json"])
        let object = try #require(JSONSerialization.jsonObject(with: Data(check.stdout.utf8)) as? [String: Any], "\(check.stdout)")
        let appliances = try #require(object["appliances"] as? [[String: Any]])
        let aeg = try #require(appliances.first { $0["profile"] as? String == "electrolux" }, "\(appliances)")
        #expect(aeg["name"] as? String == "AEG Waschmaschine")
        let id = try #require(aeg["id"] as? String)

        let service = try CycletrackProcess(["run", "--config", path, "--db", database],
                                            environment: ["CYCLETRACK_LOG": "debug"])
        #expect(service.waitForLog("event=tracking appliance=\(id)", timeout: 60), "\(service.stderrSoFar)")
        var runningAt = Date()
        for values: [String: Any] in [
            ["appliance_state": "READY_TO_START", "door": "CLOSED"],
            ["appliance_state": "RUNNING", "time_to_end": 9000, "cycle_phase": "MAIN_WASH"],
            ["appliance_state": "RUNNING", "time_to_end": 8940, "cycle_phase": "RINSE"],
            ["appliance_state": "END_OF_CYCLE", "time_to_end": 0],
        ] {
            if values["time_to_end"] as? Int == 9000 { runningAt = Date() }
            let (status, body) = try await ha.callService("electrolux_status", "set_state", values)
            #expect(status == 200, "\(String(decoding: body, as: UTF8.self))")
            try await service.waitForPolls(2)
        }
        let seen = try await ha.callKinds(of: id, once: "end")
        service.signal(SIGTERM)
        #expect(service.wait(timeout: 15).status == 0)
        #expect(seen.first == "start" && seen.suffix(2) == ["clear", "end"], "\(seen)")
        #expect(seen.filter { $0 == "clear" }.count == 1 && seen.filter { $0 == "end" }.count == 1, "\(seen)")
        #expect(!service.stderrSoFar.contains("unrecognised operation state"), "\(service.stderrSoFar)")
        let stored = try storedCycles(database: database)
        #expect(stored.count == 1)
        #expect(stored.first?["outcome"] as? String == "finished")
        // 9000 s to end, shown as 150 min: the finish is two and a half hours out, not two minutes.
        let finish = try #require(time(stored.first?["first_predicted_finish"]), "\(stored)")
        #expect(abs(finish.timeIntervalSince(runningAt) - 9000) < 120, "\(finish) vs \(runningAt)")
    }

    @Test("A dryer on a smart plug: the cycle ends when the drying load stops; anti-crease bursts start nothing")
    func plugDryerWithAntiCreaseBursts() async throws {
        try await ha.setWatts("dryer_plug", 0)
        let path = config(#"""
            "discover": false,
            "appliances": [{"id": "plug_dryer", "name": "Dryer", "power_entity": "sensor.dryer_plug_power",
                            "power_start_seconds": 2, "power_off_seconds": 15, "power_burst_seconds": 10,
                            "power_burst_window_seconds": 120}]
            """#)
        let service = try CycletrackProcess(["run", "--config", path, "--db", database],
                                            environment: ["CYCLETRACK_LOG": "debug"])
        #expect(service.waitForLog("event=tracking appliance=plug_dryer", timeout: 60), "\(service.stderrSoFar)")
        try await ha.setWatts("dryer_plug", 2050)
        #expect(service.waitForLog("event=cycle_started", timeout: 30), "\(service.stderrSoFar)")
        try await service.waitForPolls(2)
        try await ha.setWatts("dryer_plug", 0.8)
        let stopped = Date()
        // Anti-crease: a short turn at 150 W every few seconds, during the end's wait and after
        // it, each level held until the service (polling every second) has read it: bursts
        // of one or two polls against 10 s, rests of two against 15 s.
        for _ in 0..<8 {
            try await service.waitForPolls(2)
            try await ha.setWatts("dryer_plug", 150)
            try await service.waitForPolls(1)
            try await ha.setWatts("dryer_plug", 0.8)
        }
        let seen = try await ha.callKinds(of: "plug_dryer", once: "end", timeout: 90)
        try await ha.setWatts("dryer_plug", 0)
        // Two more reads at rest: nothing starts again.
        try await service.waitForPolls(2)
        service.signal(SIGTERM)
        #expect(service.wait(timeout: 15).status == 0)
        let after = try ha.callKinds(of: "plug_dryer")
        #expect(seen.first == "start" && seen.suffix(2) == ["clear", "end"], "\(seen)")
        #expect(after.filter { $0 == "start" }.count == 1 && after.filter { $0 == "clear" }.count == 1
            && after.filter { $0 == "end" }.count == 1, "\(after)")
        let stored = try storedCycles(database: database)
        #expect(stored.count == 1, "\(stored)")
        #expect(stored.first?["outcome"] as? String == "finished")
        let ended = try #require(time(stored.first?["ended_at"]), "\(stored)")
        // Polled every second: the end is the first reading after the load stopped.
        #expect(abs(ended.timeIntervalSince(stopped)) < 5, "\(ended) vs \(stopped)")
    }
}
