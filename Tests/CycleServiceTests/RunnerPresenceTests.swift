import CycleCore
import FoundationEssentials
import HTTPStandIn
import Synchronization
import Testing
import TestSupport
@testable import CycleHistory
@testable import HomeAssistantAPI
@testable import CycleService

/// The runner following a `person.*` entity (docs/PUSHES.md, "Presence"): against a
/// stand-in Home Assistant over loopback, a real SQLite file, in virtual time.
@Suite struct RunnerPresenceTests {
    let start = Date(timeIntervalSince1970: 1_793_606_400)  // 2026-11-02T08:00:00Z

    /// How many calls HA had when Alice came home.
    final class Arrival: Sendable {
        let seen = Mutex<Int?>(nil)
    }

    /// Alice is out until `arrives`; the calls HA had when she came home are counted.
    private func runner(_ script: ApplianceScript, standIn: HomeAssistantStandIn, database: String, from begin: Date,
                        until stop: Date, arrives: Date, seen: Arrival) throws -> Runner {
        let clock = VirtualClock(start: begin, stopAt: stop) { now in
            script.show(at: now, on: standIn)
            standIn.set(entity: "person.alice", state: now >= arrives ? "home" : "not_home")
            if now >= arrives { seen.seen.withLock { if $0 == nil { $0 = standIn.notifyCalls.count } } }
        }
        var options = Runner.Options(activePollSeconds: 10, idlePollSeconds: 30, dailyPushLimit: 400, rediscoverSeconds: nil)
        options.delivery.people = [PersonSettings(entity: "person.alice")]
        let gateway = HomeAssistantGateway(client: HomeAssistantClient(baseURL: standIn.baseURL, token: standIn.token, http: HTTPClient()))
        return try Runner(appliances: [script.tracked], databasePath: database, sourceName: .run, options: options,
                          source: gateway, sink: gateway, clock: clock, log: LogCapture().log)
    }

    private func ends(_ standIn: HomeAssistantStandIn) -> [String] {
        standIn.notifyCalls.map(\.body).filter { $0.contains("appliance_dishwasher_end") }
    }

    @Test func theEndNotificationWaitsForAliceAndGoesToHerOnly() async throws {
        let fixture = try StoreFixture()
        let standIn = try HomeAssistantStandIn()
        let script = ApplianceScript.dishwasher(start: start)
        let end = try #require(script.lines.last(where: { $0.raw[.operationState] == "finished" })?.at)
        let seen = Arrival()
        let service = try runner(script, standIn: standIn, database: fixture.path(), from: start,
                                 until: end.addingTimeInterval(3 * 3600), arrives: end.addingTimeInterval(2 * 3600), seen: seen)
        await service.run()
        let sent = ends(standIn)
        #expect(sent.count == 1)
        #expect(sent.first?.contains(#""target":["person.alice"]"#) == true)
        let before = try #require(seen.seen.withLock { $0 })
        #expect(!standIn.notifyCalls.prefix(before).contains { $0.body.contains("appliance_dishwasher_end") },
                "nothing went out before she came home")
    }

    @Test func aRestartWhileItWaitsNeitherLosesNorRepeatsIt() async throws {
        let fixture = try StoreFixture()
        let standIn = try HomeAssistantStandIn()
        let script = ApplianceScript.dishwasher(start: start)
        let end = try #require(script.lines.last(where: { $0.raw[.operationState] == "finished" })?.at)
        let arrives = end.addingTimeInterval(2 * 3600)
        let first = try runner(script, standIn: standIn, database: fixture.path(), from: start,
                               until: end.addingTimeInterval(3600), arrives: arrives, seen: Arrival())
        await first.run()
        #expect(ends(standIn).isEmpty, "still waiting when the service stopped")

        let second = try runner(script, standIn: standIn, database: fixture.path(), from: end.addingTimeInterval(3600),
                                until: end.addingTimeInterval(4 * 3600), arrives: arrives, seen: Arrival())
        await second.run()
        #expect(ends(standIn).count == 1, "sent once, after the restart")
        let store = try HistoryStore(path: fixture.path(), mode: .readOnly)
        #expect(try store.unfinishedPushes().isEmpty)
    }
}
