import HTTPStandIn
import Testing

/// `HomeAssistantStandIn`'s REST routes over loopback, as HA answers them: the bearer
/// token, entity states, service calls recorded with scripted statuses, posted states,
/// overrides, and the WebSocket path's upgrade and first message.
@Suite struct HomeAssistantStandInTests {
    static let token = "stand-in-test-token"
    static var bearer: [String: String] { ["Authorization": "Bearer \(token)"] }

    @Test(arguments: [nil, "Bearer nope", "Token stand-in-test-token"])
    func everyRouteWantsTheToken(authorization: String?) throws {
        let ha = try HomeAssistantStandIn(token: Self.token)
        defer { ha.stop() }
        let connection = try LoopbackConnection(port: Self.port(ha))
        try connection.request("GET", "/api/", headers: authorization.map { ["Authorization": $0] } ?? [:])
        let response = try connection.readResponse()
        #expect(response.status == 401)
        #expect(ha.requests == ["GET /api/"])
    }

    @Test func statesAreServedAsSetAndUnknownOnesAre404() throws {
        let ha = try HomeAssistantStandIn(token: Self.token)
        defer { ha.stop() }
        ha.set(entity: "sensor.dishwasher_program_progress", state: "42", unit: "%")
        let connection = try LoopbackConnection(port: Self.port(ha))
        try connection.request("GET", "/api/", headers: Self.bearer)
        #expect(try connection.readResponse().text == #"{"message": "API running."}"#)
        try connection.request("GET", "/api/states/sensor.dishwasher_program_progress", headers: Self.bearer)
        let known = try connection.readResponse()
        #expect(known.status == 200)
        #expect(known.text.contains(#""entity_id": "sensor.dishwasher_program_progress""#))
        #expect(known.text.contains("\"42\""))
        #expect(known.text.contains("\"%\""))
        ha.remove(entity: "sensor.dishwasher_program_progress")
        try connection.request("GET", "/api/states/sensor.dishwasher_program_progress", headers: Self.bearer)
        #expect(try connection.readResponse().status == 404)
    }

    @Test func serviceCallsAreRecordedWithTheirScriptedStatuses() throws {
        let ha = try HomeAssistantStandIn(token: Self.token)
        defer { ha.stop() }
        ha.scriptServiceStatuses([500, 200])
        let connection = try LoopbackConnection(port: Self.port(ha))
        var statuses: [Int] = []
        for index in 0..<3 {
            try connection.request("POST", "/api/services/supernotify/notify", headers: Self.bearer, body: #"{"n": \#(index)}"#)
            statuses.append(try connection.readResponse().status)
        }
        try connection.request("POST", "/api/services/supernotify/notify", headers: Self.bearer, body: "{nope")
        #expect(try connection.readResponse().status == 400, "a body that is no JSON object, as HA answers it")
        #expect(statuses == [500, 200, 200])
        #expect(ha.notifyCalls.map(\.body) == [#"{"n": 0}"#, #"{"n": 1}"#, #"{"n": 2}"#])
        #expect(ha.notifyCalls.map(\.status) == [500, 200, 200])
        #expect(ha.serviceCalls.allSatisfy { $0.domain == "supernotify" && $0.service == "notify" })
    }

    @Test func aPostedStateIsAnEntityUntilHARestartsAndAnEventIsRecorded() throws {
        let ha = try HomeAssistantStandIn(token: Self.token)
        defer { ha.stop() }
        let connection = try LoopbackConnection(port: Self.port(ha))
        try connection.request("POST", "/api/states/sensor.cycletrack_washer", headers: Self.bearer,
                               body: #"{"state": "running", "attributes": {}}"#)
        #expect(try connection.readResponse().status == 200)
        try connection.request("POST", "/api/events/cycletrack_cycle_ended", headers: Self.bearer, body: "{}")
        #expect(try connection.readResponse().text == #"{"message": "Event fired."}"#)
        #expect(ha.entities["sensor.cycletrack_washer"] == HomeAssistantStandIn.Entity(state: "running"))
        #expect(ha.posts.map(\.path) == ["states/sensor.cycletrack_washer", "events/cycletrack_cycle_ended"])
    }

    @Test func anOverrideAnswersInsteadOfTheRoute() throws {
        let ha = try HomeAssistantStandIn(token: Self.token)
        defer { ha.stop() }
        ha.override("GET /api/config", with: .respond(.text("busy", status: 503)))
        let connection = try LoopbackConnection(port: Self.port(ha))
        try connection.request("GET", "/api/config", headers: Self.bearer)
        let overridden = try connection.readResponse()
        #expect(overridden.status == 503 && overridden.text == "busy")
        ha.override("GET /api/config", with: nil)
        try connection.request("GET", "/api/config", headers: Self.bearer)
        let config = try connection.readResponse()
        #expect(config.status == 200)
        #expect(config.text.contains(#""version": "2024.3.3""#))
    }

    @Test func theWebSocketPathUpgradesAndAsksForAuth() throws {
        let ha = try HomeAssistantStandIn(token: Self.token, version: "2026.11.0") { key in "accept-for-" + key }
        defer { ha.stop() }
        let plain = try LoopbackConnection(port: Self.port(ha))
        try plain.request("GET", "/api/websocket")
        #expect(try plain.readResponse().status == 400, "a GET that is no upgrade")

        let connection = try LoopbackConnection(port: Self.port(ha))
        try connection.request("GET", "/api/websocket", headers: [
            "Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
            "Sec-WebSocket-Version": "13",
        ])
        let head = try connection.readHead()
        #expect(head.status == 101)
        #expect(head.headers["sec-websocket-accept"] == "accept-for-dGhlIHNhbXBsZSBub25jZQ==")
        // A server's frame is unmasked: FIN and text, then a length under 126.
        let frame = try connection.read(2)
        #expect(frame[0] == 0x81)
        let text = String(decoding: try connection.read(Int(frame[1])), as: UTF8.self)
        #expect(text == #"{"type":"auth_required","ha_version":"2026.11.0"}"#)
    }

    static func port(_ ha: HomeAssistantStandIn) -> Int {
        Int(ha.baseURL.split(separator: ":").last ?? "") ?? 0
    }
}
