import Foundation
import Testing

/// One set of entities in HA (issue 31, item 9), in a real Home Assistant 2026.11: the
/// service runs first and posts its REST states (`sensor.cycletrack_*`), as the docs order
/// it; the integration set up after it announces itself, so the service takes them out
/// before any of the integration's entities is made: none of its ids gets a `_2`, and no
/// state of the service's own stays beside them, after a restart of the service either.
extension IntegrationWithHomeAssistantTests {
    @Test("The service started first: after the setup no REST state of its own is left and no entity id has a _2; a restart brings none back")
    func oneSetOfEntities() async throws {
        var service = try startService()
        defer { if service.process.isRunning { _ = stop(service) } }
        try await waitForState("sensor.cycletrack_pushes_today", "posted by the service before the setup") { _ in true }
        #expect(try await ha.state("sensor.cycletrack_dishwasher") != nil, "the appliance's REST state, before the setup")

        _ = try await setUpThroughConfigFlow()
        try await expectOneSetOfEntities("after the setup")
        #expect(service.waitForLog("event=integration_announced", timeout: 10), "\(service.stderrSoFar)")

        #expect(stop(service).status == 0)
        service = try startService()
        try await service.waitForPolls(3)
        try await expectOneSetOfEntities("after a restart of the service")
        let result = stop(service)
        #expect(!result.stderr.contains("event=ha_state_removed"), "nothing of the integration's removed after the restart")
    }

    /// Every `sensor.cycletrack_*` state in HA is one of the integration's entities, and
    /// none of those has an id of `_2`.
    private func expectOneSetOfEntities(_ when: String) async throws {
        let registry = try #require(try await ha.webSocketCommand("config/entity_registry/list") as? [[String: Any]])
        let ours = Set(registry.filter { $0["platform"] as? String == "cycletrack" }.compactMap { $0["entity_id"] as? String })
        #expect(!ours.isEmpty, "\(when): the integration's entities")
        // (Only these: an appliance's own integration may hold another id the integration's entity wanted.)
        let taken = ours.filter { $0.hasPrefix("sensor.cycletrack_") && $0.hasSuffix("_2") }
        #expect(taken.isEmpty, "\(when): ids the service's states had taken: \(taken.sorted())")
        #expect(ours.contains("sensor.cycletrack_pushes_today"), "\(when): \(ours.sorted())")
        let states = try #require(try await ha.getJSON("/api/states") as? [[String: Any]])
        let own = states.compactMap { $0["entity_id"] as? String }.filter { $0.hasPrefix("sensor.cycletrack_") && !ours.contains($0) }
        #expect(own.isEmpty, "\(when): the service's own states beside the integration's: \(own)")
        #expect(try await ha.state("sensor.cycletrack_dishwasher") == nil, "\(when): the service's appliance state is gone")
    }
}
