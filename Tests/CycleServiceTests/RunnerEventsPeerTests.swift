import CycleCore
import Foundation
import HTTPStandIn
import Synchronization
import TestSupport
import Testing
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

    /// What the peer saw: connections, and when each it broke was made and broken.
    final class PeerLog: Sendable {
        private let state = Mutex<(connections: Int, broken: [(accepted: Date, closed: Date)])>((0, []))
        var connections: Int { state.withLock { $0.connections } }
        var broken: [(accepted: Date, closed: Date)] { state.withLock { $0.broken } }
        /// Counts a connection; returns its number, from 1.
        func connected() -> Int { state.withLock { $0.connections += 1; return $0.connections } }
        func broke(accepted: Date) { state.withLock { $0.broken.append((accepted, Date())) } }
    }

    static func peer(_ script: @escaping @Sendable (WebSocketStandInPeer) -> Void) throws -> WebSocketStandIn {
        try WebSocketStandIn(acceptValue: WebSocketHandshake.acceptValue(for:), script: script)
    }

    /// HA's side up to subscribed: auth, a result for each of cycletrack's three
    /// subscriptions, the initial states. False when the client didn't follow.
    static func subscribe(_ peer: WebSocketStandInPeer, token: String) -> Bool {
        peer.sendText(#"{"type":"auth_required","ha_version":"2026.11.0"}"#)
        guard peer.receiveText()?.contains(token) == true else { return false }
        peer.sendText(#"{"type":"auth_ok","ha_version":"2026.11.0"}"#)
        // subscribe_entities, the two registries' and the notification actions' subscribe_events.
        for _ in 0..<4 {
            guard let text = peer.receiveText(), let id = Self.id(in: text) else { return false }
            peer.sendText("{\"id\":\(id),\"type\":\"result\",\"success\":true,\"result\":null}")
        }
        peer.sendText(initial)
        return true
    }

    /// Answers pings until the client leaves.
    static func pong(_ peer: WebSocketStandInPeer) {
        while let text = peer.receiveText(timeout: 30) {
            if text.contains(#""ping""#), let id = Self.id(in: text) { peer.sendText("{\"id\":\(id),\"type\":\"pong\"}") }
        }
    }

    static func id(in text: String) -> Int? {
        ((try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any])?["id"] as? Int
    }

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
        let log = PeerLog()
        let peer = try Self.peer { peer in
            let accepted = Date()
            guard log.connected() <= 5 else {
                if Self.subscribe(peer, token: standIn.token) { Self.pong(peer) }
                return
            }
            guard Self.subscribe(peer, token: standIn.token) else { return }
            peer.closeSocket()
            log.broke(accepted: accepted)
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
        let seen = log.broken
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
        let log = PeerLog()
        let peer = try Self.peer { peer in
            // The first goes away at once (events unavailable: polling); the second never says auth_required.
            if log.connected() > 1 { peer.waitUntilClientLeaves() }
        }
        let capture = LogCapture()
        let (runner, task) = try Self.runner(standIn, webSocket: peer.baseURL, capture: capture, fixture: fixture) {
            $0.retryEventsSeconds = 0.2
        }
        try await eventually("the second, slow, handshake") { log.connections >= 2 }
        let polled = await runner.polls
        standIn.set(entity: Self.operation, state: "run")
        try await eventually("the start, while the handshake hangs", timeout: 8) { standIn.notifyCalls.count == 1 }
        try await eventually("polls going on, while the handshake hangs", timeout: 8) { await runner.polls >= polled + 3 }
        #expect(log.connections == 2)
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
        let (_, task) = try Self.runner(standIn, events: events, capture: capture, fixture: fixture) {
            $0.activePollSeconds = 3600
            $0.idlePollSeconds = 3600
        }
        try await eventually("the full read answered") { capture.count("polled") == 1 }
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
        let (_, task) = try Self.runner(standIn, events: events, capture: capture, fixture: fixture) {
            $0.resubscribeBackoffSeconds = 0.05
        }
        try await eventually("the full read answered") { capture.count("polled") == 1 }
        events.drop()
        try await eventually("a second subscription") { capture.count("events_connected") == 2 }
        task.cancel()
        await task.value
        let connected = capture.all.filter { $0.contains("event=events_connected ") }
        #expect(connected.first?.contains("was=starting") == true)
        #expect(connected.last?.contains("was=lost") == true)
    }
}
