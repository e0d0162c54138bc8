import Foundation
import Synchronization
import TestSupport
import Testing
@testable import HistoryWeb
#if canImport(Glibc)
import Glibc
#endif

/// A stream whose source has ended is ended cleanly before the server stops (issue 31,
/// item 10): its client reads the chunked body's last chunk, not a cut connection, which
/// aiohttp in Home Assistant reported as an error.
@Suite("History server: streams end cleanly")
struct HistoryServerStreamEndTests {
    /// A chunk, then nothing until `end()`, then the end.
    final class Source: ResponseStream {
        private let state = Mutex((sentFirst: false, ended: false))
        private let told = DispatchSemaphore(value: 0)

        func end() {
            state.withLock { $0.ended = true }
            told.signal()
        }

        func next(waitingAtMost seconds: Double) -> StreamChunk {
            let (first, ended) = state.withLock { state in
                defer { state.sentFirst = true }
                return (!state.sentFirst, state.ended)
            }
            if first { return .bytes(Array("event: snapshot\ndata: {}\n\n".utf8)) }
            if ended { return .end }
            // As EventStream waits for its next event: here, for `end()`.
            if told.wait(timeout: .now() + seconds) == .success {
                told.signal()
                return .end
            }
            return .idle
        }

        func finished() {}
    }

    /// Everything the client reads until the server closes the connection.
    static func readAll(_ socket: Int32) -> String {
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var response: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4_096)
        while true {
            let count = recv(socket, &buffer, buffer.count, 0)
            if count <= 0 { break }
            response += buffer[0..<count]
        }
        return String(decoding: response, as: UTF8.self)
    }

    /// A server streaming `source`, and a client whose stream began.
    static func streaming(_ source: Source) throws -> (HistoryServer, Int32) {
        let server = try HistoryServer(.init(listen: "127.0.0.1", port: 0), respond: { _ in
            HistoryResponse(status: 200, contentType: "text/event-stream", body: "", stream: source)
        })
        let socket = try LoopbackSocket.connect(port: server.port)
        let request = Array("GET /api/v1/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)
        _ = request.withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var first = [UInt8](repeating: 0, count: 4_096)
        #expect(recv(socket, &first, first.count, 0) > 0, "the stream began")
        return (server, socket)
    }

    @Test("An ended stream's client reads the last chunk; one still open is cut", arguments: [true, false])
    func streamEndsBeforeTheServerStops(ended: Bool) throws {
        let source = Source()
        let (server, socket) = try Self.streaming(source)
        defer { close(socket) }
        #expect(server.openStreams == 1)
        if ended { source.end() }
        server.stop(lettingStreamsEndWithin: ended ? 30 : 0.2)
        let rest = Self.readAll(socket)
        #expect(rest.hasSuffix("0\r\n\r\n") == ended, "the rest: \(rest.debugDescription)")
        #expect(server.openStreams == 0)
    }

    /// Whether a new connection to 127.0.0.1:`port` is refused (ECONNREFUSED).
    static func refuses(_ port: UInt16) -> Bool {
        do {
            close(try LoopbackSocket.connect(port: port))
            return false
        } catch {
            return "\(error)".contains("errno \(ECONNREFUSED)")
        }
    }

    @Test("While the streams end, a client connecting is refused at once, not given a stream that would be cut")
    func aStoppingServerRefusesNewClients() throws {
        let source = Source()
        let (server, socket) = try Self.streaming(source)
        defer { close(socket) }
        #expect(!Self.refuses(server.port), "a running server accepts")

        // The first step of stop(lettingStreamsEndWithin:), before it waits for the streams.
        server.refuseNewConnections()
        #expect(Self.refuses(server.port), "refused while the open stream goes on")
        #expect(server.openStreams == 1)
        source.end()
        server.stop(lettingStreamsEndWithin: 30)
        #expect(Self.readAll(socket).hasSuffix("0\r\n\r\n"), "the open stream still ended cleanly")
    }
}
