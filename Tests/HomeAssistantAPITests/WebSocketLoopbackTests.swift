import Foundation
import HTTPStandIn
import HomeAssistantAPI
import Synchronization
import Testing

/// The WebSocket client against a loopback stand-in that speaks just enough of Home
/// Assistant's protocol, and misbehaves on purpose: fragments, pings, closes, oversize,
/// garbage, silence, a dropped connection, an upgrade never answered.
@Suite(.timeLimit(.minutes(1)))
struct WebSocketLoopbackTests {
    static let entity = "sensor.dishwasher_operation_state"
    static let initial = #"{"id":1,"type":"event","event":{"a":{"sensor.dishwasher_operation_state":{"s":"ready","a":{"device_class":"enum","friendly_name":"Op"},"c":"01H","lc":1.0}}}}"#
    static let change = #"{"id":1,"type":"event","event":{"c":{"sensor.dishwasher_operation_state":{"+":{"s":"run","lc":2.0,"c":"01J"}}}}}"#

    /// Quick timing so liveness tests take a second, not 40.
    static func configuration(maxMessageBytes: Int = 1 << 20, ping: Double = 30, pong: Double = 10,
                              handshake: Double = 5) -> HomeAssistantWebSocket.Configuration {
        HomeAssistantWebSocket.Configuration(http: .init(connectTimeout: 5), handshakeTimeout: handshake,
                                             pingInterval: ping, pongTimeout: pong, maxMessageBytes: maxMessageBytes)
    }

    static func json(_ text: String) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
    }

    /// The HA side up to "subscribed": auth_required, auth (checked), auth_ok, a result for
    /// every subscription, the `supported_features` refused (as an HA without it would:
    /// these tests take messages one by one), the initial states. Nil when the client
    /// misbehaved.
    @discardableResult
    static func serveHomeAssistant(_ peer: WebSocketStandInPeer, token: String = secretToken,
                                   subscriptions expected: Int = 1, initial: String = initial) -> [[String: Any]]? {
        peer.sendText(#"{"type":"auth_required","ha_version":"2024.3.3"}"#)
        guard let auth = peer.receiveText().map(json), auth["type"] as? String == "auth" else { return nil }
        guard auth["access_token"] as? String == token else {
            peer.sendText(#"{"type":"auth_invalid","message":"Invalid access token or password"}"#)
            return nil
        }
        peer.sendText(#"{"type":"auth_ok","ha_version":"2024.3.3"}"#)
        var subscriptions: [[String: Any]] = []
        var featuresAsked = false
        while subscriptions.count < expected || !featuresAsked, let text = peer.receiveText() {
            let message = json(text)
            let id = message["id"] as? Int ?? 0
            if message["type"] as? String == "supported_features" {
                featuresAsked = true
                peer.sendText(#"{"id":\#(id),"type":"result","success":false,"error":{"code":"unknown_command","message":"Unknown command."}}"#)
                continue
            }
            subscriptions.append(message)
            peer.sendText(#"{"id":\#(id),"type":"result","success":true,"result":null}"#)
        }
        peer.sendText(initial)
        return subscriptions
    }

    /// Answers HA pings with pongs until the client leaves.
    static func answerPings(_ peer: WebSocketStandInPeer, count: Shared<Int>? = nil) {
        while let text = peer.receiveText(timeout: 30) {
            let message = json(text)
            if message["type"] as? String == "ping", let id = message["id"] as? Int {
                count?.withLock { $0 += 1 }
                peer.sendText(#"{"id":\#(id),"type":"pong"}"#)
            }
        }
    }

    static func connect(_ server: WebSocketStandIn, token: String = secretToken,
                        configuration: HomeAssistantWebSocket.Configuration = configuration()) async throws -> HomeAssistantWebSocket {
        try await HomeAssistantWebSocket.connect(baseURL: server.baseURL, token: token, entityIDs: [entity, "sensor.absent"],
                                                 registries: [], configuration: configuration)
    }

    /// Every event until the stream ends, and the error it ended with.
    static func drain(_ socket: HomeAssistantWebSocket) async -> (events: [HomeAssistantWebSocket.Event], error: HomeAssistantWebSocketError?) {
        var events: [HomeAssistantWebSocket.Event] = []
        do {
            for try await event in socket.events { events.append(event) }
            return (events, nil)
        } catch {
            return (events, error as? HomeAssistantWebSocketError)
        }
    }

    static func standIn(_ upgrade: WebSocketStandIn.Upgrade = .accept,
                        _ script: @escaping @Sendable (WebSocketStandInPeer) -> Void = { _ in }) throws -> WebSocketStandIn {
        try WebSocketStandIn(upgrade: upgrade, acceptValue: WebSocketHandshake.acceptValue(for:), script: script)
    }

    static var initialStates: HomeAssistantWebSocket.Event {
        .states([entity: EntityState(state: "ready", deviceClass: "enum"), "sensor.absent": nil])
    }

    // MARK: The good path

    @Test func authenticatesSubscribesAndDeliversInitialStatesThenChanges() async throws {
        let seen = Shared<[String]>([])
        let server = try Self.standIn { peer in
            guard let subscriptions = Self.serveHomeAssistant(peer) else { return }
            seen.withLock { $0 = subscriptions.map { String(decoding: try! JSONSerialization.data(withJSONObject: $0), as: UTF8.self) } }
            peer.sendText(Self.change)
            peer.sendClose(code: 1000)
            _ = peer.receiveFrame()
        }
        let socket = try await Self.connect(server)
        #expect(socket.haVersion == "2024.3.3")
        #expect(socket.url == "ws://127.0.0.1:\(server.port)/api/websocket")
        let (events, error) = await Self.drain(socket)
        #expect(events == [Self.initialStates, .states([Self.entity: EntityState(state: "run", deviceClass: "enum")])])
        #expect(error == .connection(WebSocketError(.closedByServer(code: 1000, reason: ""), url: socket.url)))
        let subscriptions = seen.withLock { $0 }.map(Self.json)
        #expect(subscriptions.count == 1)
        #expect(subscriptions.first?["type"] as? String == "subscribe_entities")
        #expect(subscriptions.first?["entity_ids"] as? [String] == [Self.entity, "sensor.absent"])
        let request = try #require(server.upgradeRequests.first)
        #expect(request.first == "GET /api/websocket HTTP/1.1")
        #expect(!request.joined().contains(secretToken))
    }

    @Test func registryEventsArriveAsTheirOwnKind() async throws {
        let server = try Self.standIn { peer in
            guard let subscriptions = Self.serveHomeAssistant(peer, subscriptions: 3) else { return }
            for message in subscriptions where message["type"] as? String == "subscribe_events" {
                let id = message["id"] as? Int ?? 0
                let type = message["event_type"] as? String ?? ""
                peer.sendText(#"{"id":\#(id),"type":"event","event":{"event_type":"\#(type)","data":{"action":"create","device_id":"d1"},"origin":"LOCAL"}}"#)
            }
            peer.sendClose(code: 1000)
            _ = peer.receiveFrame()
        }
        let socket = try await HomeAssistantWebSocket.connect(
            baseURL: server.baseURL, token: secretToken, entityIDs: [Self.entity], registries: [.entity, .device],
            configuration: Self.configuration())
        let (events, _) = await Self.drain(socket)
        #expect(events.dropFirst() == [.registryUpdated(.entity, action: "create"), .registryUpdated(.device, action: "create")])
    }

    @Test func closeSendsACloseFrameAndEndsTheEventsWithoutError() async throws {
        let received = Shared<WebSocketStandInPeer.Frame?>(nil)
        let server = try Self.standIn { peer in
            guard Self.serveHomeAssistant(peer) != nil else { return }
            let frame = peer.receiveFrame()
            received.withLock { $0 = frame }
            peer.sendClose(code: 1000)
        }
        let socket = try await Self.connect(server)
        socket.close()
        let (events, error) = await Self.drain(socket)
        #expect(error == nil)
        #expect(events.count <= 1)
        server.stop()
        let frame = try #require(received.withLock { $0 })
        #expect(frame.opcode == 0x8 && frame.closeCode == 1000 && frame.masked)
    }

    @Test func pingsAnsweredKeepTheConnection() async throws {
        let pings = Shared(0)
        let server = try Self.standIn { peer in
            guard Self.serveHomeAssistant(peer) != nil else { return }
            Self.answerPings(peer, count: pings)
        }
        let socket = try await Self.connect(server, configuration: Self.configuration(ping: 0.1, pong: 2))
        let consumer = Task { await Self.drain(socket) }
        try await until("three pings answered") {
            try #require(server.acceptedConnections == 1)
            return pings.withLock { $0 } >= 3
        }
        socket.close()
        let (_, error) = await consumer.value
        #expect(error == nil)
    }

    // MARK: Framing against the stand-in

    @Test func aFragmentedMessageWithAServerPingBetweenIsJoinedAndThePingAnswered() async throws {
        let pong = Shared<WebSocketStandInPeer.Frame?>(nil)
        let server = try Self.standIn { peer in
            guard Self.serveHomeAssistant(peer) != nil else { return }
            peer.sendFragmented(Self.change, pieceBytes: 7, pingBetween: true)
            let frame = peer.receiveFrame()
            pong.withLock { $0 = frame }
            peer.sendClose(code: 1000)
            _ = peer.receiveFrame()
        }
        let socket = try await Self.connect(server)
        let (events, _) = await Self.drain(socket)
        #expect(events.last == .states([Self.entity: EntityState(state: "run", deviceClass: "enum")]))
        let frame = try #require(pong.withLock { $0 })
        #expect(frame.opcode == 0xA && frame.text == "mid" && frame.masked)
    }

    @Test func aCloseFromTheServerIsEchoedAndReported() async throws {
        let echo = Shared<WebSocketStandInPeer.Frame?>(nil)
        let server = try Self.standIn { peer in
            guard Self.serveHomeAssistant(peer) != nil else { return }
            peer.sendClose(code: 1001, reason: "going away")
            let frame = peer.receiveFrame()
            echo.withLock { $0 = frame }
        }
        let socket = try await Self.connect(server)
        let (_, error) = await Self.drain(socket)
        #expect(error == .connection(WebSocketError(.closedByServer(code: 1001, reason: "going away"), url: socket.url)))
        server.stop()
        #expect(echo.withLock { $0?.closeCode } == 1001)
    }

    @Test func anOversizedMessageIsRefusedWith1009() async throws {
        let close = Shared<WebSocketStandInPeer.Frame?>(nil)
        let server = try Self.standIn { peer in
            guard Self.serveHomeAssistant(peer) != nil else { return }
            peer.sendText(#"{"id":1,"type":"event","event":{"c":{}},"pad":""# + String(repeating: "x", count: 10_000) + "\"}")
            let frame = peer.receiveFrame()
            close.withLock { $0 = frame }
        }
        let socket = try await Self.connect(server, configuration: Self.configuration(maxMessageBytes: 4096))
        let (_, error) = await Self.drain(socket)
        #expect(error == .connection(WebSocketError(.messageTooLarge(limit: 4096), url: socket.url)))
        server.stop()
        #expect(close.withLock { $0?.closeCode } == 1009)
    }

    @Test func garbageAfterTheUpgradeIsAProtocolViolation() async throws {
        let server = try Self.standIn { peer in
            guard Self.serveHomeAssistant(peer) != nil else { return }
            peer.sendRaw([0xF3, 0x7F, 0x00, 0xFF, 0x42])
            peer.waitUntilClientLeaves()
        }
        let socket = try await Self.connect(server)
        let (_, error) = await Self.drain(socket)
        guard case .connection(let failure) = error, case .protocolViolation(let detail) = failure.kind else {
            Issue.record("expected a protocol violation, got \(String(describing: error))")
            return
        }
        #expect(detail.contains("reserved bits"))
    }

    @Test func aMaskedFrameFromTheServerIsRefused() async throws {
        let server = try Self.standIn { peer in
            peer.sendFrame(opcode: 0x1, payload: Array(#"{"type":"auth_required"}"#.utf8), masked: true)
            peer.waitUntilClientLeaves()
        }
        await #expect {
            _ = try await Self.connect(server)
        } throws: { error in
            guard case HomeAssistantWebSocketError.connection(let failure) = error,
                  case .protocolViolation(let detail) = failure.kind else { return false }
            return detail.contains("masked")
        }
    }

    @Test func garbageInsteadOfAnUpgradeAnswerIsRefused() async throws {
        let server = try Self.standIn(.garbage)
        await #expect {
            _ = try await Self.connect(server)
        } throws: { error in
            guard case HomeAssistantWebSocketError.connection(let failure) = error,
                  case .upgradeRefused = failure.kind else { return false }
            return true
        }
    }

    @Test(arguments: [WebSocketStandIn.Upgrade.wrongAccept, .refuse(status: 404)])
    func aWrongUpgradeAnswerIsRefused(_ upgrade: WebSocketStandIn.Upgrade) async throws {
        let server = try Self.standIn(upgrade)
        await #expect {
            _ = try await Self.connect(server)
        } throws: { error in
            guard case HomeAssistantWebSocketError.connection(let failure) = error,
                  case .upgradeRefused(let detail) = failure.kind else { return false }
            return detail.contains("expected")
        }
    }

    @Test func aServerThatNeverAnswersTheUpgradeTimesOut() async throws {
        let server = try Self.standIn(.neverAnswer)
        await #expect(throws: HomeAssistantWebSocketError.connection(WebSocketError(
            .timeout("answer to the upgrade request"), url: "ws://127.0.0.1:\(server.port)/api/websocket"))) {
            _ = try await Self.connect(server, configuration: Self.configuration(handshake: 0.5))
        }
    }

    @Test func aRefusedConnectionIsClassified() async throws {
        let port = try HTTPStandIn.unusedPort()
        await #expect {
            _ = try await HomeAssistantWebSocket.connect(baseURL: "http://127.0.0.1:\(port)", token: secretToken,
                                                         entityIDs: [Self.entity], configuration: Self.configuration())
        } throws: { error in
            guard case HomeAssistantWebSocketError.connection(let failure) = error,
                  case .connect(let http) = failure.kind else { return false }
            return http.kind == .refused
        }
    }

    // MARK: Liveness and loss

    @Test func aSilentServerIsFoundDeadByThePingTimeout() async throws {
        let server = try Self.standIn { peer in
            guard Self.serveHomeAssistant(peer) != nil else { return }
            // A cut cable: no FIN, no RST, no answer.
            peer.goSilent()
        }
        let socket = try await Self.connect(server, configuration: Self.configuration(ping: 0.2, pong: 0.5))
        let (_, error) = await Self.drain(socket)
        #expect(error == .noPong(url: socket.url, seconds: 0.5))
    }

    @Test func aConnectionDroppedWithoutACloseFrameIsReported() async throws {
        let server = try Self.standIn { peer in
            guard Self.serveHomeAssistant(peer) != nil else { return }
            peer.closeSocket()
        }
        let socket = try await Self.connect(server)
        let (_, error) = await Self.drain(socket)
        guard case .connection(let failure) = error, case .connectionLost = failure.kind else {
            Issue.record("expected connectionLost, got \(String(describing: error))")
            return
        }
    }

    // MARK: HA's refusals

    @Test func aWrongTokenIsAuthInvalidAndTheTokenIsInNoError() async throws {
        let server = try Self.standIn { peer in
            Self.serveHomeAssistant(peer, token: "another-token")
            peer.waitUntilClientLeaves()
        }
        await #expect {
            _ = try await Self.connect(server)
        } throws: { error in
            guard case HomeAssistantWebSocketError.authInvalid(_, let message) = error else { return false }
            return message.contains("Invalid access token") && !"\(error)".contains(secretToken)
        }
    }

    @Test func aRefusedSubscriptionFailsTheConnect() async throws {
        let server = try Self.standIn { peer in
            peer.sendText(#"{"type":"auth_required"}"#)
            _ = peer.receiveText()
            peer.sendText(#"{"type":"auth_ok","ha_version":"2024.3.3"}"#)
            let id = Self.json(peer.receiveText() ?? "")["id"] as? Int ?? 0
            peer.sendText(#"{"id":\#(id),"type":"result","success":false,"error":{"code":"unknown_command","message":"Unknown command."}}"#)
            peer.waitUntilClientLeaves()
        }
        await #expect {
            _ = try await Self.connect(server)
        } throws: { error in
            guard case HomeAssistantWebSocketError.commandFailed(_, let command, let code, _) = error else { return false }
            return command == "subscribe_entities" && code == "unknown_command"
        }
    }

    @Test func anInvalidEntityIDIsRefusedBeforeConnecting() async {
        await #expect(throws: HomeAssistantWebSocketError.invalidEntityID("sensor.\"x")) {
            _ = try await HomeAssistantWebSocket.connect(baseURL: "http://127.0.0.1:1", token: "t", entityIDs: ["sensor.\"x"])
        }
    }
}

/// A value shared between a stand-in's script thread and the test.
final class Shared<Value>: @unchecked Sendable {
    private let mutex: Mutex<Value>

    init(_ value: sending Value) {
        mutex = Mutex(value)
    }

    func withLock<Result>(_ body: (inout sending Value) -> sending Result) -> sending Result {
        mutex.withLock(body)
    }
}
