import Dispatch
import HTTPStandIn
import Synchronization
import Testing

/// `HTTPStandIn` over loopback, read byte by byte as a client would: what the handler
/// sees, each `Reply` and fault as it goes over the wire, keep-alive, and stopping.
@Suite struct HTTPStandInTests {
    @Test func theHandlerSeesTheRequestAndItsAnswerGoesOut() throws {
        let seen = Mutex<[HTTPStandIn.Request]>([])
        let server = try HTTPStandIn { request in
            seen.withLock { $0.append(request) }
            return .respond(.init(status: 201, headers: [(name: "X-Stand-In", value: "yes")], body: Array("made".utf8)))
        }
        defer { server.stop() }
        let connection = try LoopbackConnection(port: server.port)
        try connection.request("POST", "/api/things?full=1", headers: ["Authorization": "Bearer t"], body: #"{"a":1}"#)
        let response = try connection.readResponse()
        #expect(response.status == 201)
        #expect(response.headers["x-stand-in"] == "yes")
        #expect(response.text == "made")
        let request = try #require(seen.withLock { $0.first })
        #expect(request.method == "POST")
        #expect(request.path == "/api/things")
        #expect(request.target == "/api/things?full=1")
        #expect(request.headers["authorization"] == "Bearer t")
        #expect(request.bodyText == #"{"a":1}"#)
    }

    @Test func keepAliveServesRequestsOnOneConnection() throws {
        let connections = Mutex<[Int]>([])
        let server = try HTTPStandIn { request in
            connections.withLock { $0.append(request.connection) }
            return .respond(.json(#"{"n": \#(request.path.dropFirst())}"#))
        }
        defer { server.stop() }
        let connection = try LoopbackConnection(port: server.port)
        var bodies: [String] = []
        for index in 1...3 {
            try connection.request("GET", "/\(index)")
            bodies.append(try connection.readResponse().text)
        }
        #expect(bodies == [#"{"n": 1}"#, #"{"n": 2}"#, #"{"n": 3}"#])
        #expect(Set(connections.withLock { $0 }).count == 1)
        #expect(server.acceptedConnections == 1)
    }

    @Test func closeWithoutAnswerSendsNotAByte() throws {
        let server = try HTTPStandIn { _ in .closeWithoutAnswer }
        defer { server.stop() }
        let connection = try LoopbackConnection(port: server.port)
        try connection.request("GET", "/")
        #expect(try connection.closedByPeer())
    }

    @Test(arguments: [true, false])
    func aHugeBodyArrivesWholeAnnouncedOrEndedByTheClose(announced: Bool) throws {
        let size = 3 * 1_048_576 + 17
        let server = try HTTPStandIn { _ in .hugeBody(bytes: size, announced: announced) }
        defer { server.stop() }
        let connection = try LoopbackConnection(port: server.port)
        try connection.request("GET", "/api/states")
        let response = try connection.readResponse()
        #expect(response.status == 200)
        #expect(response.headers["content-length"] == (announced ? String(size) : nil))
        #expect(response.body.count == size)
    }

    @Test func malformedJSONIsLabelledJSON() throws {
        let server = try HTTPStandIn { _ in .malformedJSON }
        defer { server.stop() }
        let connection = try LoopbackConnection(port: server.port)
        try connection.request("GET", "/api/states")
        let response = try connection.readResponse()
        #expect(response.status == 200)
        #expect(response.headers["content-type"]?.hasPrefix("application/json") == true)
        #expect(!response.body.isEmpty)
        #expect(response.text.first != "{" || response.text.last != "}", "not a whole JSON object: \(response.text)")
    }

    @Test(.timeLimit(.minutes(1))) func stopEndsAHeldConnectionAndRefusesNewOnes() throws {
        let arrived = DispatchSemaphore(value: 0)
        let server = try HTTPStandIn { _ in
            arrived.signal()
            return .neverAnswer
        }
        let connection = try LoopbackConnection(port: server.port)
        try connection.request("GET", "/held")
        arrived.wait()
        server.stop()
        #expect(try connection.closedByPeer(), "the held connection is closed without an answer")
        #expect(throws: LoopbackConnection.Failure.self) { try LoopbackConnection(port: server.port) }
        server.stop()
    }

    @Test(.timeLimit(.minutes(1))) func aSlowAnswerComesAfterItsWaitOrNotAtAllWhenStopped() throws {
        let seconds = Mutex(0.0)
        let arrived = DispatchSemaphore(value: 0)
        let server = try HTTPStandIn { _ in
            arrived.signal()
            return .slow(.text("late"), seconds: seconds.withLock { $0 })
        }
        let prompt = try LoopbackConnection(port: server.port)
        try prompt.request("GET", "/")
        #expect(try prompt.readResponse().text == "late")
        seconds.withLock { $0 = 600 }
        let held = try LoopbackConnection(port: server.port)
        try held.request("GET", "/")
        arrived.wait()
        arrived.wait()
        server.stop()
        #expect(try held.closedByPeer(), "stopping cuts the wait short and closes without an answer")
    }

    @Test func anUnusedPortRefusesConnections() throws {
        let port = try HTTPStandIn.unusedPort()
        #expect((1...65_535).contains(port))
        let failure = #expect(throws: LoopbackConnection.Failure.self) { try LoopbackConnection(port: port) }
        #expect(failure?.description == "refused")
    }
}
