import CycleCore
import Foundation
import Testing

/// `cycletrack run` against a real Home Assistant, interrupted mid-cycle: HA restarted
/// (events and poll mode) and the service killed with SIGKILL. Apart from
/// ServiceWithHomeAssistantTests (same script, same helpers) so that the two run side by side.
@Suite(
    "Service against a real Home Assistant, restarted mid-cycle",
    .serialized,
    .realHomeAssistant
)
struct ServiceRestartsWithHomeAssistantTests: ServiceAgainstHomeAssistant {
    let ha: HomeAssistantProcess
    let scratch: Scratch

    init() async throws {
        ha = try await .started()
        scratch = try Scratch()
    }

    @Test("events mode: HA restarted mid-cycle; the service subscribes again, reads everything once, and completes the cycle")
    func homeAssistantRestartMidCycleByEvents() async throws {
        let service = try startService(updates: "events")
        let middle = Self.lines.count / 2
        for line in Self.lines.prefix(middle) { try await showByEvent(line, to: service) }
        let before = service.stderrSoFar.components(separatedBy: "event=events_connected").count
        await ha.stop()
        #expect(service.waitForLog("event=events_lost"), "\(service.stderrSoFar)")
        try await ha.start()
        // A change made while the service was away is seen by the read after subscribing.
        try await ha.setAppliance(Self.lines[middle])
        try await waitFor("the subscription again") {
            service.stderrSoFar.components(separatedBy: "event=events_connected").count > before
        }
        for line in Self.lines.suffix(from: middle + 1) { try await showByEvent(line, to: service) }
        try await waitFor("the end recorded") { kinds(try ha.supernotifyCalls()).last == "end" }
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
        try await waitFor("the end recorded") { kinds(try ha.supernotifyCalls()).last == "end" }
        let calls = try ha.supernotifyCalls()
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

    @Test("HA stopped mid-cycle and started again: the outage is logged once, the cycle completes")
    func homeAssistantRestartMidCycle() async throws {
        let service = try startService()
        let half = Self.lines.count / 2
        for line in Self.lines.prefix(half) { try await show(line, to: service) }
        await ha.stop()
        #expect(service.waitForLog("event=ha_unreachable", timeout: 30))
        // HA stays away while it starts again (seconds): the service keeps trying meanwhile.
        try await ha.start()
        #expect(service.waitForLog("event=ha_back", timeout: 60))
        for line in Self.lines.dropFirst(half) { try await show(line, to: service) }
        try await waitFor("the end recorded") { kinds(try ha.supernotifyCalls()).last == "end" }
        service.signal(SIGTERM)
        let result = service.wait(timeout: 15)
        #expect(result.status == 0)
        #expect(result.stderr.components(separatedBy: "event=ha_unreachable").count - 1 == 1)
        let all = kinds(try ha.supernotifyCalls())
        #expect(all.filter { $0 == "start" }.count == 1, "\(all)")
        #expect(all.suffix(2) == ["clear", "end"], "\(all)")
    }
}
