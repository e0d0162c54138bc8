import HTTPStandIn
import HomeAssistantAPI
import Testing

@Suite struct HTTPStandInTests {
    @Test(.timeLimit(.minutes(1))) func stopEndsAConnectionThatIsBeingHeld() async throws {
        let (arrived, arrival) = AsyncStream<Void>.makeStream()
        let server = try HTTPStandIn { _ in
            arrival.yield()
            return .neverAnswer
        }
        let client = HTTPClient(configuration: .init(totalTimeout: 60))
        async let error = sendError(client, HTTPRequest(url: server.baseURL + "/held"))
        // The whole request has arrived and is being held.
        var arrivals = arrived.makeAsyncIterator()
        _ = await arrivals.next()
        server.stop()
        let kind = await error?.kind
        // The stand-in closed the socket: an empty reply, not a timeout and not an answer.
        guard case .transport(code: 52, _)? = kind else {
            Issue.record("expected CURLE_GOT_NOTHING, got \(String(describing: kind))")
            return
        }
    }

    @Test func stoppedServerRefusesConnections() async throws {
        let server = try HTTPStandIn { _ in .respond(.json("{}")) }
        let url = server.baseURL
        server.stop()
        server.stop()
        #expect(await sendError(HTTPClient(), HTTPRequest(url: url))?.kind == .refused)
    }

    @Test func homeAssistantStandInRequiresTheBearerToken() async throws {
        let ha = try HomeAssistantStandIn(token: secretToken)
        defer { ha.stop() }
        let client = HTTPClient()
        let bare = try await client.send(HTTPRequest(url: ha.baseURL + "/api/"))
        #expect(bare.status == 401)
        let wrong = try await client.send(HTTPRequest(url: ha.baseURL + "/api/",
                                                      headers: [(name: "Authorization", value: "Bearer nope")]))
        #expect(wrong.status == 401)
        let right = try await client.send(authorized(ha.baseURL + "/api/"))
        #expect(right.status == 200)
        #expect(right.text == #"{"message": "API running."}"#)
    }

    @Test func serviceCallsAreRecordedInOrderWithScriptedStatuses() async throws {
        let ha = try HomeAssistantStandIn(token: secretToken)
        defer { ha.stop() }
        ha.scriptServiceStatuses([500, 200])
        let client = HTTPClient()
        var statuses: [Int] = []
        for index in 0..<3 {
            let body = Array(#"{"n": \#(index)}"#.utf8)
            statuses.append(try await client.send(authorized(ha.baseURL + "/api/services/supernotify/notify",
                                                             method: .post, body: body)).status)
        }
        let notJSON = try await client.send(authorized(ha.baseURL + "/api/services/supernotify/notify",
                                                       method: .post, body: Array("{nope".utf8)))
        #expect(statuses == [500, 200, 200])
        #expect(notJSON.status == 400)
        let calls = ha.notifyCalls
        #expect(calls.map(\.body) == [#"{"n": 0}"#, #"{"n": 1}"#, #"{"n": 2}"#])
        #expect(calls.map(\.status) == [500, 200, 200])
        #expect(zip(calls, calls.dropFirst()).allSatisfy { $0.receivedAt <= $1.receivedAt })
    }

    @Test func entityStatesEscapeLikeJSON() async throws {
        let ha = try HomeAssistantStandIn(token: secretToken)
        defer { ha.stop() }
        ha.set(entity: "sensor.odd", state: "say \"hi\"\\\n", unit: "°C")
        let client = HomeAssistantClient(baseURL: ha.baseURL, token: secretToken, http: HTTPClient())
        let states = try await client.states(of: ["sensor.odd"])
        #expect(states["sensor.odd"] == .some(EntityState(state: "say \"hi\"\\\n", unit: "°C")))
    }
}
