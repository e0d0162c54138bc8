import CCurl
#if canImport(Glibc)
import Glibc
#endif

extension HTTPError {
    /// The class of a libcurl failure, for HTTP transfers and WebSocket connections
    /// alike: timeouts, DNS, a refused connection, TLS, or the code and its message.
    /// - Parameters:
    ///   - detail: libcurl's message (its error buffer, else `curl_easy_strerror`),
    ///     already free of secrets.
    ///   - osErrno: `CURLINFO_OS_ERRNO`, which tells a refused connection apart.
    init(curlCode code: CURLcode, detail: String, osErrno: Int, url: String) {
        let kind: Kind
        switch code {
        case CURLE_OPERATION_TIMEDOUT:
            kind = .timeout
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
            kind = .dns
        case CURLE_COULDNT_CONNECT where osErrno == Int(ECONNREFUSED):
            kind = .refused
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM,
             CURLE_SSL_CIPHER, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ENGINE_NOTFOUND,
             CURLE_SSL_ENGINE_SETFAILED, CURLE_SSL_ENGINE_INITFAILED, CURLE_SSL_SHUTDOWN_FAILED,
             CURLE_SSL_CRL_BADFILE, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH,
             CURLE_SSL_INVALIDCERTSTATUS, CURLE_SSL_CLIENTCERT:
            kind = .tls(detail)
        default:
            kind = .transport(code: Int(code.rawValue), message: detail)
        }
        self.init(kind, url: url)
    }

    /// libcurl's message for `code`: the handle's error buffer when it says something,
    /// else the generic text; on one line.
    static func curlMessage(_ code: CURLcode, errorBuffer: UnsafeMutablePointer<CChar>) -> String {
        var text = String(cString: errorBuffer)
        if text.isEmpty {
            text = curl_easy_strerror(code).map { String(cString: $0) } ?? "CURLcode \(code.rawValue)"
        }
        return text.filter { !$0.isNewline }
    }
}
