/// One request to the server, as it read it: only what the pages and the API use.
public struct HistoryRequest: Sendable, Equatable {
    /// `GET`, `HEAD`, `PATCH`, `POST`...; the page refuses all but `GET` and `HEAD`.
    public var method: String
    /// The path as sent, percent-decoded (`/cycles`), without the query.
    public var path: String
    /// The query string's arguments, decoded; the first of a repeated name wins.
    public var query: [String: String]
    /// The `X-Ingress-Path` header Home Assistant's Supervisor adds
    /// (`/api/hassio_ingress/<token>`), when present.
    public var ingressPath: String?
    /// The `Authorization` header, when present (never logged).
    public var authorization: String?
    /// The body of a `PATCH`, `POST` or `PUT` (at most `Settings.bodyLimit` bytes); empty otherwise.
    public var body: [UInt8]
    /// The client's address (`127.0.0.1`, `::1`), for logs; empty when unknown.
    public var client: String

    public init(method: String = "GET", path: String, query: [String: String] = [:], ingressPath: String? = nil,
                authorization: String? = nil, body: [UInt8] = [], client: String = "") {
        self.method = method
        self.path = path
        self.query = query
        self.ingressPath = ingressPath
        self.authorization = authorization
        self.body = body
        self.client = client
    }
}
