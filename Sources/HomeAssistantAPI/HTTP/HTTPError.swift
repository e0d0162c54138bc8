/// Why an HTTP exchange produced no response. HTTP status codes are not errors here.
///
/// The description names the URL (user info and query removed) and never a header
/// value: the token cannot leak through an error.
public struct HTTPError: Error, Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The class of failure.
    public enum Kind: Sendable, Equatable {
        /// Nothing listens at the address (connection refused).
        case refused
        /// The connect timeout or the total timeout passed.
        case timeout
        /// The host name did not resolve.
        case dns
        /// TLS failed: handshake, certificate verification, CA file.
        case tls(String)
        /// The response body exceeded the client's size cap, in bytes.
        case tooLarge(limit: Int)
        /// Any other libcurl failure: its `CURLcode` and message.
        case transport(code: Int, message: String)
    }

    /// The class of failure.
    public var kind: Kind
    /// The URL the request went to, without user info or query.
    public var url: String

    /// An error for `url`, which is redacted here (user info and query dropped).
    public init(_ kind: Kind, url: String) {
        self.kind = kind
        self.url = HTTPError.redacted(url)
    }

    public var description: String {
        switch kind {
        case .refused:
            return "connection refused by \(url): expected a server listening there"
        case .timeout:
            return "no answer from \(url) within the timeout"
        case .dns:
            return "could not resolve the host of \(url)"
        case .tls(let message):
            return "TLS failed for \(url): \(message)"
        case .tooLarge(let limit):
            return "response from \(url) larger than the limit of \(limit) bytes"
        case .transport(let code, let message):
            return "transfer to \(url) failed (curl \(code)): \(message)"
        }
    }

    public var debugDescription: String { "HTTPError(\(description))" }

    /// `url` with any `user:password@` and any `?query` / `#fragment` removed.
    static func redacted(_ url: String) -> String {
        var rest = Substring(url)
        var scheme = Substring("")
        if let range = rest.firstRange(of: "://") {
            scheme = rest[..<range.upperBound]
            rest = rest[range.upperBound...]
        }
        if let cut = rest.firstIndex(where: { $0 == "?" || $0 == "#" }) {
            rest = rest[..<cut]
        }
        let authorityEnd = rest.firstIndex(of: "/") ?? rest.endIndex
        if let at = rest[..<authorityEnd].lastIndex(of: "@") {
            rest = rest[rest.index(after: at)...]
        }
        return String(scheme + rest)
    }
}
