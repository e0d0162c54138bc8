import CycleCore
import FoundationEssentials
import HTTPStandIn
import Synchronization
import Testing
import TestSupport
@testable import CycleHistory
@testable import HomeAssistantAPI
@testable import CycleService

/// A poll publishes once: the people's states and the appliances' of the same moment are
/// decided first and posted together, so no entity goes to HA twice for one poll.
@Suite struct RunnerPublicationTests {
    let start = Date(timeIntervalSince1970: 1_793_606_400)  // 2026-11-02T08:00:00Z

    /// Every state set, with the virtual moment it was set at, passed on to the stand-in
    /// (which must keep them: one it lacks counts as forgotten by a restart, and goes again).
    final class CountingSurface: HomeAssistantSurface {
        let clock: VirtualClock
        let gateway: HomeAssistantGateway
        let states = Mutex<[(at: Date, entity: String, state: PostedState)]>([])
        init(clock: VirtualClock, gateway: HomeAssistantGateway) {
            self.clock = clock
            self.gateway = gateway
        }
        func setState(entityID: String, _ state: PostedState) async -> Bool {
            let now = clock.now()
            states.withLock { $0.append((now, entityID, state)) }
            return await gateway.setState(entityID: entityID, state)
        }
        func removeState(entityID: String) async -> StateRemoval { await gateway.removeState(entityID: entityID) }
        func fireEvent(_ event: HomeAssistantEvent) async -> Bool { await gateway.fireEvent(event) }
    }

    @Test func aPollThatReleasesTheEndAndStartsACyclePostsEachEntityOnce() async throws {
        let fixture = try StoreFixture()
        let standIn = try HomeAssistantStandIn()
        var script = ApplianceScript.dishwasher(start: start)
        let end = try #require(script.lines.last(where: { $0.raw[.operationState] == "finished" })?.at)
        // Alice comes home while the dishwasher starts again: one poll sees both.
        let arrives = end.addingTimeInterval(2 * 3600)
        script.lines.append((arrives, [.operationState: "run", .progress: "0", .program: "dishcare_dishwasher_program_eco_50",
                                       .finishTime: ISOTime.format(arrives.addingTimeInterval(3 * 3600))]))
        let played = script
        let clock = VirtualClock(start: start, stopAt: arrives.addingTimeInterval(600)) { now in
            played.show(at: now, on: standIn)
            standIn.set(entity: "person.alice", state: now >= arrives ? "home" : "not_home")
        }
        var options = Runner.Options(activePollSeconds: 10, idlePollSeconds: 30, dailyPushLimit: 400, rediscoverSeconds: nil)
        options.delivery.people = [PersonSettings(entity: "person.alice")]
        let gateway = HomeAssistantGateway(client: HomeAssistantClient(baseURL: standIn.baseURL, token: standIn.token, http: HTTPClient()))
        let surface = CountingSurface(clock: clock, gateway: gateway)
        let runner = try Runner(appliances: [script.tracked], databasePath: fixture.path(), sourceName: .run, options: options,
                                source: gateway, sink: gateway, surface: surface, clock: clock, log: LogCapture().log)
        await runner.run()

        let posted = surface.states.withLock { $0 }
        let today = posted.filter { $0.entity == HomeAssistantPoster.pushesTodayEntityID }
        let atArrival = today.filter { $0.at >= arrives }
        #expect(atArrival.count == 1, "the end released and the new start: one post of the day's calls, not one per decision")
        #expect(atArrival.first?.state.state == .int(standIn.notifyCalls.count))
        var seen: Set<String> = []
        for post in posted {
            #expect(seen.insert("\(post.at.timeIntervalSince1970) \(post.entity)").inserted,
                    "\(post.entity) posted twice at \(ISOTime.format(post.at))")
        }
        let polls = await runner.polls
        let publications = await runner.publications
        #expect(publications >= polls, "every poll publishes")
        #expect(standIn.notifyCalls.map(\.body).filter { $0.contains("appliance_dishwasher_end") }.count == 1)
    }
}
