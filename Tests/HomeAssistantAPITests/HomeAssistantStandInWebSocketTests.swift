import HTTPStandIn
import HomeAssistantAPI
import Testing

/// The stand-in Home Assistant's WebSocket API, on the same port as its REST API,
/// against the real client: what `cycletrack run` in events mode (and the benchmark)
/// relies on.
@Suite(.timeLimit(.minutes(1)))
struct HomeAssistantStandInWebSocketTests {
    static let operation = "sensor.dishwasher_operation_state"
    static let progress = "sensor.dishwasher_program_progress"
    static let door = "sensor.dishwasher_door"

    static func standIn() throws -> HomeAssistantStandIn {
        let ha = try HomeAssistantStandIn(token: secretToken, webSocketAccept: WebSocketHandshake.acceptValue(for:))
        ha.set(entity: operation, state: "ready", deviceClass: "enum", options: ["ready", "run", "finished"])
        ha.set(entity: progress, state: "unavailable", unit: "%")
        ha.set(entity: door, state: "closed")
        return ha
    }

    static func connect(_ ha: HomeAssistantStandIn, token: String = secretToken,
                        registries: [HomeAssistantWebSocket.Registry] = []) async throws -> HomeAssistantWebSocket {
        try await HomeAssistantWebSocket.connect(
            baseURL: ha.baseURL, token: token, entityIDs: [operation, progress, "sensor.absent"], registries: registries,
            configuration: HomeAssistantWebSocket.Configuration(http: .init(connectTimeout: 5), handshakeTimeout: 5))
    }

    @Test func deliversTheCurrentStatesThenEveryChangeOfAFollowedEntity() async throws {
        let ha = try Self.standIn()
        defer { ha.stop() }
        let socket = try await Self.connect(ha, registries: [.entity, .device])
        defer { socket.close() }
        #expect(socket.haVersion == "2024.3.3")
        #expect(socket.url == ha.baseURL.replacing("http://", with: "ws://") + "/api/websocket")
        var events = socket.events.makeAsyncIterator()
        #expect(try await events.next() == .states([
            Self.operation: EntityState(state: "ready", deviceClass: "enum"),
            Self.progress: EntityState(state: "unavailable", unit: "%"),
            "sensor.absent": nil,
        ]))

        ha.update(entity: Self.door, state: "open")  // not followed: no event
        ha.update(entity: Self.operation, state: "run")
        #expect(try await events.next() == .states([Self.operation: EntityState(state: "run", deviceClass: "enum")]))
        ha.update(entity: Self.operation, state: "run")  // no change: no event
        ha.set(entity: Self.progress, state: "10", unit: "%")
        #expect(try await events.next() == .states([Self.progress: EntityState(state: "10", unit: "%")]))
        ha.set(entity: Self.progress, state: "10")  // the unit removed
        #expect(try await events.next() == .states([Self.progress: EntityState(state: "10")]))
        ha.remove(entity: Self.operation)
        #expect(try await events.next() == .states([Self.operation: nil]))
        ha.set(entity: "sensor.absent", state: "on", unit: "W")
        #expect(try await events.next() == .states(["sensor.absent": EntityState(state: "on", unit: "W")]))

        #expect(ha.entitySubscriptions == 1)
        let messages = ha.webSocketMessages
        #expect(messages.prefix(4) == ["auth", "subscribe_entities", "subscribe_events", "subscribe_events"])
        #expect(!messages.joined().contains(secretToken))
        #expect(ha.requests.contains("GET /api/websocket"))
    }

    @Test func answersPingsWithPongs() async throws {
        let ha = try Self.standIn()
        defer { ha.stop() }
        let socket = try await HomeAssistantWebSocket.connect(
            baseURL: ha.baseURL, token: secretToken, entityIDs: [Self.operation],
            configuration: HomeAssistantWebSocket.Configuration(handshakeTimeout: 5, pingInterval: 0.1, pongTimeout: 2))
        defer { socket.close() }
        var events = socket.events.makeAsyncIterator()
        _ = try await events.next()
        try await until("three pings") { ha.webSocketMessages.filter { $0 == "ping" }.count >= 3 }
        // Still alive after three pings: a missing pong would have ended the events.
        ha.update(entity: Self.operation, state: "run")
        #expect(try await events.next() == .states([Self.operation: EntityState(state: "run", deviceClass: "enum")]))
    }

    @Test func refusesAWrongToken() async throws {
        let ha = try Self.standIn()
        defer { ha.stop() }
        let error = await #expect(throws: HomeAssistantWebSocketError.self) {
            _ = try await Self.connect(ha, token: "wrong")
        }
        guard case .authInvalid? = error else {
            Issue.record("expected authInvalid, got \(String(describing: error))")
            return
        }
        #expect(ha.entitySubscriptions == 0)
    }

    @Test func withoutWebSocketTheUpgradeIsRefusedAsBefore() async throws {
        let ha = try HomeAssistantStandIn(token: secretToken)
        defer { ha.stop() }
        ha.set(entity: Self.operation, state: "ready")
        await #expect(throws: HomeAssistantWebSocketError.self) {
            _ = try await Self.connect(ha)
        }
        #expect(ha.webSocketMessages.isEmpty)
    }

    @Test func aClosedConnectionEndsItsSubscription() async throws {
        let ha = try Self.standIn()
        defer { ha.stop() }
        let socket = try await Self.connect(ha)
        var events = socket.events.makeAsyncIterator()
        _ = try await events.next()
        #expect(ha.entitySubscriptions == 1)
        socket.close()
        try await until("the subscription gone") { ha.entitySubscriptions == 0 }
        // Changes after the client left go nowhere, and break nothing.
        ha.update(entity: Self.operation, state: "run")
        #expect(ha.entities[Self.operation]?.state == "run")
    }
}
