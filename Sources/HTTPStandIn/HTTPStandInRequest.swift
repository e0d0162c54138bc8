extension HTTPStandIn {
    /// One request as the stand-in received it.
    public struct Request: Sendable {
        /// `GET`, `POST`, …
        public var method: String
        /// The path without the query, e.g. `/api/config`.
        public var path: String
        /// The request target as sent, query included.
        public var target: String
        /// Header fields, names lowercased.
        public var headers: [String: String]
        /// The body (by Content-Length).
        public var body: [UInt8]
        /// Which accepted connection carried it, counting from 1.
        public var connection: Int

        /// The body decoded as UTF-8 (invalid sequences replaced).
        public var bodyText: String { String(decoding: body, as: UTF8.self) }
    }
}
