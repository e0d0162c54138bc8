import CycleCore
import Foundation
import Synchronization
import TestSupport
import Testing
@testable import CycleHistory
@testable import HistoryWeb
#if canImport(Glibc)
import Glibc
#endif

/// The history server under clients that send half a request and stop, a client the
/// allow list refuses (issue 22, defect 12); `serve`'s address and port are in
/// CycleCommandsTests (CommandErrorTests).
@Suite("History server limits")
struct HistoryServerLimitsTests {
    /// A connection that sent the start of a request and nothing more.
    final class HalfSent {
        let socket: Int32

        init(port: UInt16) throws {
            socket = try LoopbackSocket.connect(port: port)
            let start = Array("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: slow".utf8)
            _ = start.withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        }

        /// Waits (up to `seconds`, a generous bound) for the server to close the connection.
        func closedByServer(within seconds: Int) -> Bool {
            var timeout = timeval(tv_sec: seconds, tv_usec: 0)
            setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            var buffer = [UInt8](repeating: 0, count: 4_096)
            while true {
                let count = recv(socket, &buffer, buffer.count, 0)
                if count == 0 { return true }
                if count < 0 { return errno == ECONNRESET }
            }
        }

        deinit { close(socket) }
    }

    static func server(timeoutSeconds: Int, allow: [String] = [], refused: (@Sendable (String) -> Void)? = nil) throws -> HistoryServer {
        var settings = HistoryServer.Settings(listen: "127.0.0.1", port: 0, allow: allow)
        settings.timeoutSeconds = timeoutSeconds
        return try HistoryServer(settings, respond: { _ in HistoryResponse(status: 200, body: "<p>ok</p>") }, refused: refused)
    }

    static let get = Array("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8)

    /// 8 from the same address stay within its 16; 40 are past it (the rest are closed
    /// at once, HistoryServerClientLimitsTests), so another address asks.
    @Test("8 and 40 half-sent requests leave every other request answered",
          arguments: [(8, nil), (40, "127.0.0.2")] as [(Int, String?)])
    func halfSentRequests(count: Int, asker: String?) throws {
        // A per-connection timeout far longer than the client's wait: only the connection
        // limit decides whether the others get in while the half-sent ones hang on.
        let server = try Self.server(timeoutSeconds: 60)
        defer { server.stop() }
        let stalled = try (0..<count).map { _ in try HalfSent(port: server.port) }
        for _ in 0..<10 {
            let answer = try HistoryServerTests.exchange(port: server.port, Self.get, from: asker)
            #expect(answer.status == 200, "answered beside \(count) half-sent requests")
        }
        withExtendedLifetime(stalled) {}
    }

    @Test("A half-sent request is closed by the server after its timeout; the server goes on serving")
    func halfSentTimesOut() throws {
        let server = try Self.server(timeoutSeconds: 1)
        defer { server.stop() }
        let stalled = try HalfSent(port: server.port)
        #expect(stalled.closedByServer(within: 30), "closed by the server, well before the client's 30 s")
        #expect(try HistoryServerTests.exchange(port: server.port, Self.get).status == 200)
    }

    @Test("A client outside http.allow gets 403, told once per address")
    func refusedOnce() throws {
        let told = Mutex<[String]>([])
        let server = try Self.server(timeoutSeconds: 5, allow: ["10.9.9.9"], refused: { address in told.withLock { $0.append(address) } })
        defer { server.stop() }
        for _ in 0..<3 {
            let answer = try HistoryServerTests.exchange(port: server.port, Self.get)
            #expect(answer.status == 403 && answer.text.contains("http.allow"))
        }
        #expect(told.withLock { $0 } == ["127.0.0.1"])
    }
}
