import CycleCore
@testable import CycleHistory
@testable import CycleService
import Foundation
import HTTPStandIn
@testable import HomeAssistantAPI
import TestSupport
import Testing

/// The *Unloaded* button tapped on a notification reaches the runner as HA's
/// `mobile_app_notification_action` event (docs/PUSHES.md, "Unload reminder"): in real
/// time over loopback, a scripted subscription standing in for HA's WebSocket API.
@Suite struct RunnerUnloadedTests {
    /// A washer on a plug-like set of entities: no door, so only the button tells that it was unloaded.
    static let washer = TrackedAppliance(
        settings: {
            var settings = ApplianceSettings(id: "wm", name: "Washer")
            settings.settleSeconds = 0
            settings.minUpdateSeconds = 0
            return settings
        }(),
        entities: [.operationState: "sensor.wm_operation_state", .progress: "sensor.wm_progress"], origin: "config")

    static func start(_ standIn: HomeAssistantStandIn, events: ScriptedEvents, fixture: StoreFixture,
                      capture: LogCapture) throws -> Task<Void, Never> {
        let gateway = HomeAssistantGateway(client: HomeAssistantClient(baseURL: standIn.baseURL, token: standIn.token, http: HTTPClient()))
        var options = Runner.Options(activePollSeconds: 3600, idlePollSeconds: 3600, dailyPushLimit: 400, rediscoverSeconds: nil)
        options.updates = .events
        options.eventSettleSeconds = 0.05
        let runner = try Runner(appliances: [washer], databasePath: fixture.path(), sourceName: .run, options: options,
                                source: gateway, sink: gateway, events: events, clock: SystemClock(), log: capture.log)
        return Task { await runner.run() }
    }

    static func states(_ operation: String, progress: String) -> SourceEvent {
        .states(["sensor.wm_operation_state": EntityState(state: operation, unit: nil),
                 "sensor.wm_progress": EntityState(state: progress, unit: "%")], endsBatch: true)
    }

    @Test func aTapStopsTheRemindersAndIsStoredAnotherAppsButtonIsNot() async throws {
        let fixture = try StoreFixture()
        let standIn = try HomeAssistantStandIn()
        standIn.set(entity: "sensor.wm_operation_state", state: "ready")
        standIn.set(entity: "sensor.wm_progress", state: "0", unit: "%")
        let events = ScriptedEvents()
        let capture = LogCapture()
        let task = try Self.start(standIn, events: events, fixture: fixture, capture: capture)
        try await eventually("the subscription") { events.subscriptions == 1 }
        events.send(Self.states("run", progress: "10"))
        try await eventually("the start") { standIn.notifyCalls.count == 1 }
        events.send(Self.states("finished", progress: "100"))
        try await eventually("the clear and the end") { standIn.notifyCalls.count == 3 }
        #expect(standIn.notifyCalls.last?.body.contains(#""actions":[{"action":"CYCLETRACK_UNLOADED_wm","title":"Unloaded"}]"#) == true)

        events.send(.notificationAction("SUPERNOTIFY_SNOOZE_EVERYONE_CAMERA_camera.door"))
        events.send(.notificationAction("CYCLETRACK_UNLOADED_dryer"))
        events.send(.notificationAction("CYCLETRACK_UNLOADED_wm"))
        try await eventually("the tap taken") { capture.count("unloaded") == 1 }
        events.send(.notificationActionsRefused(reason: "unauthorized: Unauthorized"))
        events.send(.notificationActionsRefused(reason: "unauthorized: Unauthorized"))
        try await eventually("the refusal said") { capture.count("notification_actions_refused") == 1 }
        task.cancel()
        await task.value
        #expect(capture.count("notification_actions_refused") == 1, "once")
        #expect(capture.all.contains { $0.contains("event=unloaded") && $0.contains("appliance=wm") && $0.contains("by=notification") })

        let store = try HistoryStore(path: fixture.path(), mode: .readOnly)
        let cycle = try #require(try store.cycles(matching: CycleFilter(applianceID: "wm")).first)
        let dropped = try store.pushes(cycleID: cycle.id).filter { $0.status == .dropped }
        #expect(dropped.map(\.reason) == ["unload reminder 1: dropped, marked unloaded"])
        // Saved without a reminder: a restart doesn't bring it back.
        let json = try #require(try store.trackerState(applianceID: "wm"))
        let saved = try JSONDecoder().decode(CycleRecorder.SavedAppliance.self, from: Data(json.utf8))
        var household = Household(dailyLimit: 400)
        household.follow(Self.washer.settings, restoring: saved.tracker)
        #expect(household.nextDeadline == nil)
    }
}
