import CycleCore
@testable import CycleService
import Foundation
import HTTPStandIn
@testable import HomeAssistantAPI
import Synchronization
import TestSupport
import Testing

/// The runner in `events` mode, in real time over loopback: a scripted subscription
/// stands in for HA's WebSocket API, the stand-in HA answers the full read and takes
/// the calls.
@Suite struct RunnerEventsTests {
    private func dishwasher(_ standIn: HomeAssistantStandIn, _ state: String, progress: String = "unavailable") {
        standIn.set(entity: "sensor.dw_operation_state", state: state)
        standIn.set(entity: "sensor.dw_progress", state: progress, unit: "%")
    }

    private let tracked = TrackedAppliance(
        settings: {
            var settings = ApplianceSettings(id: "dw", name: "Dishwasher")
            settings.settleSeconds = 0
            settings.minUpdateSeconds = 0
            return settings
        }(),
        entities: [.operationState: "sensor.dw_operation_state", .progress: "sensor.dw_progress"], origin: "config")

    private func start(
        _ standIn: HomeAssistantStandIn, events: ScriptedEvents, fixture: StoreFixture, capture: LogCapture,
        appliances: [TrackedAppliance]? = nil, poll: Double = 3600, burstWaitSeconds: Double? = nil,
        rediscover: (@Sendable () async -> [TrackedAppliance]?)? = nil
    ) throws -> (Runner, Task<Void, Never>) {
        let gateway = HomeAssistantGateway(client: HomeAssistantClient(baseURL: standIn.baseURL, token: standIn.token, http: HTTPClient()))
        var options = Runner.Options(activePollSeconds: poll, idlePollSeconds: poll, dailyPushLimit: 400,
                                     rediscoverSeconds: rediscover == nil ? nil : 3600)
        options.updates = .events
        options.retryEventsSeconds = 0.5
        options.registryDebounceSeconds = 0.05
        options.eventSettleSeconds = 0.05
        if let burstWaitSeconds {
            options.eventSettleSeconds = burstWaitSeconds
            options.eventQuietSeconds = burstWaitSeconds
        }
        let runner = try Runner(appliances: appliances ?? [tracked], databasePath: fixture.path(), sourceName: .run,
                                options: options, source: gateway, sink: gateway, events: events, clock: SystemClock(),
                                log: capture.log, rediscover: rediscover)
        return (runner, Task { await runner.run() })
    }

    private func until(_ what: String, timeout: Double = 60, _ condition: () async -> Bool) async throws {
        try await eventually(what, timeout: timeout, condition)
    }

    @Test func aChangeArrivingAsAnEventIsSentWithoutPolling() async throws {
        let fixture = try StoreFixture()
        let standIn = try HomeAssistantStandIn()
        dishwasher(standIn, "ready")
        let events = ScriptedEvents()
        let capture = LogCapture()
        let (runner, task) = try start(standIn, events: events, fixture: fixture, capture: capture)
        try await until("the subscription") { events.subscriptions == 1 }
        try await until("the full read answered") { capture.count("polled") == 1 }
        dishwasher(standIn, "run", progress: "12")
        events.send(.states(["sensor.dw_operation_state": EntityState(state: "run", unit: nil),
                             "sensor.dw_progress": EntityState(state: "12", unit: "%")]))
        try await until("the start") { standIn.notifyCalls.count == 1 }
        dishwasher(standIn, "finished", progress: "99")
        events.send(.states(["sensor.dw_operation_state": EntityState(state: "finished", unit: nil)]))
        try await until("the clear and the end") { standIn.notifyCalls.count == 3 }
        task.cancel()
        await task.value
        // One read after subscribing, and none after: the changes came as events.
        #expect(await runner.polls == 1)
        #expect(capture.count("events_connected") == 1)
        #expect(events.lastEntities == ["sensor.dw_operation_state", "sensor.dw_progress"])
    }

    /// HA coalesces: each message is all it wrote in one turn, one event that ends the
    /// burst. With the quiet wait and the cap an hour long, only that end can make the
    /// runner act: the states before it (a message that didn't end a batch) join the
    /// same observation, and the call goes out at once.
    @Test func aBurstEndsWhenHomeAssistantSaysItsBatchEnded() async throws {
        let fixture = try StoreFixture()
        let standIn = try HomeAssistantStandIn()
        dishwasher(standIn, "ready")
        let capture = LogCapture()
        let events = ScriptedEvents()
        let (_, task) = try start(standIn, events: events, fixture: fixture, capture: capture, burstWaitSeconds: 3600)
        try await until("the full read answered") { capture.count("polled") == 1 }
        dishwasher(standIn, "run", progress: "12")
        events.send(.states(["sensor.dw_operation_state": EntityState(state: "run", unit: nil)]))
        events.send(.states(["sensor.dw_progress": EntityState(state: "12", unit: "%")], endsBatch: true))
        try await until("the start") { standIn.notifyCalls.count == 1 }
        dishwasher(standIn, "run", progress: "60")
        events.send(.states(["sensor.dw_progress": EntityState(state: "60", unit: "%")], endsBatch: true))
        try await until("the update at 60 %") { standIn.notifyCalls.count == 2 }
        task.cancel()
        await task.value
        #expect(capture.count("changed") == 2, "one observation per batch: \(capture.all.filter { $0.contains("event=changed") })")
        #expect(standIn.notifyCalls.last?.body.contains("60") == true, "the update shows the batch's progress")
    }

    @Test func aLostSubscriptionIsTakenUpAgainWithAFullRead() async throws {
        let fixture = try StoreFixture()
        let standIn = try HomeAssistantStandIn()
        dishwasher(standIn, "ready")
        let events = ScriptedEvents()
        let capture = LogCapture()
        let (runner, task) = try start(standIn, events: events, fixture: fixture, capture: capture)
        try await until("the subscription") { events.subscriptions == 1 }
        // Answered, not only started: a read under way could see the start below itself.
        try await until("the full read answered") { capture.count("polled") == 1 }
        // HA goes away (no close frame, say); meanwhile the cycle starts.
        dishwasher(standIn, "run", progress: "3")
        events.drop()
        try await until("a new subscription") { events.subscriptions == 2 }
        // The read after subscribing again sees what changed while it was away.
        try await until("the start") { standIn.notifyCalls.count == 1 }
        task.cancel()
        await task.value
        #expect(await runner.polls == 2)
        #expect(capture.count("events_lost") == 1)
    }

    @Test func withoutEventsItPollsSaysSoOnceAndSwitchesBackWhenTheyCome() async throws {
        let fixture = try StoreFixture()
        let standIn = try HomeAssistantStandIn()
        dishwasher(standIn, "ready")
        let events = ScriptedEvents()
        events.refusing = true
        let capture = LogCapture()
        let (runner, task) = try start(standIn, events: events, fixture: fixture, capture: capture, poll: 0.05)
        try await until("polling") { await runner.polls >= 5 }
        dishwasher(standIn, "run", progress: "5")
        try await until("the start, found by polling") { standIn.notifyCalls.count == 1 }
        #expect(capture.count("events_unavailable") == 1)
        events.refusing = false
        try await until("events") { events.subscriptions >= 1 }
        try await until("events_connected") { capture.count("events_connected") == 1 }
        let polled = await runner.polls
        // Polling every 0.05 s, the runner never sleeps longer than that; once events flow it
        // sleeps with no poll due (until an event wakes it).
        try await until("the runner asleep with no poll due") {
            await runner.loop.sleeper.sleepingUntil.map { $0 > Date().addingTimeInterval(60) } ?? false
        }
        task.cancel()
        await task.value
        #expect(await runner.polls == polled, "no polling once events flow")
        #expect(capture.count("events_unavailable") == 1)
    }

    @Test func aRegistryChangeRunsDiscoveryAndANewApplianceIsSubscribedTo() async throws {
        let fixture = try StoreFixture()
        let standIn = try HomeAssistantStandIn()
        dishwasher(standIn, "ready")
        standIn.set(entity: "sensor.wm_operation_state", state: "ready")
        let events = ScriptedEvents()
        let discovered = Mutex(0)
        let washer = TrackedAppliance(settings: ApplianceSettings(id: "wm", name: "Washer"),
                                      entities: [.operationState: "sensor.wm_operation_state"], origin: "discovered")
        let tracked = self.tracked
        let (_, task) = try start(standIn, events: events, fixture: fixture, capture: LogCapture()) {
            discovered.withLock { $0 += 1 }
            return [tracked, washer]
        }
        try await until("the subscription") { events.subscriptions == 1 }
        events.send(.registryChanged)
        try await until("discovery") { discovered.withLock { $0 } == 1 }
        try await until("a subscription with the washer") { events.subscriptions == 2 }
        task.cancel()
        await task.value
        #expect(events.lastEntities.contains("sensor.wm_operation_state"))
    }
}

/// A subscription the test drives: `send` delivers, `drop` loses the connection,
/// `refusing` makes subscribing fail as an HA without a WebSocket API would.
final class ScriptedEvents: ApplianceEventSource, @unchecked Sendable {
    private struct State {
        var continuation: AsyncThrowingStream<SourceEvent, any Error>.Continuation?
        var subscriptions = 0
        var refusing = false
        var lastEntities: [String] = []
    }
    private let state = Mutex(State())

    var subscriptions: Int { state.withLock { $0.subscriptions } }
    var lastEntities: [String] { state.withLock { $0.lastEntities } }
    var refusing: Bool {
        get { state.withLock { $0.refusing } }
        set { state.withLock { $0.refusing = newValue } }
    }

    func subscribe(_ entities: [String]) async throws(SourceFailure) -> SourceSubscription {
        if refusing { throw SourceFailure("ws://127.0.0.1/api/websocket answered 404 instead of switching protocols") }
        let (stream, continuation) = AsyncThrowingStream<SourceEvent, any Error>.makeStream()
        state.withLock {
            $0.continuation = continuation
            $0.subscriptions += 1
            $0.lastEntities = entities
        }
        return SourceSubscription(events: stream, close: { continuation.finish() })
    }

    func send(_ event: SourceEvent) { _ = state.withLock { $0.continuation?.yield(event) } }

    func drop() { state.withLock { $0.continuation?.finish(throwing: SourceFailure("connection lost")) } }
}
