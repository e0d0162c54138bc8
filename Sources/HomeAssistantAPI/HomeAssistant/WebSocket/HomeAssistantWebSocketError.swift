/// Why a connection to Home Assistant's WebSocket API could not be made or ended.
/// Every description is one line naming the `ws://` URL (without user info or query)
/// and never contains the token.
public enum HomeAssistantWebSocketError: Error, Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The base URL gives no WebSocket URL: expected `http://` or `https://` with a host.
    case invalidBaseURL(String)
    /// An entity id to subscribe to that isn't `domain.object_id`.
    case invalidEntityID(String)
    /// The transport or the framing failed: connect, upgrade, close, lost, violation, size.
    case connection(WebSocketError)
    /// HA refused the token (`auth_invalid`), with its message.
    case authInvalid(url: String, message: String)
    /// A step of the protocol got no answer within the timeout; says which.
    case timeout(url: String, waitingFor: String)
    /// HA did not answer a ping within `seconds`: the connection is presumed dead
    /// (cut without a close frame, or HA hung).
    case noPong(url: String, seconds: Double)
    /// HA answered a command with an error: the command, HA's error code and message.
    case commandFailed(url: String, command: String, code: String, message: String)
    /// HA sent a message that isn't what the protocol says: what was expected, an excerpt of what came.
    case unexpectedMessage(url: String, expected: String, found: String)
    /// The task that was connecting was cancelled (or ``HomeAssistantWebSocket/close()``
    /// came first).
    case cancelled(url: String)

    public var description: String {
        switch self {
        case .invalidBaseURL(let url):
            return "no WebSocket URL for Home Assistant at \(HTTPError.redacted(url)): expected an http:// or https:// URL with a host"
        case .invalidEntityID(let id):
            let shown = String(id.prefix(80).map { $0.isNewline ? " " : $0 })
            return "invalid entity id \"\(shown)\": expected domain.object_id of lowercase letters, digits and underscores"
        case .connection(let error):
            return "Home Assistant WebSocket: \(error.description)"
        case .authInvalid(let url, let message):
            return "Home Assistant refused the token at \(url) (auth_invalid: \(message)): expected a valid long-lived access token"
        case .timeout(let url, let what):
            return "Home Assistant WebSocket \(url): no \(what) within the timeout"
        case .noPong(let url, let seconds):
            return "Home Assistant WebSocket \(url): no pong within \(Self.seconds(seconds)) s of a ping; connection presumed dead"
        case .commandFailed(let url, let command, let code, let message):
            return "Home Assistant WebSocket \(url): \(command) failed (\(code): \(message)): expected success"
        case .unexpectedMessage(let url, let expected, let found):
            return "unexpected message from Home Assistant WebSocket \(url): expected \(expected), found \(found)"
        case .cancelled(let url):
            return "Home Assistant WebSocket \(url): connecting was cancelled"
        }
    }

    public var debugDescription: String { "HomeAssistantWebSocketError(\(description))" }

    /// HA closed the connection as it does when it stops (`homeassistant_stop` ends every
    /// WebSocket connection with a normal close, 1000; 1001 is "going away"): it is
    /// restarting, most likely, rather than refusing this client.
    public var saysStopping: Bool {
        guard case .connection(let error) = self, case .closedByServer(let code, _) = error.kind else { return false }
        return code == 1000 || code == 1001
    }

    private static func seconds(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
