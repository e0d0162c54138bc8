import Foundation
import TestSupport
import Testing
@testable import HistoryWeb
#if canImport(Glibc)
import Glibc
#endif

/// One client can't lock the others out (issue 31, items 12): a limit of connections
/// per client address, and a deadline for the whole request that a client trickling a
/// header line every few seconds can't stretch.
@Suite("History server: per-client limits")
struct HistoryServerClientLimitsTests {
    typealias HalfSent = HistoryServerLimitsTests.HalfSent

    static func server(connections: Int, perClient: Int, deadline: Int = 10) throws -> HistoryServer {
        var settings = HistoryServer.Settings(listen: "127.0.0.1", port: 0)
        settings.connectionLimit = connections
        settings.connectionsPerClient = perClient
        settings.requestDeadlineSeconds = deadline
        // An idle timeout far beyond every wait here: only the limits under test decide.
        settings.timeoutSeconds = 120
        return try HistoryServer(settings, respond: { _ in HistoryResponse(status: 200, body: "<p>ok</p>") })
    }

    @Test("A client holding every connection the server takes leaves another address served")
    func oneClientCannotTakeEverySlot() throws {
        let server = try Self.server(connections: 8, perClient: 4)
        defer { server.stop() }
        // As many half-sent requests from 127.0.0.1 as the server takes in all: before the
        // per-client limit they held every slot, and 127.0.0.2 waited in the backlog.
        let held = try (0..<8).map { _ in try HalfSent(port: server.port) }
        let beyond = held.dropFirst(4)
        #expect(beyond.allSatisfy { $0.closedByServer(within: 30) }, "the connections past the client's 4 are closed at once")
        for _ in 0..<3 {
            #expect(try HistoryServerTests.exchange(port: server.port, HistoryServerLimitsTests.get, from: "127.0.0.2").status == 200)
        }
        withExtendedLifetime(held) {}
    }

    @Test("A request trickling a header line at a time is closed at its deadline, not kept alive by each line")
    func tricklingRequestMeetsItsDeadline() throws {
        let server = try Self.server(connections: 8, perClient: 8, deadline: 2)
        defer { server.stop() }
        let socket = try LoopbackSocket.connect(port: server.port)
        defer { close(socket) }
        let start = ContinuousClock.now
        var lines = 0
        // A header line, then up to 200 ms waiting for the server to close; over and over,
        // for at most 30 s (the idle timeout of 120 s would never close it).
        var closed = false
        while !closed && ContinuousClock.now - start < .seconds(30) {
            let line = Array(((lines == 0 ? "GET / HTTP/1.1\r\n" : "") + "X-Line-\(lines): x\r\n").utf8)
            _ = line.withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            lines += 1
            closed = Self.serverClosed(socket, waitingMilliseconds: 200)
        }
        #expect(closed, "closed by the server before the client's 30 s")
        #expect(ContinuousClock.now - start >= .seconds(2), "not before its deadline of 2 s")
        #expect(lines > 5, "the client kept sending all along (\(lines) lines)")
        #expect(try HistoryServerTests.exchange(port: server.port, HistoryServerLimitsTests.get).status == 200)
    }

    @Test("A deadline is counted from the connection's start and ends with the answer")
    func deadlinesByTheClock() throws {
        var pair: [Int32] = [0, 0]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0)
        defer { close(pair[0]); close(pair[1]) }
        let deadlines = RequestDeadlines(seconds: 10)
        let start = ContinuousClock.now
        deadlines.awaitRequest(on: 1, socket: pair[0], since: start)
        deadlines.awaitRequest(on: 2, socket: -1, since: start)  // no socket: nothing to watch
        deadlines.awaitRequest(on: 3, socket: pair[0], since: start)
        deadlines.answered(3)
        #expect(deadlines.count == 1)
        #expect(deadlines.closeOverdue(at: start + .seconds(9)) == 0)
        #expect(deadlines.closeOverdue(at: start + .seconds(10)) == 1)
        #expect(deadlines.count == 0)
        var byte: UInt8 = 0
        #expect(recv(pair[1], &byte, 1, 0) == 0, "the socket was shut down: its peer reads the end")
        deadlines.awaitRequest(on: 4, socket: pair[0], since: start)
        deadlines.closed(4)
        #expect(deadlines.closeOverdue(at: start + .seconds(60)) == 0, "a closed connection is never touched")
    }

    /// Whether the server closed `socket` within `waitingMilliseconds`.
    static func serverClosed(_ socket: Int32, waitingMilliseconds: Int32) -> Bool {
        var watched = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        guard poll(&watched, 1, waitingMilliseconds) > 0 else { return false }
        var buffer = [UInt8](repeating: 0, count: 4_096)
        let count = recv(socket, &buffer, buffer.count, Int32(MSG_DONTWAIT))
        return count == 0 || (count < 0 && errno == ECONNRESET)
    }
}
