@testable import HomeAssistantAPI
import Testing

/// ``HomeAssistantSession``, the HA protocol as a value: messages and time in, actions out.
@Suite struct WebSocketSessionTests {
    static let url = "ws://ha:8123/api/websocket"
    static let op = "sensor.op"

    static func session(registries: [HomeAssistantWebSocket.Registry] = []) -> HomeAssistantSession {
        HomeAssistantSession(settings: .init(url: url, entityIDs: [op, "sensor.gone"], registries: registries),
                             token: "tok\"en", now: .zero)
    }

    /// A session past auth and subscription, at t = 1 s.
    static func live() -> HomeAssistantSession {
        var session = session()
        _ = session.receive(#"{"type":"auth_required"}"#, at: .zero)
        _ = session.receive(#"{"type":"auth_ok","ha_version":"2024.3.3"}"#, at: .zero)
        _ = session.receive(#"{"id":1,"type":"result","success":true,"result":null}"#, at: .seconds(1))
        _ = session.receive(#"{"id":1,"type":"event","event":{"a":{"sensor.op":{"s":"ready","a":{"device_class":"enum"},"c":"x","lc":1}}}}"#, at: .seconds(1))
        return session
    }

    @Test func authThenSubscriptionsThenSubscribed() {
        var session = Self.session(registries: [.entity, .device])
        #expect(session.receive(#"{"type":"auth_required","ha_version":"2024.3.3"}"#, at: .zero)
            == [.send(#"{"type":"auth","access_token":"tok\"en"}"#)])
        #expect(session.receive(#"{"type":"auth_ok","ha_version":"2024.3.3"}"#, at: .zero) == [
            .send(#"{"id":1,"type":"subscribe_entities","entity_ids":["sensor.op","sensor.gone"]}"#),
            .send(#"{"id":2,"type":"subscribe_events","event_type":"entity_registry_updated"}"#),
            .send(#"{"id":3,"type":"subscribe_events","event_type":"device_registry_updated"}"#),
            .send(#"{"id":4,"type":"supported_features","features":{"coalesce_messages":1}}"#),
        ])
        #expect(session.receive(#"{"id":2,"type":"result","success":true,"result":null}"#, at: .zero) == [])
        #expect(session.receive(#"{"id":1,"type":"result","success":true,"result":null}"#, at: .zero) == [])
        #expect(session.receive(#"{"id":3,"type":"result","success":true,"result":null}"#, at: .zero)
            == [.subscribed(haVersion: "2024.3.3")])
        #expect(session.isLive)
    }

    @Test func authInvalidFailsWithoutTheToken() {
        var session = Self.session()
        _ = session.receive(#"{"type":"auth_required"}"#, at: .zero)
        let actions = session.receive(#"{"type":"auth_invalid","message":"bad tok\"en"}"#, at: .zero)
        #expect(actions == [.fail(.authInvalid(url: Self.url, message: "bad <redacted>"))])
    }

    @Test func initialStatesListEveryTrackedEntityThenOnlyChanges() {
        var session = Self.session()
        _ = session.receive(#"{"type":"auth_required"}"#, at: .zero)
        _ = session.receive(#"{"type":"auth_ok"}"#, at: .zero)
        _ = session.receive(#"{"id":1,"type":"result","success":true}"#, at: .zero)
        #expect(session.receive(#"{"id":1,"type":"event","event":{"a":{"sensor.op":{"s":"ready","a":{"device_class":"enum","unit_of_measurement":null},"c":"x","lc":1}}}}"#, at: .zero)
            == [.deliver(.states([Self.op: EntityState(state: "ready", deviceClass: "enum"), "sensor.gone": nil]))])
    }

    @Test(arguments: [
        (#"{"c":{"sensor.op":{"+":{"s":"run","lc":2}}}}"#, [op: EntityState(state: "run", deviceClass: "enum")] as [String: EntityState?]),
        (#"{"c":{"sensor.op":{"+":{"a":{"unit_of_measurement":"%"},"lu":2}}}}"#, [op: EntityState(state: "ready", unit: "%", deviceClass: "enum")]),
        (#"{"c":{"sensor.op":{"+":{"lu":2},"-":{"a":["device_class"]}}}}"#, [op: EntityState(state: "ready")]),
        (#"{"c":{"sensor.op":{"+":{"a":{"friendly_name":"x"},"lu":2}}}}"#, [:]),
        (#"{"r":["sensor.op"]}"#, [op: nil]),
        (#"{"a":{"sensor.gone":{"s":"5","a":{}}}}"#, ["sensor.gone": EntityState(state: "5")]),
        (#"{"c":{"sensor.other":{"+":{"s":"1"}}}}"#, [:]),
        // An event entity (LG ThinQ's error): its event type rides with its state, the event's time.
        (#"{"a":{"sensor.gone":{"s":"2026-12-02T10:15:00.000+00:00","a":{"event_type":"water_supply_error","event_types":["water_supply_error"]}}}}"#,
         ["sensor.gone": EntityState(state: "2026-12-02T10:15:00.000+00:00", eventType: "water_supply_error")]),
        (#"{"c":{"sensor.op":{"+":{"s":"2026-12-02T10:20:00.000+00:00","a":{"event_type":"door_open_error"}}}}}"#,
         [op: EntityState(state: "2026-12-02T10:20:00.000+00:00", deviceClass: "enum", eventType: "door_open_error")]),
    ] as [(String, [String: EntityState?])])
    func diffsBecomeStatesOfWhatChanged(_ diff: String, _ expected: [String: EntityState?]) {
        var session = Self.live()
        let actions = session.receive(#"{"id":1,"type":"event","event":\#(diff)}"#, at: .seconds(2))
        #expect(actions == (expected.isEmpty ? [] : [.deliver(.states(expected))]))
    }

    @Test func pingEveryIntervalAndNoPongMeansDead() {
        var session = Self.live()
        #expect(session.nextDeadline == .seconds(31))
        #expect(session.tick(at: .seconds(30)) == [])
        #expect(session.tick(at: .seconds(31)) == [.send(#"{"id":3,"type":"ping"}"#)])
        #expect(session.nextDeadline == .seconds(41))
        #expect(session.receive(#"{"id":3,"type":"pong"}"#, at: .seconds(32)) == [])
        #expect(session.tick(at: .seconds(41)) == [])
        #expect(session.tick(at: .seconds(61)) == [.send(#"{"id":4,"type":"ping"}"#)])
        #expect(session.tick(at: .seconds(70)) == [])
        #expect(session.tick(at: .seconds(71)) == [.fail(.noPong(url: Self.url, seconds: 10))])
    }

    @Test func eachOpeningStepHasATimeout() {
        var waiting = Self.session()
        #expect(waiting.tick(at: .seconds(10)) == [.fail(.timeout(url: Self.url, waitingFor: "auth_required after the upgrade"))])
        var authing = Self.session()
        _ = authing.receive(#"{"type":"auth_required"}"#, at: .seconds(1))
        #expect(authing.tick(at: .seconds(11)).count == 1)
        #expect(authing.tick(at: .seconds(12)) == [])
    }

    @Test func coalescedMessagesAreTakenOneByOne() {
        var session = Self.live()
        let actions = session.receive(#"[{"id":1,"type":"event","event":{"r":["sensor.op"]}}, {"id":9,"type":"pong"}]"#, at: .seconds(2))
        #expect(actions == [.deliver(.states([Self.op: nil]))])
    }

    /// HA accepted `coalesce_messages` (the command's result, id 2 after the one
    /// subscription): each message is then all HA queued in one turn, and ends a batch.
    static func coalescing() -> HomeAssistantSession {
        var session = live()
        #expect(session.receive(#"{"id":2,"type":"result","success":true,"result":null}"#, at: .seconds(1)) == [])
        #expect(session.coalescing)
        return session
    }

    @Test func whereHomeAssistantCoalescesAMessageIsOneBatch() {
        var session = Self.coalescing()
        // Two state changes HA wrote in one turn: one delivery, which ends the batch.
        let two = #"[{"id":1,"type":"event","event":{"c":{"sensor.op":{"+":{"s":"run","lc":2}}}}},"#
            + #"{"id":1,"type":"event","event":{"a":{"sensor.gone":{"s":"5","a":{}}}}}]"#
        #expect(session.receive(two, at: .seconds(2)) == [
            .deliver(.states([Self.op: EntityState(state: "run", deviceClass: "enum"), "sensor.gone": EntityState(state: "5")],
                             endsBatch: true)),
        ])
        // A message alone (HA had one queued) is a batch too.
        #expect(session.receive(#"{"id":1,"type":"event","event":{"c":{"sensor.op":{"+":{"s":"pause","lc":3}}}}}"#, at: .seconds(3))
            == [.deliver(.states([Self.op: EntityState(state: "pause", deviceClass: "enum")], endsBatch: true))])
        // A message without a state change (a pong) ends nothing.
        #expect(session.receive(#"[{"id":9,"type":"pong"},{"id":1,"type":"event","event":{"c":{"sensor.op":{"+":{"lu":4}}}}}]"#, at: .seconds(4)) == [])
    }

    @Test func anHomeAssistantWithoutCoalescingLeavesBatchesUnsaid() {
        var session = Self.live()
        // As an HA without the command answers it.
        #expect(session.receive(#"{"id":2,"type":"result","success":false,"error":{"code":"unknown_command","message":"Unknown command."}}"#,
                                at: .seconds(1)) == [], "not a failure of the connection")
        #expect(!session.coalescing && session.isLive)
        let two = #"[{"id":1,"type":"event","event":{"c":{"sensor.op":{"+":{"s":"run","lc":2}}}}},"#
            + #"{"id":1,"type":"event","event":{"r":["sensor.op"]}}]"#
        #expect(session.receive(two, at: .seconds(2)) == [
            .deliver(.states([Self.op: EntityState(state: "run", deviceClass: "enum")])), .deliver(.states([Self.op: nil])),
        ])
    }

    @Test(arguments: ["not json", #"{"no":"type"}"#, #"{"type":"auth_ok"}"#])
    func unexpectedMessagesBeforeAuthFail(_ text: String) {
        var session = Self.session()
        let actions = session.receive(text, at: .zero)
        guard case .fail(.unexpectedMessage(_, _, let found))? = actions.first else {
            Issue.record("expected unexpectedMessage, got \(actions)")
            return
        }
        #expect(found == text)
    }

    /// The text the core takes for a role (docs/CYCLES.md, "Roles", `error_reason`): an event
    /// entity's event type, a space and its time; any other entity's state as HA has it.
    @Test(arguments: [
        (EntityState(state: "2026-12-02T10:15:00.000+00:00", eventType: "water_supply_error"),
         "water_supply_error 2026-12-02T10:15:00.000+00:00"),
        (EntityState(state: "unknown", eventType: nil), "unknown"),
        (EntityState(state: "unavailable", eventType: "water_supply_error"), "unavailable"),
        (EntityState(state: "run", deviceClass: "enum"), "run"),
        (EntityState(state: "42", unit: "%"), "42"),
    ])
    func theRoleTextCarriesAnEventsType(state: EntityState, text: String) {
        #expect(state.roleText == text)
    }
}
