/// Why a WebSocket connection could not be opened or ended. The description names the
/// `ws://` URL (user info and query removed) and never a message's content: the token
/// travels in a message and cannot leak through an error.
public struct WebSocketError: Error, Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The class of failure.
    public enum Kind: Sendable, Equatable {
        /// The TCP or TLS connection failed (refused, DNS, TLS, connect timeout, …).
        case connect(HTTPError)
        /// Nothing came within the time allowed; says what was awaited.
        case timeout(String)
        /// The upgrade was answered with something other than a valid 101.
        case upgradeRefused(String)
        /// The server sent a close frame: its status code (nil when none) and reason.
        case closedByServer(code: UInt16?, reason: String)
        /// The connection ended without a close frame (the peer's FIN or reset, a send
        /// or receive failure); says how.
        case connectionLost(String)
        /// The server broke RFC 6455; says what was expected and what came.
        case protocolViolation(String)
        /// A message from the server larger than the limit, in bytes; the client closed with 1009.
        case messageTooLarge(limit: Int)
        /// The connection was already closed on this side.
        case closed
    }

    /// The class of failure.
    public var kind: Kind
    /// The `ws://` or `wss://` URL, without user info or query.
    public var url: String

    public init(_ kind: Kind, url: String) {
        self.kind = kind
        self.url = HTTPError.redacted(url)
    }

    public var description: String {
        switch kind {
        case .connect(let error):
            return "WebSocket connection to \(url) failed: \(error.description)"
        case .timeout(let what):
            return "WebSocket \(url): no \(what) within the timeout"
        case .upgradeRefused(let detail):
            return "WebSocket upgrade at \(url) refused: \(detail)"
        case .closedByServer(let code, let reason):
            let codeText = code.map(String.init) ?? "none"
            return "WebSocket \(url) closed by the server (code \(codeText)\(reason.isEmpty ? "" : ", \(reason)"))"
        case .connectionLost(let how):
            return "WebSocket \(url) lost: \(how)"
        case .protocolViolation(let detail):
            return "WebSocket \(url) protocol violation: \(detail)"
        case .messageTooLarge(let limit):
            return "WebSocket \(url): a message larger than the limit of \(limit) bytes; closed with 1009"
        case .closed:
            return "WebSocket \(url) is already closed"
        }
    }

    public var debugDescription: String { "WebSocketError(\(description))" }
}
