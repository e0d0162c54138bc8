@testable import HomeAssistantAPI
import Testing

/// The pure parts of the WebSocket client: SHA-1, the handshake, frames in and out,
/// reassembly, and the ws URL. RFC 6455's own examples where it has them.
@Suite struct WebSocketFramingTests {
    private func hex(_ bytes: [UInt8]) -> String {
        bytes.map { $0 < 16 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }

    @Test(arguments: [
        ("", "da39a3ee5e6b4b0d3255bfef95601890afd80709"),
        ("abc", "a9993e364706816aba3e25717850c26c9cd0d89d"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "84983e441c3bd26ebaae4aa1f95129e5e54670f1"),
        (String(repeating: "a", count: 1000), "291e9a6c66994949b57ba5e650361e98fc36b1ba"),
    ])
    func sha1(_ message: String, _ digest: String) {
        #expect(hex(SHA1.digest(Array(message.utf8))) == digest)
    }

    /// RFC 6455 §1.3's example (often misquoted as s3pPLMBiTxaQ9kYGzTAmN1LRC1k=).
    @Test func acceptValueIsRFC6455sExample() {
        #expect(WebSocketHandshake.acceptValue(for: "dGhlIHNhbXBsZSBub25jZQ==") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    }

    @Test func upgradeRequestHasEveryRequiredField() {
        let handshake = WebSocketHandshake(host: "127.0.0.1:8123", path: "/api/websocket", key: "dGhlIHNhbXBsZSBub25jZQ==")
        let request = String(decoding: handshake.request, as: UTF8.self)
        #expect(request.hasPrefix("GET /api/websocket HTTP/1.1\r\n"))
        for line in ["Host: 127.0.0.1:8123", "Upgrade: websocket", "Connection: Upgrade",
                     "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==", "Sec-WebSocket-Version: 13"] {
            #expect(request.contains("\r\n\(line)\r\n"))
        }
        #expect(request.hasSuffix("\r\n\r\n"))
        #expect(WebSocketHandshake.randomKey().count == 24)
        #expect(WebSocketHandshake.randomKey() != WebSocketHandshake.randomKey())
    }

    @Test func aValidAnswerIsAccepted() throws {
        let handshake = WebSocketHandshake(host: "h", path: "/", key: "dGhlIHNhbXBsZSBub25jZQ==")
        try handshake.validate(responseHead: "HTTP/1.1 101 Switching Protocols\r\nUpgrade: WebSocket\r\n"
            + "Connection: keep-alive, Upgrade\r\nSec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    }

    @Test(arguments: [
        ("HTTP/1.1 404 Not Found\r\nContent-Length: 0", "status 404"),
        ("SSH-2.0-OpenSSH", "expected HTTP/1.1 101"),
        ("HTTP/1.1 101 OK\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=", "Upgrade: (none)"),
        ("HTTP/1.1 101 OK\r\nUpgrade: websocket\r\nSec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=", "Connection: (none)"),
        ("HTTP/1.1 101 OK\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: AAAA", "expected s3pPLMBiTxaQ9kYGzzhZRbK+xOo="),
        ("HTTP/1.1 101 OK\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n"
            + "Sec-WebSocket-Extensions: permessage-deflate", "extensions"),
    ])
    func aBadAnswerIsRefusedSayingWhy(_ head: String, _ saying: String) {
        let handshake = WebSocketHandshake(host: "h", path: "/", key: "dGhlIHNhbXBsZSBub25jZQ==")
        #expect {
            try handshake.validate(responseHead: head)
        } throws: { error in
            guard case WebSocketFrameParser.Failure.protocolViolation(let detail) = error else { return false }
            return detail.contains(saying)
        }
    }

    @Test func headLengthFindsTheBlankLine() {
        #expect(WebSocketHandshake.headLength(in: Array("HTTP/1.1 101 x\r\n\r\n\u{81}".utf8)) == 18)
        #expect(WebSocketHandshake.headLength(in: Array("HTTP/1.1 101 x\r\n".utf8)) == nil)
    }

    // MARK: Frames out

    @Test func maskedHelloIsRFC6455sExample() {
        let frame = WebSocketFrame(opcode: .text, payload: Array("Hello".utf8))
        #expect(frame.encoded(maskingKey: (0x37, 0xFA, 0x21, 0x3D))
            == [0x81, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58])
    }

    @Test(arguments: [(0, 2), (125, 2), (126, 4), (65535, 4), (65536, 10)])
    func lengthEncodings(_ count: Int, _ headerBytes: Int) throws {
        let payload = (0..<count).map { UInt8(truncatingIfNeeded: $0) }
        let bytes = WebSocketFrame(opcode: .binary, payload: payload).encoded()
        #expect(bytes.count == headerBytes + 4 + count)
        #expect(bytes[1] & 0x80 != 0)
        // A server reads the frame back by unmasking it.
        let key = Array(bytes[headerBytes..<(headerBytes + 4)])
        let unmasked = bytes[(headerBytes + 4)...].enumerated().map { $0.element ^ key[$0.offset & 3] }
        #expect(unmasked == payload)
    }

    @Test func closePayloadKeepsWithin125Bytes() {
        #expect(WebSocketFrame.closePayload(code: 1000, reason: "bye") == [0x03, 0xE8] + Array("bye".utf8))
        let long = WebSocketFrame.closePayload(code: 1001, reason: String(repeating: "é", count: 100))
        #expect(long.count <= 125)
        #expect(String(validating: long[2...], as: UTF8.self) != nil)
    }

    // MARK: Frames in

    private func messages(_ bytes: [UInt8], maxPayload: Int = 1 << 20, chunk: Int = Int.max) throws -> [WebSocketMessage] {
        var parser = WebSocketFrameParser(maxPayload: maxPayload)
        var assembler = WebSocketMessageAssembler(maxMessage: maxPayload)
        var out: [WebSocketMessage] = []
        var offset = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + chunk)
            parser.append(bytes[offset..<end])
            offset = end
            while let frame = try parser.next() {
                if let message = try assembler.accept(frame) { out.append(message) }
            }
        }
        return out
    }

    @Test func unmaskedHelloAndRFCsFragmentedHello() throws {
        #expect(try messages([0x81, 0x05, 0x48, 0x65, 0x6C, 0x6C, 0x6F]) == [.text("Hello")])
        #expect(try messages([0x01, 0x03, 0x48, 0x65, 0x6C, 0x80, 0x02, 0x6C, 0x6F]) == [.text("Hello")])
    }

    @Test(arguments: [1, 2, 3, 7, 1000])
    func fragmentsWithAPingBetweenArrivingInAnyChunks(_ chunk: Int) throws {
        let bytes: [UInt8] = [0x01, 0x03] + Array("Hel".utf8) + [0x89, 0x02, 0x68, 0x69]
            + [0x00, 0x01] + Array("l".utf8) + [0x80, 0x01] + Array("o".utf8)
            + [0x88, 0x05, 0x03, 0xE8] + Array("bye".utf8)
        #expect(try messages(bytes, chunk: chunk) == [.ping(Array("hi".utf8)), .text("Hello"), .close(code: 1000, reason: "bye")])
    }

    @Test func sixteenAndSixtyFourBitLengthsAreRead() throws {
        let medium = [UInt8](repeating: 0x61, count: 300)
        let large = [UInt8](repeating: 0x62, count: 70_000)
        var bytes: [UInt8] = [0x81, 126, 0x01, 0x2C] + medium
        bytes += [0x82, 127, 0, 0, 0, 0, 0, 0x01, 0x11, 0x70] + large
        #expect(try messages(bytes) == [.text(String(repeating: "a", count: 300)), .binary(large)])
    }

    @Test(arguments: [
        ([0x81, 0x85, 1, 2, 3, 4, 0, 0, 0, 0, 0], "masked frame from the server"),
        ([0xC1, 0x00], "reserved bits"),
        ([0x83, 0x00], "unknown opcode 0x03"),
        ([0x89, 0x7E, 0x00, 0x7E] + [UInt8](repeating: 0, count: 126), "ping frame of 126 bytes"),
        ([0x09, 0x00], "fragmented ping"),
        ([0x80, 0x01, 0x61], "continuation frame with no message begun"),
        ([0x01, 0x01, 0x61, 0x81, 0x01, 0x62], "inside a fragmented message"),
        ([0x81, 0x02, 0xC3, 0x28], "not valid UTF-8"),
        ([0x88, 0x01, 0x03], "1-byte payload"),
        ([0x82, 127, 0x80, 0, 0, 0, 0, 0, 0, 0], "top bit"),
    ] as [([UInt8], String)])
    func violationsAreRefusedSayingWhat(_ bytes: [UInt8], _ saying: String) {
        #expect {
            _ = try messages(bytes)
        } throws: { error in
            guard case WebSocketFrameParser.Failure.protocolViolation(let detail) = error else { return false }
            return detail.contains(saying)
        }
    }

    @Test func anOversizedFrameIsRefusedFromItsHeader() {
        // Only the header arrives: the 1 MiB payload is refused before it is read.
        #expect(throws: WebSocketFrameParser.Failure.tooLarge(limit: 1000)) {
            _ = try messages([0x82, 127, 0, 0, 0, 0, 0, 0x10, 0, 0], maxPayload: 1000)
        }
    }

    @Test func anOversizedFragmentedMessageIsRefused() {
        let piece = [UInt8](repeating: 0x61, count: 600)
        let bytes: [UInt8] = [0x01, 126, 0x02, 0x58] + piece + [0x80, 126, 0x02, 0x58] + piece
        #expect(throws: WebSocketFrameParser.Failure.tooLarge(limit: 1000)) {
            _ = try messages(bytes, maxPayload: 1000)
        }
    }

    // MARK: The URL

    @Test(arguments: [
        ("http://homeassistant.local:8123", "http://homeassistant.local:8123", "ws://homeassistant.local:8123/api/websocket", "homeassistant.local:8123", "/api/websocket"),
        ("https://ha.example/", "https://ha.example", "wss://ha.example/api/websocket", "ha.example", "/api/websocket"),
        ("http://supervisor/core", "http://supervisor", "ws://supervisor/core/websocket", "supervisor", "/core/websocket"),
        ("http://127.0.0.1:8123/ha/", "http://127.0.0.1:8123", "ws://127.0.0.1:8123/ha/api/websocket", "127.0.0.1:8123", "/ha/api/websocket"),
        ("HTTP://user:pw@[::1]:8123", "http://[::1]:8123", "ws://[::1]:8123/api/websocket", "[::1]:8123", "/api/websocket"),
    ])
    func endpointFromTheBaseURL(_ base: String, _ connect: String, _ url: String, _ host: String, _ path: String) throws {
        let endpoint = try #require(WebSocketEndpoint(baseURL: base))
        #expect(endpoint.connectURL == connect)
        #expect(endpoint.url == url)
        #expect(endpoint.host == host)
        #expect(endpoint.path == path)
    }

    @Test(arguments: ["ws://host:8123", "host:8123", "http://", "ftp://x"])
    func noEndpointForOtherURLs(_ base: String) {
        #expect(WebSocketEndpoint(baseURL: base) == nil)
    }
}

