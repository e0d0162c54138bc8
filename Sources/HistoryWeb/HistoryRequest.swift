/// One request to the history page, as the server read it: only what the pages use.
public struct HistoryRequest: Sendable, Equatable {
    /// `GET` or `HEAD`; anything else is refused before a page sees it.
    public var method: String
    /// The path as sent, percent-decoded (`/cycles`), without the query.
    public var path: String
    /// The query string's arguments, decoded; the first of a repeated name wins.
    public var query: [String: String]
    /// The `X-Ingress-Path` header Home Assistant's Supervisor adds
    /// (`/api/hassio_ingress/<token>`), when present.
    public var ingressPath: String?

    public init(method: String = "GET", path: String, query: [String: String] = [:], ingressPath: String? = nil) {
        self.method = method
        self.path = path
        self.query = query
        self.ingressPath = ingressPath
    }
}
