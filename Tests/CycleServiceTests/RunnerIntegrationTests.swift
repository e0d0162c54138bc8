import CycleCore
import FoundationEssentials
import HTTPStandIn
import Synchronization
import Testing
import TestSupport
@testable import CycleHistory
@testable import HomeAssistantAPI
@testable import CycleService

/// One set of entities in HA (issue 31, item 9): once an integration announced itself the
/// service removes the REST states it posted and posts none again, across restarts, until
/// the integration is removed. Against the stand-in HA, in virtual time, with a real SQLite file.
@Suite struct RunnerIntegrationTests {
    let start = Date(timeIntervalSince1970: 1_793_606_400)  // 2026-11-02T08:00:00Z

    /// Runs the dishwasher script from `from` to `until`, sending `command` when virtual time reaches `at`.
    private func run(_ fixture: StoreFixture, _ standIn: HomeAssistantStandIn, from: Date, until: Date,
                     command: RunnerCommand? = nil, at: Date? = nil) async throws -> CommandOutcome? {
        let script = ApplianceScript.dishwasher(start: start)
        let link = ServiceLink(version: "test", instanceID: "instance")
        let sent = Mutex<PendingCommand?>(nil)
        let clock = VirtualClock(start: from, stopAt: until) { now in
            script.show(at: now, on: standIn)
            if let command, let at, now >= at, sent.withLock({ $0 == nil }) {
                let pending = link.send(command)
                sent.withLock { $0 = pending }
            }
        }
        var options = Runner.Options(activePollSeconds: 10, idlePollSeconds: 30, dailyPushLimit: 400, rediscoverSeconds: nil)
        options.link = link
        let gateway = HomeAssistantGateway(client: HomeAssistantClient(baseURL: standIn.baseURL, token: standIn.token, http: HTTPClient()))
        let runner = try Runner(appliances: [script.tracked], databasePath: fixture.path(), sourceName: .run, options: options,
                                source: gateway, sink: gateway, surface: gateway, clock: clock, log: LogCapture().log)
        await runner.run()
        return sent.withLock { $0 }?.wait(0)
    }

    private func own(_ standIn: HomeAssistantStandIn) -> [String] {
        standIn.entities.keys.filter { $0.hasPrefix("sensor.cycletrack_") }.sorted()
    }

    private func statePosts(_ standIn: HomeAssistantStandIn) -> Int {
        standIn.posts.filter { $0.path.hasPrefix("states/") }.count
    }

    @Test func anAnnouncedIntegrationTakesTheRestStatesOutForGoodUntilItIsRemoved() async throws {
        let fixture = try StoreFixture()
        let standIn = try HomeAssistantStandIn()
        let announce = start.addingTimeInterval(600)
        let first = try await run(fixture, standIn, from: start, until: start.addingTimeInterval(1800),
                                  command: .integration(configured: true), at: announce)
        #expect(first == .integration(configured: true))
        #expect(own(standIn).isEmpty, "the states posted before the announcement are removed: \(own(standIn))")
        #expect(standIn.requests.contains("DELETE /api/states/sensor.cycletrack_dishwasher"))
        #expect(standIn.requests.contains("DELETE /api/states/sensor.cycletrack_pushes_today"))
        #expect(standIn.notifyCalls.count > 0, "the cycle runs on: the start went out")
        #expect(try HistoryStore(path: fixture.path(), mode: .readOnly).integrationRecord() == .configured(restStatesRemoved: true))

        // A restart: nothing is posted again, and nothing of the integration's is removed.
        let posted = statePosts(standIn)
        let deletes = standIn.requests.filter { $0.hasPrefix("DELETE") }.count
        let again = try await run(fixture, standIn, from: start.addingTimeInterval(1800), until: start.addingTimeInterval(3600),
                                  command: .integration(configured: true), at: start.addingTimeInterval(1900))
        #expect(again == .integration(configured: true))
        #expect(statePosts(standIn) == posted, "no state posted after a restart")
        #expect(standIn.requests.filter { $0.hasPrefix("DELETE") }.count == deletes, "nothing removed twice")
        #expect(standIn.posts.contains { $0.path == "events/cycletrack_cycle_started" }, "the bus events still fire")

        // The integration removed: the states come back at once.
        let removed = try await run(fixture, standIn, from: start.addingTimeInterval(3600), until: start.addingTimeInterval(3700),
                                    command: .integration(configured: false), at: start.addingTimeInterval(3610))
        #expect(removed == .integration(configured: false))
        #expect(own(standIn) == ["sensor.cycletrack_dishwasher", "sensor.cycletrack_pushes_today"])
        #expect(try HistoryStore(path: fixture.path(), mode: .readOnly).integrationRecord() == HistoryStore.IntegrationRecord.none)
    }

    @Test func aRemovalHomeAssistantRefusesIsRefusedToTheIntegrationAndTriedAgain() async throws {
        let fixture = try StoreFixture()
        let standIn = try HomeAssistantStandIn()
        standIn.override("DELETE /api/states/sensor.cycletrack_dishwasher", with: .respond(.text("500: Internal Server Error", status: 500)))
        let outcome = try await run(fixture, standIn, from: start, until: start.addingTimeInterval(900),
                                    command: .integration(configured: true), at: start.addingTimeInterval(600))
        guard case .refused(let why)? = outcome else {
            Issue.record("not refused: \(String(describing: outcome))")
            return
        }
        #expect(why.contains("sensor.cycletrack_dishwasher"))
        #expect(!why.contains(standIn.token))
        #expect(try HistoryStore(path: fixture.path(), mode: .readOnly).integrationRecord() == .configured(restStatesRemoved: false))
        let tries = standIn.requests.filter { $0 == "DELETE /api/states/sensor.cycletrack_dishwasher" }.count
        #expect(tries > 1, "tried again at the next updates: \(tries)")

        // HA takes it after a restart of the service: removed, and recorded so.
        standIn.override("DELETE /api/states/sensor.cycletrack_dishwasher", with: nil)
        _ = try await run(fixture, standIn, from: start.addingTimeInterval(900), until: start.addingTimeInterval(1200))
        #expect(own(standIn).isEmpty, "\(own(standIn))")
        #expect(try HistoryStore(path: fixture.path(), mode: .readOnly).integrationRecord() == .configured(restStatesRemoved: true))
    }
}
