/// Where Home Assistant's WebSocket API is, derived from the configured base URL:
///
///     http://host:8123        → ws://host:8123/api/websocket
///     https://ha.example      → wss://ha.example/api/websocket
///     http://supervisor/core  → ws://supervisor/core/websocket   (inside the add-on)
///
/// libcurl connects to ``connectURL`` (http or https: the same TLS options and CA file
/// as the REST client); the upgrade request for ``path`` is written by hand.
public struct WebSocketEndpoint: Sendable, Equatable {
    /// What libcurl connects to: the base URL's scheme and authority, no path.
    public let connectURL: String
    /// The `ws://` or `wss://` URL, for messages and errors.
    public let url: String
    /// The `Host` header: the authority without user info.
    public let host: String
    /// The request target of the upgrade, e.g. `/api/websocket`.
    public let path: String

    /// The endpoint for HA at `baseURL`; nil when it isn't an `http://` or `https://`
    /// URL with a host.
    public init?(baseURL: String) {
        var rest = Substring(baseURL)
        let secure: Bool
        if rest.lowercased().hasPrefix("http://") {
            secure = false
            rest = rest.dropFirst("http://".count)
        } else if rest.lowercased().hasPrefix("https://") {
            secure = true
            rest = rest.dropFirst("https://".count)
        } else {
            return nil
        }
        if let cut = rest.firstIndex(where: { $0 == "?" || $0 == "#" }) {
            rest = rest[..<cut]
        }
        let authorityEnd = rest.firstIndex(of: "/") ?? rest.endIndex
        var authority = rest[..<authorityEnd]
        var basePath = String(rest[authorityEnd...])
        if let at = authority.lastIndex(of: "@") {
            authority = authority[authority.index(after: at)...]
        }
        guard !authority.isEmpty, !authority.contains(where: { $0 == " " || $0.isNewline }) else { return nil }
        while basePath.hasSuffix("/") { basePath.removeLast() }
        // The Supervisor proxies Core's API under /core, and its WebSocket at /core/websocket.
        let isSupervisorProxy = authority.lowercased() == "supervisor" && basePath == "/core"
        path = basePath + (isSupervisorProxy ? "/websocket" : "/api/websocket")
        host = String(authority)
        connectURL = (secure ? "https://" : "http://") + host
        url = (secure ? "wss://" : "ws://") + host + path
    }
}
