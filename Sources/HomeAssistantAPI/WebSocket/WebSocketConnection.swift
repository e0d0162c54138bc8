import CCurl
#if canImport(Glibc)
import Glibc
#endif

/// `curl_global_init` and SIGPIPE ignored, as ``HTTPClient`` does (its own is private;
/// libcurl ≥ 7.84 counts initialisations, so doing it twice is harmless).
private let webSocketCurlInit: UInt32 = {
    signal(SIGPIPE, SIG_IGN)
    return cct_global_init().rawValue
}()

/// One client WebSocket connection: libcurl with `CURLOPT_CONNECT_ONLY` opens the TCP
/// connection and TLS (the same verification and CA file as ``HTTPClient``), and the
/// RFC 6455 client side is written here over `curl_easy_send` / `curl_easy_recv`:
/// the upgrade, masked frames, reassembly, pong for every ping, the closing handshake,
/// the message size cap.
///
/// Blocking and not thread-safe: every call waits (bounded by a deadline) in `poll(2)`
/// on the connection's socket, so it must run on a thread of its own, never on a
/// Swift concurrency thread. ``HomeAssistantWebSocket`` owns one on a private queue.
final class WebSocketConnection {
    let endpoint: WebSocketEndpoint
    private let handle: UnsafeMutableRawPointer
    private let errorBuffer: UnsafeMutablePointer<CChar>
    private let socket: Int32
    private var parser: WebSocketFrameParser
    private var assembler: WebSocketMessageAssembler
    private var closeSent = false
    private var isClosed = false
    /// Seconds allowed for one send to complete.
    private let sendTimeout: Double

    /// Connects, performs the upgrade, and returns once the server accepted it. Waits at
    /// most `configuration.connectTimeout` for TCP and TLS, then `handshakeTimeout` for
    /// the answer to the upgrade.
    init(endpoint: WebSocketEndpoint, configuration: HTTPClient.Configuration, maxMessageBytes: Int,
         handshakeTimeout: Double) throws(WebSocketError) {
        _ = webSocketCurlInit
        // Invariant: curl_easy_init returns NULL only when malloc fails.
        guard let handle = curl_easy_init() else { fatalError("curl_easy_init returned NULL: out of memory") }
        self.endpoint = endpoint
        self.handle = handle
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
        parser = WebSocketFrameParser(maxPayload: maxMessageBytes)
        assembler = WebSocketMessageAssembler(maxMessage: maxMessageBytes)
        sendTimeout = max(handshakeTimeout, 1)
        let buffer = errorBuffer
        do {
            socket = try Self.open(handle, errorBuffer: buffer, endpoint: endpoint, configuration: configuration)
        } catch {
            curl_easy_cleanup(handle)
            buffer.deallocate()
            throw error
        }
        try upgrade(deadline: Self.deadline(after: handshakeTimeout))
    }

    deinit {
        curl_easy_cleanup(handle)
        errorBuffer.deallocate()
    }

    // MARK: Sending

    /// Sends `text` as one text frame.
    func send(text: String) throws(WebSocketError) {
        try send(WebSocketFrame(opcode: .text, payload: Array(text.utf8)))
    }

    /// Sends one frame, masked.
    func send(_ frame: WebSocketFrame) throws(WebSocketError) {
        guard !isClosed, !closeSent else { throw error(.closed) }
        if frame.opcode == .close { closeSent = true }
        try sendAll(frame.encoded(), deadline: Self.deadline(after: sendTimeout))
    }

    // MARK: Receiving

    /// The next text, binary or pong message, or nil when `deadline` passed or `wake`
    /// (a file descriptor, e.g. a pipe's read end) became readable first.
    ///
    /// A ping is answered with a pong here and not returned. A close frame is answered
    /// with a close frame, the connection ends, and this throws `.closedByServer`. An
    /// oversized message or a protocol violation closes with 1009 or 1002 and throws.
    func receive(until deadline: ContinuousClock.Instant, wake: Int32? = nil) throws(WebSocketError) -> WebSocketMessage? {
        guard !isClosed else { throw error(.closed) }
        while true {
            if let message = try nextBufferedMessage() {
                switch message {
                case .ping(let payload):
                    if !closeSent {
                        try send(WebSocketFrame(opcode: .pong, payload: payload))
                    }
                    continue
                case .close(let code, let reason):
                    // Answer the close (§5.5.1), unless ours went first, and end the connection.
                    if !closeSent {
                        let answer = WebSocketCloseCode.answer(to: code)
                        let echo = answer.map { WebSocketFrame.closePayload(code: $0, reason: "") } ?? []
                        try? send(WebSocketFrame(opcode: .close, payload: echo))
                    }
                    isClosed = true
                    throw error(.closedByServer(code: code, reason: reason))
                case .text, .binary, .pong:
                    return message
                }
            }
            var chunk = [UInt8](repeating: 0, count: 16 * 1024)
            let received = try receiveSome(into: &chunk, deadline: deadline, wake: wake)
            guard received > 0 else { return nil }
            parser.append(chunk[..<received])
        }
    }

    /// Sends a close frame with `code` (1000 unless told) if none was sent yet, waits up
    /// to `timeout` seconds for the server's, and ends the connection. Never throws: a
    /// connection that is already gone is closed all the same.
    func close(code: UInt16 = 1000, reason: String = "", timeout: Double = 1) {
        guard !isClosed else { return }
        if !closeSent {
            try? send(WebSocketFrame(opcode: .close, payload: WebSocketFrame.closePayload(code: code, reason: reason)))
        }
        let deadline = Self.deadline(after: timeout)
        while ContinuousClock.now < deadline {
            do {
                if try receive(until: deadline) == nil { break }
            } catch {
                break
            }
        }
        isClosed = true
        shutdown(socket, Int32(SHUT_RDWR))
    }

    /// Ends the connection at once, without a closing handshake: for a connection that
    /// is presumed dead (no answer to pings), where waiting would only delay.
    func abort() {
        guard !isClosed else { return }
        isClosed = true
        shutdown(socket, Int32(SHUT_RDWR))
    }

    /// The bytes the frame buffer holds room for: back to at most
    /// ``WebSocketFrameParser/retainedCapacity`` once a large message was taken.
    var bufferCapacity: Int { parser.capacity }

    // MARK: Plumbing

    private func nextBufferedMessage() throws(WebSocketError) -> WebSocketMessage? {
        do {
            while let frame = try parser.next() {
                if let message = try assembler.accept(frame) { return message }
            }
            return nil
        } catch {
            switch error {
            case .tooLarge(let limit):
                fail(closing: 1009, reason: "message too big")
                throw self.error(.messageTooLarge(limit: limit))
            case .protocolViolation(let detail):
                fail(closing: 1002, reason: "protocol error")
                throw self.error(.protocolViolation(detail))
            }
        }
    }

    /// Closes with `code` (best effort, not waiting for the answer) after a failure of the peer.
    private func fail(closing code: UInt16, reason: String) {
        if !closeSent {
            try? send(WebSocketFrame(opcode: .close, payload: WebSocketFrame.closePayload(code: code, reason: reason)))
        }
        abort()
    }

    private func upgrade(deadline: ContinuousClock.Instant) throws(WebSocketError) {
        let handshake = WebSocketHandshake(host: endpoint.host, path: endpoint.path)
        try sendAll(handshake.request, deadline: deadline)
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            if let length = WebSocketHandshake.headLength(in: received) {
                let head = String(decoding: received[..<(length - 4)], as: UTF8.self)
                do {
                    try handshake.validate(responseHead: head)
                } catch {
                    abort()
                    if case .protocolViolation(let detail) = error {
                        throw self.error(.upgradeRefused(detail))
                    }
                    throw self.error(.upgradeRefused("\(error)"))
                }
                // Frames the server sent right behind its answer.
                parser.append(received[length...])
                return
            }
            guard received.count <= WebSocketHandshake.maxResponseHead else {
                abort()
                throw error(.upgradeRefused("an answer head over \(WebSocketHandshake.maxResponseHead) bytes: expected a short 101 answer"))
            }
            let count = try receiveSome(into: &chunk, deadline: deadline, wake: nil)
            guard count > 0 else {
                abort()
                throw error(.timeout("answer to the upgrade request"))
            }
            received.append(contentsOf: chunk[..<count])
        }
    }

    /// Reads what is there into `buffer`: the byte count, or 0 when `deadline` passed
    /// or `wake` became readable. Throws when the peer closed or the read failed.
    private func receiveSome(into buffer: inout [UInt8], deadline: ContinuousClock.Instant,
                             wake: Int32?) throws(WebSocketError) -> Int {
        while true {
            var count = 0
            // libcurl first: TLS may hold decrypted bytes that poll(2) can't see.
            let code = buffer.withUnsafeMutableBytes { curl_easy_recv(handle, $0.baseAddress, $0.count, &count) }
            if code == CURLE_OK {
                guard count > 0 else {
                    isClosed = true
                    throw error(.connectionLost("the server ended the connection without a close frame"))
                }
                return count
            }
            guard code == CURLE_AGAIN else {
                isClosed = true
                throw error(.connectionLost("receive failed: \(message(for: code))"))
            }
            switch wait(for: Int16(POLLIN), deadline: deadline, wake: wake) {
            case .ready: continue
            case .timedOut, .woken: return 0
            case .failed(let how):
                isClosed = true
                throw error(.connectionLost(how))
            }
        }
    }

    private func sendAll(_ bytes: [UInt8], deadline: ContinuousClock.Instant) throws(WebSocketError) {
        var offset = 0
        while offset < bytes.count {
            var sent = 0
            let code = bytes.withUnsafeBytes { buffer in
                curl_easy_send(handle, buffer.baseAddress.map { $0 + offset }, buffer.count - offset, &sent)
            }
            if code == CURLE_OK {
                offset += sent
                continue
            }
            guard code == CURLE_AGAIN else {
                isClosed = true
                throw error(.connectionLost("send failed: \(message(for: code))"))
            }
            switch wait(for: Int16(POLLOUT), deadline: deadline, wake: nil) {
            case .ready: continue
            case .timedOut, .woken:
                isClosed = true
                throw error(.timeout("room to send in the socket's buffer"))
            case .failed(let how):
                isClosed = true
                throw error(.connectionLost(how))
            }
        }
    }

    private enum Readiness { case ready, timedOut, woken, failed(String) }

    private func wait(for events: Int16, deadline: ContinuousClock.Instant, wake: Int32?) -> Readiness {
        while true {
            let left = deadline - ContinuousClock.now
            guard left > .zero else { return .timedOut }
            // Rounded up: a deadline 0.4 ms away must not turn into a busy loop.
            let milliseconds = Int32(clamping: left.components.seconds * 1000
                + (left.components.attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000)
            var descriptors = [pollfd(fd: socket, events: events, revents: 0)]
            if let wake { descriptors.append(pollfd(fd: wake, events: Int16(POLLIN), revents: 0)) }
            let result = poll(&descriptors, nfds_t(descriptors.count), milliseconds)
            if result < 0 {
                if errno == EINTR { continue }
                return .failed("poll failed with errno \(errno)")
            }
            if result == 0 { continue }
            if descriptors.count > 1 && descriptors[1].revents != 0 { return .woken }
            let revents = descriptors[0].revents
            if revents & Int16(POLLNVAL) != 0 { return .failed("the socket is no longer valid") }
            // POLLHUP / POLLERR: let recv or send report what happened.
            return .ready
        }
    }

    private static func open(_ handle: UnsafeMutableRawPointer, errorBuffer: UnsafeMutablePointer<CChar>,
                             endpoint: WebSocketEndpoint,
                             configuration: HTTPClient.Configuration) throws(WebSocketError) -> Int32 {
        var codes: [CURLcode] = [
            cct_setopt_string(handle, CURLOPT_URL, endpoint.connectURL),
            cct_setopt_string(handle, CURLOPT_PROTOCOLS_STR, "http,https"),
            cct_setopt_long(handle, CURLOPT_CONNECT_ONLY, 1),
            cct_setopt_long(handle, CURLOPT_NOSIGNAL, 1),
            cct_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, Int((max(configuration.connectTimeout, 0.001) * 1000).rounded())),
            cct_setopt_long(handle, CURLOPT_SSL_VERIFYPEER, 1),
            cct_setopt_long(handle, CURLOPT_SSL_VERIFYHOST, 2),
            cct_setopt_long(handle, CURLOPT_TCP_KEEPALIVE, 1),
            // An empty string disables proxies, the environment's included.
            cct_setopt_string(handle, CURLOPT_PROXY, configuration.proxy ?? ""),
            cct_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer),
        ]
        if configuration.proxy != nil {
            // Through a proxy only as a CONNECT tunnel: the upgrade must reach HA itself.
            codes.append(cct_setopt_long(handle, CURLOPT_HTTPPROXYTUNNEL, 1))
        }
        if let caFile = configuration.caFile {
            codes.append(cct_setopt_string(handle, CURLOPT_CAINFO, caFile))
        }
        var code = codes.first { $0 != CURLE_OK } ?? CURLE_OK
        if code == CURLE_OK {
            code = curl_easy_perform(handle)
        }
        guard code == CURLE_OK else {
            throw WebSocketError(.connect(classify(code, handle: handle, errorBuffer: errorBuffer, url: endpoint.connectURL)),
                                 url: endpoint.url)
        }
        var socket = curl_socket_t(-1)
        guard cct_getinfo_socket(handle, CURLINFO_ACTIVESOCKET, &socket) == CURLE_OK, socket >= 0 else {
            throw WebSocketError(.connectionLost("libcurl reported no active socket after connecting"), url: endpoint.url)
        }
        return socket
    }

    /// The same classes as ``HTTPClient`` gives a failed transfer.
    private static func classify(_ code: CURLcode, handle: UnsafeMutableRawPointer,
                                 errorBuffer: UnsafeMutablePointer<CChar>, url: String) -> HTTPError {
        var osErrno = 0
        _ = cct_getinfo_long(handle, CURLINFO_OS_ERRNO, &osErrno)
        return HTTPError(curlCode: code, detail: HTTPError.curlMessage(code, errorBuffer: errorBuffer), osErrno: osErrno, url: url)
    }

    private func message(for code: CURLcode) -> String {
        HTTPError.curlMessage(code, errorBuffer: errorBuffer)
    }

    private func error(_ kind: WebSocketError.Kind) -> WebSocketError {
        WebSocketError(kind, url: endpoint.url)
    }

    private static func deadline(after seconds: Double) -> ContinuousClock.Instant {
        ContinuousClock.now + .milliseconds(Int((max(seconds, 0) * 1000).rounded()))
    }
}
