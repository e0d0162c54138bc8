/// One HTTP request for ``HTTPClient``.
///
/// Headers marked sensitive (``sensitiveHeaderNames``, `Authorization` by default) are
/// sent but never appear in an error, a description or a log line.
public struct HTTPRequest: Sendable {
    /// The request method.
    public enum Method: String, Sendable {
        case get = "GET"
        case post = "POST"
        case put = "PUT"
        case delete = "DELETE"
        case patch = "PATCH"
    }

    /// The method, `GET` by default.
    public var method: Method
    /// The absolute URL, `http://` or `https://`.
    public var url: String
    /// Header fields in sending order, as (name, value).
    public var headers: [(name: String, value: String)]
    /// The request body; `nil` sends none.
    public var body: [UInt8]?

    /// Header names (compared case-insensitively) whose values are secrets.
    public static let sensitiveHeaderNames: Set<String> = ["authorization", "proxy-authorization", "cookie"]

    /// A request with the given parts.
    public init(
        method: Method = .get,
        url: String,
        headers: [(name: String, value: String)] = [],
        body: [UInt8]? = nil
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }

    /// The values of the sensitive headers, for scrubbing them out of messages.
    var secretValues: [String] {
        headers.compactMap { header in
            guard HTTPRequest.sensitiveHeaderNames.contains(header.name.lowercased()) else { return nil }
            let value = header.value.trimmingPrefixSpaces()
            // The scheme ("Bearer") isn't secret; the credential after it is.
            let credential = value.split(separator: " ", maxSplits: 1).last.map(String.init) ?? value
            return credential.isEmpty ? nil : credential
        }
    }
}

extension String {
    fileprivate func trimmingPrefixSpaces() -> String {
        String(drop { $0 == " " })
    }
}
