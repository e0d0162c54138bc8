import CCurl
import Dispatch
#if canImport(Glibc)
import Glibc
#endif

/// `curl_global_init`, once per process, before the first easy handle. A global
/// `let` is initialised exactly once, thread-safely, on first use.
///
/// It also ignores SIGPIPE for the process: with `CURLOPT_NOSIGNAL` (required with
/// threads) libcurl no longer does that itself, and a TLS write to a connection the
/// server just closed would otherwise kill the service.
private let curlGlobalInitCode: UInt32 = {
    signal(SIGPIPE, SIG_IGN)
    return cct_global_init().rawValue
}()

/// An HTTP/1.1 client over libcurl with one reused connection (keep-alive).
///
/// Sendable by design: every libcurl call on `handle` happens on `queue`, a private
/// serial queue, so requests from any task are performed one at a time, in the order
/// they arrive, and never touch the handle concurrently. `handle` and `errorBuffer`
/// are `nonisolated(unsafe)` only because the compiler can't see that invariant.
///
/// Options on every request: connect and total timeouts, TLS peer and host
/// verification on (optionally against a given CA file), no redirects, only http and
/// https, no proxy unless configured (the environment's proxy variables are ignored),
/// `CURLOPT_NOSIGNAL`, and a cap on the response body. A task cancelled while its
/// request is in flight still waits for it, at most the total timeout.
public final class HTTPClient: Sendable {
    /// The limits this client was made with.
    public let configuration: Configuration
    private let queue = DispatchQueue(label: "cycletrack.http")
    nonisolated(unsafe) private let handle: UnsafeMutableRawPointer
    nonisolated(unsafe) private let errorBuffer: UnsafeMutablePointer<CChar>

    /// A client with its own libcurl handle and connection.
    public init(configuration: Configuration = Configuration()) {
        _ = curlGlobalInitCode
        // Invariant: curl_easy_init returns NULL only when malloc fails.
        guard let handle = curl_easy_init() else {
            fatalError("curl_easy_init returned NULL: out of memory")
        }
        self.configuration = configuration
        self.handle = handle
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
    }

    deinit {
        // Every block on `queue` retains `self`, so no transfer can be running here.
        curl_easy_cleanup(handle)
        errorBuffer.deallocate()
    }

    /// Performs `request` and returns the server's answer, whatever its status.
    ///
    /// The blocking transfer runs on the client's queue; the calling task is suspended
    /// meanwhile. Throws an ``HTTPError`` when no complete response arrived.
    public func send(_ request: HTTPRequest) async throws(HTTPError) -> HTTPResponse {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<HTTPResponse, HTTPError>, Never>) in
            queue.async {
                continuation.resume(returning: self.perform(request))
            }
        }
        return try result.get()
    }

    /// One blocking exchange. Runs on `queue` only.
    private func perform(_ request: HTTPRequest) -> Result<HTTPResponse, HTTPError> {
        dispatchPrecondition(condition: .onQueue(queue))
        // Resets options only: live connections and the DNS cache stay on the handle.
        curl_easy_reset(handle)
        errorBuffer[0] = 0

        var headerList: UnsafeMutablePointer<curl_slist>?
        defer { curl_slist_free_all(headerList) }
        for header in request.headers + [(name: "Expect", value: "")] {
            if header.name.contains(where: \.isNewline) || header.value.contains(where: \.isNewline) {
                return .failure(HTTPError(
                    .transport(code: Int(CURLE_BAD_FUNCTION_ARGUMENT.rawValue),
                               message: "header \(header.name.filter { !$0.isNewline }) contains a line break"),
                    url: request.url))
            }
            // "Expect:" with nothing after it turns off libcurl's `Expect: 100-continue`.
            let line = header.value.isEmpty ? "\(header.name):" : "\(header.name): \(header.value)"
            guard let appended = curl_slist_append(headerList, line) else {
                return .failure(HTTPError(.transport(code: Int(CURLE_OUT_OF_MEMORY.rawValue),
                                                     message: "out of memory building the headers"),
                                          url: request.url))
            }
            headerList = appended
        }

        let transfer = CurlTransfer(limit: configuration.maxResponseBytes)
        var setupCode = configure(request, headers: headerList)
        transfer.install(on: handle)
        if setupCode == CURLE_OK {
            setupCode = withExtendedLifetime(transfer) { curl_easy_perform(handle) }
        }
        if setupCode != CURLE_OK {
            return .failure(classify(setupCode, transfer: transfer, request: request))
        }

        var status = 0
        _ = cct_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
        var totalSeconds = 0.0
        _ = cct_getinfo_double(handle, CURLINFO_TOTAL_TIME, &totalSeconds)
        return .success(HTTPResponse(status: status, headers: transfer.headers, body: transfer.body,
                                     totalSeconds: totalSeconds))
    }

    /// Sets every option for `request` on the freshly reset handle; the first failing code.
    private func configure(_ request: HTTPRequest, headers: UnsafeMutablePointer<curl_slist>?) -> CURLcode {
        var codes: [CURLcode] = [
            cct_setopt_string(handle, CURLOPT_URL, request.url),
            cct_setopt_string(handle, CURLOPT_PROTOCOLS_STR, "http,https"),
            cct_setopt_long(handle, CURLOPT_NOSIGNAL, 1),
            cct_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, milliseconds(configuration.connectTimeout)),
            cct_setopt_long(handle, CURLOPT_TIMEOUT_MS, milliseconds(configuration.totalTimeout)),
            cct_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 0),
            cct_setopt_long(handle, CURLOPT_SSL_VERIFYPEER, 1),
            cct_setopt_long(handle, CURLOPT_SSL_VERIFYHOST, 2),
            cct_setopt_long(handle, CURLOPT_TCP_KEEPALIVE, 1),
            // An empty string disables proxies, the environment's included.
            cct_setopt_string(handle, CURLOPT_PROXY, configuration.proxy ?? ""),
            // Refuses early when the server announces a larger Content-Length;
            // the write callback enforces the cap for chunked or unannounced bodies.
            cct_setopt_off_t(handle, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(configuration.maxResponseBytes)),
            cct_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer),
            cct_setopt_string(handle, CURLOPT_USERAGENT, "cycletrack"),
            cct_setopt_slist(handle, CURLOPT_HTTPHEADER, headers),
        ]
        if let caFile = configuration.caFile {
            codes.append(cct_setopt_string(handle, CURLOPT_CAINFO, caFile))
        }
        switch (request.method, request.body) {
        case (.get, nil):
            codes.append(cct_setopt_long(handle, CURLOPT_HTTPGET, 1))
        case (let method, let body):
            let bytes = body ?? []
            codes.append(cct_setopt_long(handle, CURLOPT_POST, 1))
            // The size first: CURLOPT_COPYPOSTFIELDS copies exactly that many bytes.
            codes.append(cct_setopt_off_t(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(bytes.count)))
            if bytes.isEmpty {
                codes.append(cct_setopt_string(handle, CURLOPT_COPYPOSTFIELDS, ""))
            } else {
                codes.append(bytes.withUnsafeBytes { buffer in
                    cct_setopt_pointer(handle, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: buffer.baseAddress))
                })
            }
            if method != .post {
                codes.append(cct_setopt_string(handle, CURLOPT_CUSTOMREQUEST, method.rawValue))
            }
        }
        return codes.first { $0 != CURLE_OK } ?? CURLE_OK
    }

    /// Maps a failed transfer to an ``HTTPError``.
    private func classify(_ code: CURLcode, transfer: CurlTransfer, request: HTTPRequest) -> HTTPError {
        switch code {
        case CURLE_FILESIZE_EXCEEDED:
            return HTTPError(.tooLarge(limit: transfer.limit), url: request.url)
        case CURLE_WRITE_ERROR where transfer.exceededLimit:
            return HTTPError(.tooLarge(limit: transfer.limit), url: request.url)
        default:
            return HTTPError(curlCode: code, detail: message(for: code, request: request), osErrno: Int(osErrno()),
                             url: request.url)
        }
    }

    /// libcurl's detailed message for the last failure, else its generic one, with
    /// every secret header value of `request` blanked out.
    private func message(for code: CURLcode, request: HTTPRequest) -> String {
        var text = HTTPError.curlMessage(code, errorBuffer: errorBuffer)
        for secret in request.secretValues {
            text = text.replacing(secret, with: "<redacted>")
        }
        return text
    }

    private func osErrno() -> Int32 {
        var value = 0
        _ = cct_getinfo_long(handle, CURLINFO_OS_ERRNO, &value)
        return Int32(truncatingIfNeeded: value)
    }

    private func milliseconds(_ seconds: Double) -> Int {
        Int((max(seconds, 0.001) * 1000).rounded())
    }
}
