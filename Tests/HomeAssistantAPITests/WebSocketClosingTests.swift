import Dispatch
import HTTPStandIn
@testable import HomeAssistantAPI
import Testing

/// The RFC 6455 client's closing handshake and its memory, against a loopback peer:
/// a server's close frame is answered only with a code that may be sent (§7.4), and a
/// message as large as the cap gives its buffer back once it was taken.
@Suite(.timeLimit(.minutes(2)))
struct WebSocketClosingTests {
    static func standIn(_ script: @escaping @Sendable (WebSocketStandInPeer) -> Void) throws -> WebSocketStandIn {
        try WebSocketStandIn(acceptValue: WebSocketHandshake.acceptValue(for:), script: script)
    }

    static func connect(_ server: WebSocketStandIn, maxMessageBytes: Int = 1 << 20) throws -> WebSocketConnection {
        let endpoint = try #require(WebSocketEndpoint(baseURL: server.baseURL))
        return try WebSocketConnection(endpoint: endpoint, configuration: .init(connectTimeout: 5),
                                       maxMessageBytes: maxMessageBytes, handshakeTimeout: 5)
    }

    static func in5s() -> ContinuousClock.Instant { .now + .seconds(5) }
    /// Generous: 16 MiB through a debug build on a busy machine.
    static func in45s() -> ContinuousClock.Instant { .now + .seconds(45) }

    /// Sends `payload` as a close frame, and returns what the client threw and the frame it
    /// answered with (nil when it sent none within 15 s).
    static func answer(toClose payload: [UInt8]) throws -> (thrown: WebSocketError?, frame: WebSocketStandInPeer.Frame?) {
        let answer = Shared<WebSocketStandInPeer.Frame?>(nil)
        let answered = DispatchSemaphore(value: 0)
        let server = try standIn { peer in
            peer.sendFrame(opcode: 0x8, payload: payload)
            let frame = peer.receiveFrame()
            answer.withLock { $0 = frame }
            answered.signal()
        }
        defer { server.stop() }
        let connection = try connect(server)
        var thrown: WebSocketError?
        do {
            _ = try connection.receive(until: in5s())
        } catch {
            thrown = error
        }
        // The peer reads the answer on its own thread: wait for it before stopping the server.
        _ = answered.wait(timeout: .now() + 15)
        return (thrown, answer.withLock { $0 })
    }

    @Test(arguments: [
        (UInt16(1000), UInt16(1000)), (1001, 1001), (1003, 1003), (1007, 1007), (1011, 1011), (1012, 1012),
        (3000, 3000), (4999, 4999),
        (1005, 1002), (1006, 1002), (1015, 1002), (1004, 1002), (999, 1002), (0, 1002), (2999, 1002), (5000, 1002),
    ])
    func aServersCloseIsAnsweredWithACodeThatMayBeSent(_ sent: UInt16, _ answered: UInt16) throws {
        let (thrown, frame) = try Self.answer(toClose: [UInt8(sent >> 8), UInt8(sent & 0xFF)])
        #expect(thrown?.kind == .closedByServer(code: sent, reason: ""))
        #expect(frame?.opcode == 0x8)
        #expect(frame?.closeCode == answered)
        #expect(frame?.payload.count == 2)
    }

    @Test func aCloseWithoutACodeIsAnsweredWithoutOne() throws {
        let (thrown, frame) = try Self.answer(toClose: [])
        #expect(thrown?.kind == .closedByServer(code: nil, reason: ""))
        #expect(frame?.opcode == 0x8)
        #expect(frame?.payload == [])
    }

    @Test(arguments: [1, 3])
    func aMessageAsLargeAsTheCapGivesItsBufferBack(fragments: Int) throws {
        let cap = 16 * 1024 * 1024
        let server = try Self.standIn { peer in
            let text = String(repeating: "x", count: cap)
            if fragments == 1 {
                peer.sendText(text)
            } else {
                peer.sendFragmented(text, pieceBytes: cap / fragments + 1)
            }
            peer.sendText("small")
            peer.waitUntilClientLeaves()
        }
        defer { server.stop() }
        let connection = try Self.connect(server, maxMessageBytes: cap)
        defer { connection.abort() }
        let large = try connection.receive(until: Self.in45s())
        guard case .text(let text)? = large else {
            Issue.record("expected the large text message, got \(String(describing: large))")
            return
        }
        #expect(text.utf8.count == cap)
        #expect(try connection.receive(until: Self.in5s()) == .text("small"))
        #expect(connection.bufferCapacity <= WebSocketFrameParser.retainedCapacity)
    }

    @Test func theParserGivesBackWhatALargeFrameMadeItGrowBy() throws {
        var parser = WebSocketFrameParser(maxPayload: 1 << 20)
        // A binary frame of 1 MiB (64-bit length), then the text frame "hi".
        let large: [UInt8] = [0x82, 127, 0, 0, 0, 0, 0, 0x10, 0, 0] + [UInt8](repeating: 7, count: 1 << 20)
        parser.append(large + [0x81, 0x02, 0x68, 0x69])
        #expect(parser.capacity >= 1 << 20)
        #expect(try parser.next()?.payload.count == 1 << 20)
        #expect(parser.capacity <= WebSocketFrameParser.retainedCapacity)
        #expect(try parser.next() == WebSocketFrame(opcode: .text, payload: Array("hi".utf8)))
        #expect(parser.bufferedCount == 0)
    }
}
