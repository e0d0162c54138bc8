import HTTPStandIn
import HomeAssistantAPI
import Synchronization
import Testing

/// A token that must never show up in an error.
let secretToken = "SeCrEt-t0ken-7f3a9c"

/// The error `send` threw, or nil when it answered.
func sendError(_ client: HTTPClient, _ request: HTTPRequest) async -> HTTPError? {
    do {
        _ = try await client.send(request)
        return nil
    } catch {
        return error
    }
}

func authorized(_ url: String, method: HTTPRequest.Method = .get, body: [UInt8]? = nil) -> HTTPRequest {
    HTTPRequest(method: method, url: url, headers: [(name: "Authorization", value: "Bearer \(secretToken)")], body: body)
}

@Suite struct HTTPClientTests {
    @Test func getReturnsStatusHeadersAndBody() async throws {
        let server = try HTTPStandIn { request in
            .respond(HTTPStandIn.Response(status: 200, headers: [(name: "X-Echo-Path", value: request.target)],
                                          body: Array("hello \(request.method)".utf8)))
        }
        defer { server.stop() }
        let response = try await HTTPClient().send(HTTPRequest(url: server.baseURL + "/api/thing?x=1"))
        #expect(response.status == 200)
        #expect(response.text == "hello GET")
        #expect(response.headers["x-echo-path"] == "/api/thing?x=1")
        #expect(response.headers["content-length"] == "9")
        #expect(response.totalSeconds >= 0)
    }

    @Test(arguments: [0, 10, 5000, 200_000])
    func postBodyArrivesIntact(size: Int) async throws {
        let received = ReceivedRequests()
        let server = try HTTPStandIn { request in
            received.append(request)
            return .respond(.json("{}", status: 201))
        }
        defer { server.stop() }
        let body = (0..<size).map { UInt8(truncatingIfNeeded: $0 * 7) }
        let response = try await HTTPClient().send(authorized(server.baseURL + "/post", method: .post, body: body))
        #expect(response.status == 201)
        let request = try #require(received.all.first)
        #expect(request.method == "POST")
        #expect(request.body == body)
        #expect(request.headers["authorization"] == "Bearer \(secretToken)")
        #expect(request.headers["expect"] == nil)
    }

    @Test(arguments: [400, 401, 404, 500, 503])
    func statusCodesAreResponsesNotErrors(status: Int) async throws {
        let server = try HTTPStandIn { _ in .respond(.text("nope", status: status)) }
        defer { server.stop() }
        let response = try await HTTPClient().send(HTTPRequest(url: server.baseURL + "/"))
        #expect(response.status == status)
        #expect(response.text == "nope")
    }

    @Test func refusedConnectionIsClassified() async throws {
        let port = try HTTPStandIn.unusedPort()
        let error = await sendError(HTTPClient(), authorized("http://127.0.0.1:\(port)/api/config"))
        #expect(error?.kind == .refused)
        #expect(error?.url == "http://127.0.0.1:\(port)/api/config")
    }

    @Test func serverThatNeverAnswersTimesOut() async throws {
        let server = try HTTPStandIn { _ in .neverAnswer }
        defer { server.stop() }
        let client = HTTPClient(configuration: .init(connectTimeout: 1, totalTimeout: 1))
        let error = await sendError(client, authorized(server.baseURL + "/api/template", method: .post, body: [1]))
        #expect(error?.kind == .timeout)
    }

    @Test func slowAnswerWithinTheTimeoutArrives() async throws {
        let server = try HTTPStandIn { _ in .slow(.text("late"), seconds: 0.2) }
        defer { server.stop() }
        let response = try await HTTPClient(configuration: .init(totalTimeout: 10)).send(HTTPRequest(url: server.baseURL))
        #expect(response.text == "late")
    }

    @Test func closingWithoutAnswerIsATransportError() async throws {
        let server = try HTTPStandIn { _ in .closeWithoutAnswer }
        defer { server.stop() }
        let error = await sendError(HTTPClient(), authorized(server.baseURL + "/api/"))
        guard case .transport(let code, _)? = error?.kind else {
            Issue.record("expected a transport error, got \(String(describing: error))")
            return
        }
        #expect(code == 52)  // CURLE_GOT_NOTHING
    }

    @Test func hugeBodyIsCutOffAtTheLimit() async throws {
        let server = try HTTPStandIn { _ in .hugeBody(bytes: 50 * 1024 * 1024) }
        defer { server.stop() }
        let error = await sendError(HTTPClient(), authorized(server.baseURL + "/api/states"))
        #expect(error?.kind == .tooLarge(limit: 4 * 1024 * 1024))
    }

    /// Past the cap by a byte fails, at the cap succeeds; both with a Content-Length
    /// (refused up front) and without (aborted from the write callback).
    @Test(arguments: [(1000, true), (1001, false)], [true, false])
    func sizeCapIsExact(sizeAndFit: (Int, Bool), announced: Bool) async throws {
        let (size, fits) = sizeAndFit
        let server = try HTTPStandIn { _ in .hugeBody(bytes: size, announced: announced) }
        defer { server.stop() }
        let client = HTTPClient(configuration: .init(maxResponseBytes: 1000))
        let error = await sendError(client, HTTPRequest(url: server.baseURL))
        #expect((error == nil) == fits)
        if !fits { #expect(error?.kind == .tooLarge(limit: 1000)) }
    }

    @Test(arguments: [true, false])
    func hugeUnannouncedBodyIsCutOffToo(announced: Bool) async throws {
        let server = try HTTPStandIn { _ in .hugeBody(bytes: 50 * 1024 * 1024, announced: announced) }
        defer { server.stop() }
        let error = await sendError(HTTPClient(), HTTPRequest(url: server.baseURL))
        #expect(error?.kind == .tooLarge(limit: 4 * 1024 * 1024))
    }

    @Test func keepAliveReusesOneConnection() async throws {
        let server = try HTTPStandIn { _ in .respond(.json("{}")) }
        defer { server.stop() }
        let client = HTTPClient()
        for path in ["/a", "/b", "/c"] {
            let response = try await client.send(HTTPRequest(url: server.baseURL + path))
            #expect(response.status == 200)
        }
        _ = try await client.send(HTTPRequest(method: .post, url: server.baseURL + "/d", body: Array("x".utf8)))
        #expect(server.acceptedConnections == 1)
    }

    @Test func aClosedConnectionIsReplacedOnTheNextRequest() async throws {
        let server = try HTTPStandIn { request in
            request.path == "/close"
                ? .respond(HTTPStandIn.Response(status: 200, headers: [(name: "Connection", value: "close")]))
                : .respond(.json("{}"))
        }
        defer { server.stop() }
        let client = HTTPClient()
        _ = try await client.send(HTTPRequest(url: server.baseURL + "/close"))
        let response = try await client.send(HTTPRequest(url: server.baseURL + "/after"))
        #expect(response.status == 200)
        #expect(server.acceptedConnections == 2)
    }

    @Test func concurrentRequestsAreSerialisedOnTheOneHandle() async throws {
        let server = try HTTPStandIn { request in .respond(.text(request.path)) }
        defer { server.stop() }
        let client = HTTPClient()
        let texts = await withTaskGroup(of: String?.self) { group in
            for index in 0..<8 {
                group.addTask { try? await client.send(HTTPRequest(url: server.baseURL + "/\(index)")).text }
            }
            var texts: [String] = []
            for await text in group { if let text { texts.append(text) } }
            return texts
        }
        #expect(Set(texts) == Set((0..<8).map { "/\($0)" }))
        #expect(server.acceptedConnections == 1)
    }

    @Test func headerWithLineBreakIsRefusedBeforeSending() async throws {
        let received = ReceivedRequests()
        let server = try HTTPStandIn { request in
            received.append(request)
            return .respond(.json("{}"))
        }
        defer { server.stop() }
        let request = HTTPRequest(url: server.baseURL, headers: [(name: "Authorization", value: "Bearer x\r\nEvil: 1")])
        let error = await sendError(HTTPClient(), request)
        guard case .transport(_, let message)? = error?.kind else {
            Issue.record("expected a transport error, got \(String(describing: error))")
            return
        }
        #expect(message.contains("Authorization"))
        #expect(!message.contains("Evil"))
        #expect(received.all.isEmpty)
    }

    @Test(arguments: [
        ("http://user:pass@example.org:8123/api/config?token=abc#x", "http://example.org:8123/api/config"),
        ("http://127.0.0.1:8123/api/", "http://127.0.0.1:8123/api/"),
        ("https://ha.local/api/template?access_token=zzz", "https://ha.local/api/template"),
    ])
    func errorURLsDropUserInfoAndQuery(url: String, shown: String) {
        let error = HTTPError(.timeout, url: url)
        #expect(error.url == shown)
        #expect(error.description.contains(shown))
    }

    @Test func noErrorMentionsTheToken() async throws {
        let huge = try HTTPStandIn { _ in .hugeBody(bytes: 50 * 1024 * 1024) }
        let silent = try HTTPStandIn { _ in .neverAnswer }
        let closing = try HTTPStandIn { _ in .closeWithoutAnswer }
        defer { [huge, silent, closing].forEach { $0.stop() } }
        let port = try HTTPStandIn.unusedPort()
        let client = HTTPClient(configuration: .init(connectTimeout: 1, totalTimeout: 1))
        var errors: [HTTPError] = []
        for url in [huge.baseURL, silent.baseURL, closing.baseURL, "http://127.0.0.1:\(port)"] {
            if let error = await sendError(client, authorized(url + "/api/services")) { errors.append(error) }
        }
        if let error = await sendError(client, authorized("http://[::1")) { errors.append(error) }
        #expect(errors.count == 5)
        for error in errors {
            for text in [error.description, error.debugDescription, String(reflecting: error), "\(error.kind)"] {
                #expect(!text.contains(secretToken), "token in: \(text)")
            }
        }
    }
}

/// Requests a stand-in handler saw, readable from the test.
final class ReceivedRequests: Sendable {
    private let requests = Mutex<[HTTPStandIn.Request]>([])

    func append(_ request: HTTPStandIn.Request) {
        requests.withLock { $0.append(request) }
    }

    var all: [HTTPStandIn.Request] { requests.withLock { $0 } }
}
