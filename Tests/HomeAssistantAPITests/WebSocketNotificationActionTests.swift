@testable import HomeAssistantAPI
import Testing

/// The buttons tapped on notifications (`mobile_app_notification_action`), as the
/// session follows them: the *Unloaded* button's way back to cycletrack.
@Suite struct WebSocketNotificationActionTests {
    /// Past auth, with the entities' and the notification actions' subscriptions sent (ids 1, 2).
    static func subscribing() -> HomeAssistantSession {
        var session = HomeAssistantSession(
            settings: .init(url: WebSocketSessionTests.url, entityIDs: [WebSocketSessionTests.op], registries: [],
                            notificationActions: true),
            token: "secret-token", now: .zero)
        _ = session.receive(#"{"type":"auth_required"}"#, at: .zero)
        let sent = session.receive(#"{"type":"auth_ok","ha_version":"2026.11.0"}"#, at: .zero)
        #expect(sent.prefix(2) == [
            .send(#"{"id":1,"type":"subscribe_entities","entity_ids":["sensor.op"]}"#),
            .send(#"{"id":2,"type":"subscribe_events","event_type":"mobile_app_notification_action"}"#),
        ])
        return session
    }

    @Test func aTappedButtonIsDeliveredWithItsAction() {
        var session = Self.subscribing()
        _ = session.receive(#"{"id":2,"type":"result","success":true,"result":null}"#, at: .zero)
        #expect(session.receive(#"{"id":1,"type":"result","success":true,"result":null}"#, at: .zero)
            == [.subscribed(haVersion: "2026.11.0")])
        let tapped = #"{"id":2,"type":"event","event":{"event_type":"mobile_app_notification_action","#
            + #""data":{"action":"CYCLETRACK_UNLOADED_washer","tag":"appliance_washer_end"},"origin":"REMOTE"}}"#
        #expect(session.receive(tapped, at: .seconds(1)) == [.deliver(.notificationAction("CYCLETRACK_UNLOADED_washer"))])
        // An event without an action (another app's) delivers nothing.
        #expect(session.receive(#"{"id":2,"type":"event","event":{"data":{}}}"#, at: .seconds(1)) == [])
    }

    @Test func refusedToAUserWhoIsNotAnAdministratorTheRestGoesLive() {
        var session = Self.subscribing()
        _ = session.receive(#"{"id":1,"type":"result","success":true,"result":null}"#, at: .zero)
        let refused = #"{"id":2,"type":"result","success":false,"error":{"code":"unauthorized","message":"Unauthorized"}}"#
        #expect(session.receive(refused, at: .zero) == [
            .subscribed(haVersion: "2026.11.0"),
            .deliver(.notificationActionsRefused(reason: "unauthorized: Unauthorized")),
        ])
        #expect(session.isLive)
        // Nothing of that subscription is taken any more.
        #expect(session.receive(#"{"id":2,"type":"event","event":{"data":{"action":"CYCLETRACK_UNLOADED_washer"}}}"#,
                                at: .seconds(1)) == [])
    }

    @Test func notAskedForNotSubscribed() {
        var session = WebSocketSessionTests.session()
        _ = session.receive(#"{"type":"auth_required"}"#, at: .zero)
        let sent = session.receive(#"{"type":"auth_ok","ha_version":"2026.11.0"}"#, at: .zero)
        #expect(!sent.contains { if case .send(let text) = $0 { text.contains("mobile_app_notification_action") } else { false } })
    }
}
