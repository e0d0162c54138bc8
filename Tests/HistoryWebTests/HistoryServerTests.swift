import Foundation
@testable import HistoryWeb
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The history page over real HTTP: libmicrohttpd on 127.0.0.1, a port the kernel
/// picks, and a raw socket client that sends exactly the bytes a test gives.
@Suite("History server")
struct HistoryServerTests {
    let fixture: HistoryFixture
    let server: HistoryServer

    init() throws {
        fixture = try HistoryFixture()
        let site = HistorySite(databasePath: fixture.path, timeZone: HistoryFixture.timeZone)
        server = try HistoryServer(.init(listen: "127.0.0.1", port: 0), respond: { site.respond(to: $0) })
    }

    /// Sends `request` (on its own thread, so a server that answers early is read) and
    /// returns the status code and the whole response as text.
    static func exchange(port: UInt16, _ request: [UInt8], from source: String? = nil) throws -> (status: Int, text: String) {
        let socket = try LoopbackSocket.connect(port: port, from: source)
        defer { close(socket) }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let sent = DispatchSemaphore(value: 0)
        let sender = Thread {
            defer { sent.signal() }
            var offset = 0
            request.withUnsafeBytes { bytes in
                while offset < bytes.count {
                    let sent = send(socket, bytes.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
                    if sent <= 0 { return }
                    offset += sent
                }
            }
        }
        sender.start()
        var response: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = recv(socket, &buffer, buffer.count, 0)
            if count <= 0 { break }
            response += buffer[0..<count]
        }
        // The sender must be done with the descriptor before it is closed and reused.
        shutdown(socket, Int32(SHUT_RDWR))
        sent.wait()
        let text = String(decoding: response, as: UTF8.self)
        let status = text.split(separator: " ", maxSplits: 2).dropFirst().first.flatMap { Int($0) } ?? 0
        return (status, text)
    }

    func get(_ target: String, headers: [String] = []) throws -> (status: Int, text: String) {
        let lines = ["GET \(target) HTTP/1.1", "Host: 127.0.0.1", "Connection: close"] + headers
        return try Self.exchange(port: server.port, Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8))
    }

    @Test("Every page answers 200 over HTTP, with the security headers")
    func pages() throws {
        #expect(server.port > 0)
        for target in ["/", "/cycles", "/cycles?appliance=washer&since=&until=&program=&outcome=", "/cycle?id=1", "/programs"] {
            let response = try get(target)
            #expect(response.status == 200, "\(target)")
            #expect(response.text.contains("Content-Security-Policy: default-src 'none'"))
            #expect(response.text.contains("Content-Type: text/html; charset=utf-8"))
        }
        let washer = try get("/cycles?appliance=washer")
        #expect(HistoryPageTests.count("class=\"cycle-row\"", in: washer.text) == 1)
    }

    @Test("Under an ingress prefix every link, form and asset is relative and resolves")
    func ingressLinks() throws {
        let prefix = "/api/hassio_ingress/abc"
        var visited: Set<String> = []
        var queue = ["/", "/cycles", "/cycle?id=1", "/programs"]
        while let target = queue.popLast() {
            guard visited.insert(target).inserted else { continue }
            let response = try get(target, headers: ["X-Ingress-Path: \(prefix)"])
            #expect(response.status == 200, "\(target)")
            // The cycle list's CSV is a download, not a page.
            if response.text.contains("Content-Type: text/csv") { continue }
            #expect(response.text.contains("<base href=\"\(prefix)/\">"))
            let references = response.text.matches(of: /(?:href|src|action)="([^"]*)"/).map { String($0.output.1) }
            #expect(!references.isEmpty)
            // The `<base>` is the header's prefix itself; everything else must be relative.
            for reference in references where !reference.hasPrefix("data:") && reference != prefix + "/" {
                #expect(!reference.hasPrefix("/") && !reference.contains("://"), "\(reference) on \(target) is not relative")
                // Resolved against the base, as a browser would; the Supervisor strips the prefix.
                let resolved = try #require(URL(string: reference.replacing("&amp;", with: "&"),
                                                relativeTo: URL(string: "http://ha.local\(prefix)/")))
                #expect(resolved.path.hasPrefix(prefix), "\(reference) leaves the prefix")
                let inner = String(resolved.path.dropFirst(prefix.count))
                let next = (inner.isEmpty ? "/" : inner) + (resolved.query.map { "?" + $0 } ?? "")
                if visited.count < 40 { queue.append(next) }
            }
        }
        #expect(visited.count >= 6)
    }

    @Test("Bad requests get a 4xx and nothing else", arguments: [
        ("GET /cycle?id=999 HTTP/1.1", 404), ("GET /cycle?id=-1 HTTP/1.1", 400),
        ("GET /cycle?id=99999999999999999999999999 HTTP/1.1", 400), ("GET /cycles?limit=-1 HTTP/1.1", 400),
        ("GET /../../etc/passwd HTTP/1.1", 400), ("GET /%2e%2e/%2e%2e/etc/passwd HTTP/1.1", 400),
        ("GET /cycles/../cycle HTTP/1.1", 400), ("GET /missing HTTP/1.1", 404), ("POST / HTTP/1.1", 405),
        ("DELETE /cycles HTTP/1.1", 405),
    ])
    func badRequests(line: String, status: Int) throws {
        let request = line + "\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Length: 0\r\n\r\n"
        let response = try Self.exchange(port: server.port, Array(request.utf8))
        #expect(response.status == status)
        #expect(!response.text.contains("class=\"cycle-row") && !response.text.contains("class=\"push-marker"))
    }

    @Test("A 10 MB header is refused with 431, and the server goes on serving")
    func hugeHeader() throws {
        var request = Array("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: ".utf8)
        request += [UInt8](repeating: UInt8(ascii: "a"), count: 10 * 1024 * 1024)
        request += Array("\r\n\r\n".utf8)
        let response = try Self.exchange(port: server.port, request)
        #expect((400..<500).contains(response.status))
        #expect(response.status == 431)
        #expect(try get("/").status == 200)
    }

    @Test("A client outside the allow list is answered 403; a listed one is served")
    func allowList() throws {
        let site = HistorySite(databasePath: fixture.path)
        let refusing = try HistoryServer(.init(listen: "127.0.0.1", port: 0, allow: ["172.30.32.2"]), respond: { site.respond(to: $0) })
        let refused = try Self.exchange(port: refusing.port, Array("GET / HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        #expect(refused.status == 403 && !refused.text.contains("cycle-row"), "told it is refused, and nothing else")
        let allowing = try HistoryServer(.init(listen: "127.0.0.1", port: 0, allow: ["127.0.0.1"]), respond: { site.respond(to: $0) })
        #expect(try Self.exchange(port: allowing.port, Array("GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8)).status == 200)
        refusing.stop()
        allowing.stop()
    }

    @Test("A port in use and a bad address are errors that say so")
    func startFailures() throws {
        let respond: @Sendable (HistoryRequest) -> HistoryResponse = { _ in HistoryResponse(status: 200, body: "") }
        #expect(throws: HistoryServerError.self) { try HistoryServer(.init(listen: "127.0.0.1", port: server.port), respond: respond) }
        #expect(throws: HistoryServerError.self) { try HistoryServer(.init(listen: "localhost", port: 0), respond: respond) }
    }
}
