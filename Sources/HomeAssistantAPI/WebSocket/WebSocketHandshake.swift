import FoundationEssentials

/// The client's opening handshake (RFC 6455 §4.1): the upgrade request, and the check
/// of the server's answer: status 101, `Upgrade: websocket`, `Connection: Upgrade`,
/// and `Sec-WebSocket-Accept` = base64(SHA-1(key + GUID)). No extension and no
/// subprotocol is offered, so a server that names one is refused.
///
/// Pure: no I/O.
public struct WebSocketHandshake: Sendable {
    /// The GUID RFC 6455 appends to the key.
    static let guid = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
    /// An answer head longer than this is refused.
    public static let maxResponseHead = 16 * 1024

    /// The `Host` header value.
    public let host: String
    /// The request target.
    public let path: String
    /// `Sec-WebSocket-Key`: 16 random bytes, base64.
    public let key: String

    /// A handshake for `path` at `host` with a fresh random key (or the given one, for tests).
    public init(host: String, path: String, key: String = WebSocketHandshake.randomKey()) {
        self.host = host
        self.path = path
        self.key = key
    }

    /// 16 bytes from the system's random source, base64-encoded.
    public static func randomKey() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return Data(bytes).base64EncodedString()
    }

    /// The `Sec-WebSocket-Accept` value a server must answer for `key`.
    public static func acceptValue(for key: String) -> String {
        Data(SHA1.digest(Array((key + guid).utf8))).base64EncodedString()
    }

    /// The upgrade request, ready to send.
    public var request: [UInt8] {
        Array((
            "GET \(path) HTTP/1.1\r\n"
            + "Host: \(host)\r\n"
            + "Upgrade: websocket\r\n"
            + "Connection: Upgrade\r\n"
            + "Sec-WebSocket-Key: \(key)\r\n"
            + "Sec-WebSocket-Version: 13\r\n"
            + "User-Agent: cycletrack\r\n"
            + "\r\n"
        ).utf8)
    }

    /// The offset just past the answer's blank line (`\r\n\r\n`) in `bytes`, or nil
    /// until it has arrived. Bytes after it are already WebSocket frames.
    public static func headLength(in bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 0...(bytes.count - 4)
        where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return index + 4
        }
        return nil
    }

    /// Checks the server's answer head (status line and header fields, without the
    /// blank line); throws with what was expected and what was found.
    public func validate(responseHead: String) throws(WebSocketFrameParser.Failure) {
        var lines = responseHead.split(separator: "\r\n", omittingEmptySubsequences: true).map(String.init)
        guard !lines.isEmpty else { throw .protocolViolation("an empty answer to the upgrade: expected HTTP/1.1 101") }
        let statusLine = lines.removeFirst()
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1.") else {
            throw .protocolViolation("answer to the upgrade starts with \"\(Self.excerpt(statusLine))\": expected HTTP/1.1 101")
        }
        guard parts[1] == "101" else {
            throw .protocolViolation("upgrade answered with status \(parts[1]) (\(Self.excerpt(statusLine))): expected 101 Switching Protocols")
        }
        var fields: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            let value = String(line[line.index(after: colon)...].drop { $0 == " " || $0 == "\t" })
            fields[name] = fields[name].map { $0 + ", " + value } ?? value
        }
        guard fields["upgrade"]?.lowercased().trimmingSpaces() == "websocket" else {
            throw .protocolViolation("101 answer with Upgrade: \(fields["upgrade"] ?? "(none)"): expected websocket")
        }
        let connection = fields["connection"]?.lowercased().split(separator: ",").map { String($0).trimmingSpaces() } ?? []
        guard connection.contains("upgrade") else {
            throw .protocolViolation("101 answer with Connection: \(fields["connection"] ?? "(none)"): expected Upgrade")
        }
        let expected = Self.acceptValue(for: key)
        guard let accept = fields["sec-websocket-accept"]?.trimmingSpaces(), accept == expected else {
            throw .protocolViolation("Sec-WebSocket-Accept \(fields["sec-websocket-accept"] ?? "(none)"): expected \(expected)")
        }
        if let extensions = fields["sec-websocket-extensions"], !extensions.isEmpty {
            throw .protocolViolation("server chose extensions \(Self.excerpt(extensions)): expected none, none was offered")
        }
        if let proto = fields["sec-websocket-protocol"], !proto.isEmpty {
            throw .protocolViolation("server chose subprotocol \(Self.excerpt(proto)): expected none, none was offered")
        }
    }

    private static func excerpt(_ text: String) -> String {
        let line = String(text.prefix(80).map { $0.isNewline || $0 == "\0" ? " " : $0 })
        return text.count > 80 ? line + "…" : line
    }
}

extension String {
    fileprivate func trimmingSpaces() -> String {
        let characters = Array(self)
        guard let first = characters.firstIndex(where: { $0 != " " && $0 != "\t" }),
              let last = characters.lastIndex(where: { $0 != " " && $0 != "\t" }) else { return "" }
        return String(characters[first...last])
    }
}
