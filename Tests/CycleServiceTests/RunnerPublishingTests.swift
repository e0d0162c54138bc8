@testable import CycleService
import Foundation
import HTTPStandIn
@testable import HomeAssistantAPI
import TestSupport
import Testing

/// What the runner shows inside Home Assistant: entities set over the REST API when
/// something changed, posted again after HA forgot them, and events for automations.
@Suite struct RunnerPublishingTests {
    let start = Date(timeIntervalSince1970: 1_793_606_400)  // 2026-11-02T08:00:00Z

    private func run(
        _ script: ApplianceScript, standIn: HomeAssistantStandIn, fixture: StoreFixture, until stop: Date,
        from begin: Date? = nil, onAdvance: @escaping @Sendable (Date) -> Void = { _ in }
    ) async throws {
        let clock = VirtualClock(start: begin ?? start, stopAt: stop) { now in
            script.show(at: now, on: standIn)
            onAdvance(now)
        }
        let gateway = HomeAssistantGateway(client: HomeAssistantClient(baseURL: standIn.baseURL, token: standIn.token, http: HTTPClient()))
        let runner = try Runner(appliances: [script.tracked], databasePath: fixture.path(), sourceName: .run,
                                options: .init(activePollSeconds: 10, idlePollSeconds: 30, dailyPushLimit: 400, rediscoverSeconds: nil),
                                source: gateway, sink: gateway, surface: gateway, clock: clock, log: LogCapture().log)
        await runner.run()
    }

    private func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    private func posts(_ standIn: HomeAssistantStandIn, _ path: String) -> [String] {
        standIn.posts.filter { $0.path == path }.map(\.body)
    }

    @Test func aCycleShowsInItsEntityAndFiresStartedAndEnded() async throws {
        let fixture = try StoreFixture()
        let standIn = try HomeAssistantStandIn()
        let script = ApplianceScript.dishwasher(start: start)
        let end = script.lines[script.lines.count - 2].at
        try await run(script, standIn: standIn, fixture: fixture, until: end.addingTimeInterval(120))

        let states = posts(standIn, "states/sensor.cycletrack_dishwasher")
        // Posted when something changed, not at every poll: no body twice in a row.
        #expect(zip(states, states.dropFirst()).allSatisfy { $0 != $1 })
        let seen = try states.map { try json($0)["state"] as? String }
        #expect(seen.first == "idle")
        #expect(seen.contains("running"))
        #expect(seen.contains("unavailable"))  // the minute of nothing mid-cycle
        #expect(seen.last == "finished")
        let last = try json(try #require(states.last))
        let attributes = try #require(last["attributes"] as? [String: Any])
        #expect(attributes["last_outcome"] as? String == "finished")
        #expect(attributes["last_program"] as? String == "Eco 50°C")
        #expect((attributes["last_duration_seconds"] as? Int ?? 0) > 3 * 3600)
        #expect(attributes["friendly_name"] as? String == "Dishwasher cycle")

        let today = try json(try #require(posts(standIn, "states/sensor.cycletrack_pushes_today").last))
        #expect(today["state"] as? Int == standIn.notifyCalls.count)
        #expect((today["attributes"] as? [String: Any])?["limit"] as? Int == 400)

        let started = posts(standIn, "events/cycletrack_cycle_started")
        let ended = posts(standIn, "events/cycletrack_cycle_ended")
        #expect(started.count == 1)
        #expect(ended.count == 1)
        let summary = try json(try #require(ended.first))
        #expect(summary["appliance_id"] as? String == "dishwasher")
        #expect(summary["outcome"] as? String == "finished")
        #expect(summary["pushes"] as? Int == standIn.notifyCalls.count)
        #expect(summary["program_name"] as? String == "Eco 50°C")
        #expect(summary["estimate_error_seconds"] is Int)
    }

    @Test func entitiesHomeAssistantForgotArePostedAgain() async throws {
        let fixture = try StoreFixture()
        let standIn = try HomeAssistantStandIn()
        let script = ApplianceScript.dishwasher(start: start)
        let forgetAt = start.addingTimeInterval(3600)
        // HA restarts between two polls, an hour in: the states it was given are gone.
        try await run(script, standIn: standIn, fixture: fixture, until: forgetAt.addingTimeInterval(60)) { now in
            if now >= forgetAt, now < forgetAt.addingTimeInterval(5) {
                standIn.remove(entity: "sensor.cycletrack_pushes_today")
                standIn.remove(entity: "sensor.cycletrack_dishwasher")
            }
        }
        #expect(standIn.entities["sensor.cycletrack_pushes_today"] != nil)
        #expect(standIn.entities["sensor.cycletrack_dishwasher"]?.state == "running")
        // Posted again although nothing had changed: the same body twice in a row.
        let today = posts(standIn, "states/sensor.cycletrack_pushes_today")
        #expect(zip(today, today.dropFirst()).contains { $0 == $1 })
    }
}
