import CycleCore
import Foundation
import HTTPStandIn
import Synchronization
import Testing
@testable import CycleHistory
@testable import HomeAssistantAPI
@testable import CycleService

/// The runner in `events` mode against a loopback WebSocket peer that misbehaves (the
/// defects of issue 18), with the stand-in HA answering REST and taking the calls.
@Suite(.timeLimit(.minutes(1)))
struct RunnerEventsPeerTests {
    static let operation = "sensor.dw_operation_state"
    static let progress = "sensor.dw_progress"
    static let initial = #"{"id":1,"type":"event","event":{"a":{"sensor.dw_operation_state":{"s":"ready","a":{}}}}}"#

    static let tracked: TrackedAppliance = {
        var settings = ApplianceSettings(id: "dw", name: "Dishwasher")
        (settings.settleSeconds, settings.minUpdateSeconds) = (0, 0)
        return TrackedAppliance(settings: settings, entities: [.operationState: operation, .progress: progress], origin: "config")
    }()

    /// A runner reading REST from `standIn` and subscribing at `webSocket` (or through `events`).
    static func runner(_ standIn: HomeAssistantStandIn, webSocket: String? = nil, events: (any ApplianceEventSource)? = nil,
                       capture: LogCapture, fixture: StoreFixture,
                       adjust: (inout Runner.Options) -> Void = { _ in }) throws -> (Runner, Task<Void, Never>) {
        let rest = HomeAssistantGateway(client: HomeAssistantClient(baseURL: standIn.baseURL, token: standIn.token, http: HTTPClient()))
        let socket = webSocket.map {
            HomeAssistantGateway(client: HomeAssistantClient(baseURL: $0, token: standIn.token, http: HTTPClient()))
        }
        var options = Runner.Options(activePollSeconds: 0.05, idlePollSeconds: 0.05, dailyPushLimit: 400, rediscoverSeconds: nil)
        options.updates = .events
        options.eventSettleSeconds = 0.05
        adjust(&options)
        let runner = try Runner(appliances: [tracked], databasePath: fixture.path(), sourceName: .run, options: options,
                                source: rest, sink: rest, events: events ?? socket, clock: SystemClock(), log: capture.log)
        return (runner, Task { await runner.run() })
    }

    /// Defect 1: a peer that breaks every connection right after subscribing is not
    /// reconnected at once, again and again: each wait is at least twice the last.
    @Test func aConnectionThatDiesRightAfterSubscribingIsBackedOffAndSaidOnce() async throws {
        let fixture = try StoreFixture()
        let standIn = try HomeAssistantStandIn()
        standIn.set(entity: Self.operation, state: "ready")
        let times = Shared<[(accepted: Date, closed: Date)]>([])
        let peer = try WebSocketLoopbackTests.standIn { peer in
            let accepted = Date()
            guard WebSocketLoopbackTests.serveHomeAssistant(peer, token: standIn.token, subscriptions: 3,
                                                            initial: Self.initial) != nil else { return }
            guard times.withLock({ $0.count }) < 5 else { return WebSocketLoopbackTests.answerPings(peer) }
            peer.closeSocket()
            times.withLock { $0.append((accepted, Date())) }
        }
        let capture = LogCapture()
        let (_, task) = try Self.runner(standIn, webSocket: peer.baseURL, capture: capture, fixture: fixture) {
            $0.resubscribeBackoffSeconds = 0.1
            // Polling stands in meanwhile, but slowly here: the reconnections are what counts.
            $0.activePollSeconds = 3600
        }
        try await eventually("six subscriptions") { capture.count("events_connected") == 6 }
        task.cancel()
        await task.value
        let seen = times.withLock { $0 }
        try #require(seen.count == 5)
        // From each break to the next connection: 0.1, 0.2, 0.4, 0.8 s at least (jitter only stretches).
        for index in 0..<4 {
            let wait = seen[index + 1].accepted.timeIntervalSince(seen[index].closed)
            #expect(wait >= 0.1 * Double(1 << index), "wait \(index + 1): \(wait) s")
        }
        #expect(capture.count("events_lost") == 1)
        #expect(capture.count("events_connected") == 6)
    }

    /// Defect 4: while HA takes its time over the handshake, the runner polls on and a
    /// start goes out, long before the handshake's 10 s timeout.
    @Test func aSlowHandshakeDoesNotHoldUpTheCycle() async throws {
        let fixture = try StoreFixture()
        let standIn = try HomeAssistantStandIn()
        standIn.set(entity: Self.operation, state: "ready")
        let connections = Shared(0)
        let peer = try WebSocketLoopbackTests.standIn { peer in
            let number = connections.withLock { value in
                value += 1
                return value
            }
            // The first goes away at once (events unavailable: polling); the second never says auth_required.
            if number > 1 { peer.waitUntilClientLeaves() }
        }
        let capture = LogCapture()
        let (runner, task) = try Self.runner(standIn, webSocket: peer.baseURL, capture: capture, fixture: fixture) {
            $0.retryEventsSeconds = 0.2
        }
        try await eventually("the second, slow, handshake") { connections.withLock { $0 } >= 2 }
        let polled = await runner.polls
        standIn.set(entity: Self.operation, state: "run")
        try await eventually("the start, while the handshake hangs", timeout: 5) { standIn.notifyCalls.count == 1 }
        try await eventually("polls going on, while the handshake hangs", timeout: 5) { await runner.polls >= polled + 3 }
        #expect(connections.withLock { $0 } == 2)
        task.cancel()
        await task.value
    }

    /// Defect 5: a token refused again, after HA took it in between, is said again.
    @Test func aSecondRevocationIsSaidToo() async throws {
        let fixture = try StoreFixture()
        let standIn = try HomeAssistantStandIn()
        standIn.set(entity: Self.operation, state: "ready")
        standIn.set(entity: Self.progress, state: "unavailable", unit: "%")
        // The start is refused, the clear accepted, the end refused again.
        standIn.scriptServiceStatuses([401, 200, 401])
        let events = ScriptedEvents()
        let capture = LogCapture()
        let (runner, task) = try Self.runner(standIn, events: events, capture: capture, fixture: fixture) {
            $0.activePollSeconds = 3600
            $0.idlePollSeconds = 3600
        }
        try await eventually("the full read") { await runner.polls == 1 }
        events.send(.states([Self.operation: EntityState(state: "run"), Self.progress: EntityState(state: "10", unit: "%")]))
        try await eventually("the start") { standIn.notifyCalls.count == 1 }
        events.send(.states([Self.operation: EntityState(state: "finished"), Self.progress: EntityState(state: "100", unit: "%")]))
        try await eventually("the clear and the end") { standIn.notifyCalls.count == 3 }
        task.cancel()
        await task.value
        #expect(capture.count("ha_token_refused") == 2)
    }

    /// Defect 5: `events_connected` says what came before: starting only the first time.
    @Test func aReconnectionSaysItFollowsALoss() async throws {
        let fixture = try StoreFixture()
        let standIn = try HomeAssistantStandIn()
        standIn.set(entity: Self.operation, state: "ready")
        let events = ScriptedEvents()
        let capture = LogCapture()
        let (runner, task) = try Self.runner(standIn, events: events, capture: capture, fixture: fixture) {
            $0.resubscribeBackoffSeconds = 0.05
        }
        try await eventually("the full read") { await runner.polls == 1 }
        events.drop()
        try await eventually("a second subscription") { capture.count("events_connected") == 2 }
        task.cancel()
        await task.value
        let connected = capture.all.filter { $0.contains("event=events_connected ") }
        #expect(connected.first?.contains("was=starting") == true)
        #expect(connected.last?.contains("was=lost") == true)
    }
}
