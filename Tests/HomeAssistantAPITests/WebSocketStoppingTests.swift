import Testing
import HomeAssistantAPI

/// Which endings of HA's WebSocket say that HA is stopping (its normal close on
/// `homeassistant_stop`), as a table: the update path probes quickly after those.
@Suite struct WebSocketStoppingTests {
    static let url = "ws://127.0.0.1:8123/api/websocket"

    @Test(arguments: [
        (WebSocketError.Kind.closedByServer(code: 1000, reason: ""), true),
        (.closedByServer(code: 1001, reason: "going away"), true),
        (.closedByServer(code: 1002, reason: ""), false),
        (.closedByServer(code: 1011, reason: ""), false),
        (.closedByServer(code: nil, reason: ""), false),
        (.connectionLost("reset by peer"), false),
        (.messageTooLarge(limit: 16 << 20), false),
        (.protocolViolation("masked frame"), false),
    ] as [(WebSocketError.Kind, Bool)])
    func aNormalCloseSaysHomeAssistantIsStopping(kind: WebSocketError.Kind, stopping: Bool) {
        #expect(HomeAssistantWebSocketError.connection(WebSocketError(kind, url: Self.url)).saysStopping == stopping)
    }

    @Test func otherFailuresDoNotSayIt() {
        #expect(!HomeAssistantWebSocketError.noPong(url: Self.url, seconds: 10).saysStopping)
        #expect(!HomeAssistantWebSocketError.timeout(url: Self.url, waitingFor: "auth_ok").saysStopping)
    }
}
