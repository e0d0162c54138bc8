/// What the server sends back: a status, a content type and a body, plus the headers
/// every page carries (no caching, no scripts, nothing loaded from elsewhere).
public struct HistoryResponse: Sendable, Equatable {
    public var status: Int
    public var contentType: String
    public var body: String
    /// Extra headers, e.g. `Allow` on a 405.
    public var headers: [(name: String, value: String)]
    /// A long-lived body sent as it comes (chunked), instead of `body`: the Server-Sent Events.
    public var stream: (any ResponseStream)?

    public init(status: Int, contentType: String = "text/html; charset=utf-8", body: String,
                headers: [(name: String, value: String)] = [], stream: (any ResponseStream)? = nil) {
        self.stream = stream
        self.status = status
        self.contentType = contentType
        self.body = body
        self.headers = headers
    }

    /// The headers sent with every response. The policy allows inline styles (the page
    /// has no stylesheet file) and `data:` images, nothing else: no script, no font,
    /// no request to another origin.
    public static let standardHeaders: [(name: String, value: String)] = [
        ("Content-Security-Policy",
         "default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'self'; base-uri 'self'; frame-ancestors 'self'"),
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "no-referrer"),
        ("Cache-Control", "no-store"),
    ]

    /// The answer to a client outside `http.allow`.
    static let forbidden = HistoryResponse(
        status: 403, contentType: "text/plain; charset=utf-8",
        body: "403 Forbidden: this address is not in the history page's http.allow list\n",
        headers: [("Connection", "close")])

    public static func == (lhs: HistoryResponse, rhs: HistoryResponse) -> Bool {
        lhs.status == rhs.status && lhs.contentType == rhs.contentType && lhs.body == rhs.body
            && lhs.headers.map(\.name) == rhs.headers.map(\.name) && lhs.headers.map(\.value) == rhs.headers.map(\.value)
    }
}
