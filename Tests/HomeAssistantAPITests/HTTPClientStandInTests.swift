import HTTPStandIn
import HomeAssistantAPI
import Testing

/// The HTTP client against the stand-ins' faults: a held connection cut by `stop`, a
/// refused connection, and entity states that need escaping. The stand-ins' own behaviour
/// is tested in HTTPStandInTests, without this client.
@Suite struct HTTPClientStandInTests {
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

    @Test func entityStatesEscapeLikeJSON() async throws {
        let ha = try HomeAssistantStandIn(token: secretToken)
        defer { ha.stop() }
        ha.set(entity: "sensor.odd", state: "say \"hi\"\\\n", unit: "°C")
        let client = HomeAssistantClient(baseURL: ha.baseURL, token: secretToken, http: HTTPClient())
        let states = try await client.states(of: ["sensor.odd"])
        #expect(states["sensor.odd"] == .some(EntityState(state: "say \"hi\"\\\n", unit: "°C")))
    }
}
