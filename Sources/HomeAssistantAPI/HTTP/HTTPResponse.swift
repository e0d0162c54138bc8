/// What a server answered. Any status, 1xx aside, is a response, not an error: the
/// caller decides what a 401 or a 500 means.
public struct HTTPResponse: Sendable {
    /// The final HTTP status code.
    public var status: Int
    /// Header fields of the final response, names lowercased; repeated fields joined with ", ".
    public var headers: [String: String]
    /// The response body, at most the client's ``HTTPClient/Configuration/maxResponseBytes``.
    public var body: [UInt8]
    /// Seconds from the start of the request to the end of the transfer, as libcurl measured it.
    public var totalSeconds: Double

    /// A response with the given parts.
    public init(status: Int, headers: [String: String] = [:], body: [UInt8] = [], totalSeconds: Double = 0) {
        self.status = status
        self.headers = headers
        self.body = body
        self.totalSeconds = totalSeconds
    }

    /// The body decoded as UTF-8, or `nil` when it isn't valid UTF-8.
    public var text: String? {
        String(validating: body, as: UTF8.self)
    }
}
