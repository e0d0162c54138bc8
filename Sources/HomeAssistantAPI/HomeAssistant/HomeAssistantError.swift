/// Why a Home Assistant request failed. Every description is one line naming the API
/// path (and, for transport failures, the URL); none ever contains the token.
public enum HomeAssistantError: Error, Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible {
    /// No HTTP response: refused, timed out, DNS, TLS, too large, other transport failures.
    case unreachable(HTTPError)
    /// 401: the token was refused.
    case unauthorized(path: String)
    /// 403: the token's user may not do this (`/api/template` needs an administrator).
    case forbidden(path: String)
    /// 404: no such endpoint (or entity).
    case notFound(path: String)
    /// 400: HA refused the request; an excerpt of its answer (a template error, "service not found", invalid data).
    case badRequest(path: String, excerpt: String)
    /// 5xx: HA failed while handling the request.
    case server(status: Int, path: String)
    /// Any other non-2xx status.
    case unexpectedStatus(status: Int, path: String)
    /// A 2xx answer that isn't what was expected (`what` says what was expected).
    case malformedResponse(what: String, path: String)
    /// An entity id, domain or service name that can't be put into a request: `what` names it.
    case invalidIdentifier(what: String, value: String)

    public var description: String {
        switch self {
        case .unreachable(let error):
            return "Home Assistant unreachable: \(error.description)"
        case .unauthorized(let path):
            return "Home Assistant refused the token at \(path) (401): expected a valid long-lived access token"
        case .forbidden(let path):
            return "Home Assistant forbade \(path) (403): expected a token of an administrator"
        case .notFound(let path):
            return "Home Assistant has no \(path) (404): expected its REST API (the `api` integration) there"
        case .badRequest(let path, let excerpt):
            return "Home Assistant rejected the request to \(path) (400): \(excerpt)"
        case .server(let status, let path):
            return "Home Assistant failed at \(path) with status \(status): expected 2xx"
        case .unexpectedStatus(let status, let path):
            return "unexpected status \(status) from Home Assistant at \(path): expected 2xx"
        case .malformedResponse(let what, let path):
            return "unexpected answer from Home Assistant at \(path): expected \(what)"
        case .invalidIdentifier(let what, let value):
            let shown = String(value.prefix(80).map { $0.isNewline ? " " : $0 })
            return "invalid \(what) \"\(shown)\": expected lowercase letters, digits and underscores"
                + (what == "entity id" ? " as domain.object_id" : "")
        }
    }

    public var debugDescription: String { "HomeAssistantError(\(description))" }

    /// The error for a non-2xx `status` at `path`, or nil for 2xx. `body` gives the
    /// excerpt of a 400, with every occurrence of `token` blanked out.
    static func forStatus(_ status: Int, path: String, body: [UInt8], token: String) -> HomeAssistantError? {
        switch status {
        case 200..<300: return nil
        case 400: return .badRequest(path: path, excerpt: excerpt(of: body, hiding: token))
        case 401: return .unauthorized(path: path)
        case 403: return .forbidden(path: path)
        case 404: return .notFound(path: path)
        case 500..<600: return .server(status: status, path: path)
        default: return .unexpectedStatus(status: status, path: path)
        }
    }

    /// At most 200 characters of `body` on one line, without `token`.
    static func excerpt(of body: [UInt8], hiding token: String) -> String {
        var text = String(decoding: body, as: UTF8.self)
        if !token.isEmpty {
            text = text.replacing(token, with: "<redacted>")
        }
        let oneLine = String(text.map { $0.isNewline ? " " : $0 })
        if oneLine.isEmpty { return "(empty answer)" }
        return oneLine.count > 200 ? String(oneLine.prefix(200)) + "…" : oneLine
    }
}
