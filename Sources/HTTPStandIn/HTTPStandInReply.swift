extension HTTPStandIn {
    /// A complete HTTP response.
    public struct Response: Sendable {
        public var status: Int
        /// Extra header fields; Content-Length is added by the server.
        public var headers: [(name: String, value: String)]
        public var body: [UInt8]

        public init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
            self.status = status
            self.headers = headers
            self.body = body
        }

        /// A response with a JSON body.
        public static func json(_ text: String, status: Int = 200) -> Response {
            Response(status: status, headers: [(name: "Content-Type", value: "application/json")], body: Array(text.utf8))
        }

        /// A response with a plain-text body.
        public static func text(_ text: String, status: Int = 200) -> Response {
            Response(status: status, headers: [(name: "Content-Type", value: "text/plain; charset=utf-8")],
                     body: Array(text.utf8))
        }
    }

    /// What the handler wants done with a request: an answer, or a fault.
    public enum Reply: Sendable {
        /// Answer normally; the connection stays open unless the client asked otherwise.
        case respond(Response)
        /// Close the connection at once, without a byte of answer.
        case closeWithoutAnswer
        /// Keep the connection open and never answer, until the client leaves or the server stops.
        case neverAnswer
        /// Wait `seconds` (cut short by `stop()`), then answer.
        case slow(Response, seconds: Double)
        /// A 200 JSON answer of `bytes` bytes, streamed in chunks, never held in memory at once.
        /// Unannounced, it has no Content-Length and ends by closing the connection.
        case hugeBody(bytes: Int, announced: Bool = true)
        /// A 200 answer labelled `application/json` whose body is not valid JSON.
        case malformedJSON
        /// Accept a WebSocket upgrade: `101 Switching Protocols` with this
        /// `Sec-WebSocket-Accept`, then `serve` talks frames on the connection's thread;
        /// the connection closes when it returns.
        case webSocket(accept: String, serve: @Sendable (WebSocketStandInPeer) -> Void)
    }
}
