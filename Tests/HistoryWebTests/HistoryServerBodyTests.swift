import Foundation
import FoundationEssentials
import Testing
@testable import HistoryWeb
@testable import HomeAssistantAPI

/// The server's side of the local API: bodies gathered and bounded, and the allow list
/// checked per request once some paths are open to every client.
@Suite struct HistoryServerBodyTests {
    static func echo(_ request: HistoryRequest) -> HistoryResponse {
        HistoryResponse(status: 200, contentType: "text/plain", body: "\(request.method) \(request.path) \(request.body.count) \(request.client)")
    }

    @Test func aBodyIsGatheredUpToTheLimit() async throws {
        var settings = HistoryServer.Settings(listen: "127.0.0.1", port: 0)
        settings.bodyLimit = 1000
        let server = try HistoryServer(settings, respond: Self.echo)
        defer { server.stop() }
        let url = "http://127.0.0.1:\(server.port)/api/v1/x"
        let small = try await HTTPClient().send(HTTPRequest(method: .patch, url: url, body: Array(repeating: 65, count: 1000)))
        #expect(small.status == 200 && small.text == "PATCH /api/v1/x 1000 127.0.0.1")
        let large = try await HTTPClient().send(HTTPRequest(method: .post, url: url, body: Array(repeating: 65, count: 1001)))
        #expect(large.status == 413 && large.text?.contains("larger than 1000 bytes") == true)
        let empty = try await HTTPClient().send(HTTPRequest(method: .post, url: url, body: []))
        #expect(empty.status == 200 && empty.text == "POST /api/v1/x 0 127.0.0.1")
    }

    @Test func openPathsTakeEveryClientWhileThePageKeepsItsAllowList() async throws {
        var settings = HistoryServer.Settings(listen: "127.0.0.1", port: 0, allow: ["10.9.9.9"])
        settings.openPrefixes = ["/api/"]
        let server = try HistoryServer(settings, respond: Self.echo)
        defer { server.stop() }
        let base = "http://127.0.0.1:\(server.port)"
        #expect(try await HTTPClient().send(HTTPRequest(url: base + "/api/v1/service")).status == 200)
        let page = try await HTTPClient().send(HTTPRequest(url: base + "/"))
        #expect(page.status == 403 && page.text?.contains("http.allow") == true)
    }
}
