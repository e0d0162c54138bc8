import CMicroHTTPD
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The HTTP server `run` and `serve` start: GNU libmicrohttpd, one thread per
/// connection, answering each request with `respond` on that connection's thread: the
/// history page and, in `run`, the local API (docs/API.md).
///
/// One thread per connection (MHD_USE_THREAD_PER_CONNECTION) rather than one polling
/// thread with suspend and resume: an event stream's thread may simply wait for the next
/// event, a page or an API call never waits behind a stream or another request, and the
/// connection limit bounds the threads. The price, a thread (mostly idle) per connection,
/// is small at 16 connections.
///
/// Faces a network, so it is bounded: a limited number of connections at once and per
/// client address (one client can't take every slot; more from it are closed at once),
/// a small memory pool per connection (a request whose headers don't fit gets
/// libmicrohttpd's 431), a short idle timeout (a client that sends half a request and
/// stops is dropped after it; a stream watches its client itself), a deadline for the
/// whole request (a client trickling a header line every few seconds is dropped too:
/// `RequestDeadlines`), bodies of at most `bodyLimit` bytes (413 beyond), and clients
/// outside `allow` answered 403 (except under `openPrefixes`), each such address told to
/// `refused` once.
public final class HistoryServer: Sendable {
    /// Where and how it listens.
    public struct Settings: Sendable {
        /// An IPv4 or IPv6 address literal: `127.0.0.1` (the default), `0.0.0.0`, `::`.
        public var listen: String
        /// 1...65535; 0 lets the kernel pick a free port (tests), read back in `port`.
        public var port: UInt16
        /// The client addresses allowed; empty allows every client.
        public var allow: [String]
        /// Connections served at once; libmicrohttpd accepts one more and closes it at once
        /// (docs/API.md). Idle and half-sent connections count, so the limit is well above
        /// what a page needs.
        public var connectionLimit = 128
        /// Connections one client address may hold at once; more from it are closed as
        /// they come. The page, the API and the integration's stream need a few.
        public var connectionsPerClient = 16
        /// Seconds a request may take to arrive whole (request line, headers, body),
        /// counted from the connection's start or its previous answer.
        public var requestDeadlineSeconds = 10
        /// Bytes per connection for the request line, headers and buffers.
        public var connectionMemory = 32 * 1024
        /// Seconds a connection may stay idle before it is closed: longer than an event
        /// stream's quiet spells (a keepalive every 15 s). An event stream is set to have
        /// none (it watches its client itself), but libmicrohttpd 1.0 (Debian 13) applies
        /// this one to it anyway; at 5 s it cut every stream at its first keepalive. A
        /// half-sent request is closed by `requestDeadlineSeconds` well before.
        public var timeoutSeconds = 30
        /// The largest request body taken (`PATCH`, `POST`); a larger one gets 413.
        public var bodyLimit = 16 * 1024
        /// Path prefixes any client may reach despite `allow` (the local API, `/api/`,
        /// which checks its own key).
        public var openPrefixes: [String] = []

        public init(listen: String = "127.0.0.1", port: UInt16, allow: [String] = []) {
            self.listen = listen
            self.port = port
            self.allow = allow
        }
    }

    /// What the request handler and the accept policy see, handed to libmicrohttpd as
    /// its context pointer and kept alive until the daemon has stopped.
    final class Context: Sendable {
        let allow: ClientAllowList
        let bodyLimit: Int
        let openPrefixes: [String]
        let respond: @Sendable (HistoryRequest) -> HistoryResponse
        let served: (@Sendable (HistoryRequest, Int) -> Void)?
        let refused: (@Sendable (String) -> Void)?
        /// The refused addresses already told to `refused`.
        let told = Mutex<Set<String>>([])
        let deadlines: RequestDeadlines
        /// Streams being sent (their feeds not yet freed).
        let streams = OpenStreams()

        init(allow: ClientAllowList, settings: Settings,
             respond: @escaping @Sendable (HistoryRequest) -> HistoryResponse,
             served: (@Sendable (HistoryRequest, Int) -> Void)?, refused: (@Sendable (String) -> Void)?) {
            self.allow = allow
            self.bodyLimit = settings.bodyLimit
            self.openPrefixes = settings.openPrefixes
            self.deadlines = RequestDeadlines(seconds: settings.requestDeadlineSeconds)
            self.respond = respond
            self.served = served
            self.refused = refused
        }

        /// Whether the connection's client may be answered; a refused address is told
        /// to `refused` the first time only.
        func admits(_ connection: OpaquePointer) -> Bool {
            guard !allow.allowsEveryone else { return true }
            guard let address = cct_mhd_client_address(connection) else { return false }
            let length = socklen_t(address.pointee.sa_family == sa_family_t(AF_INET6) ? MemoryLayout<sockaddr_in6>.size : MemoryLayout<sockaddr_in>.size)
            guard !allow.allows(address, length: length) else { return true }
            let text = ClientAllowList.text(of: address)
            if told.withLock({ $0.insert(text).inserted }) { refused?(text) }
            return false
        }
    }

    /// The port it listens on (the kernel's choice when `Settings.port` was 0).
    public let port: UInt16
    /// The address it listens on, as configured.
    public let listen: String
    /// The running daemon's address (0 once stopped): an integer, because the pointer
    /// itself isn't `Sendable`; only `stop()` uses it, once. And its listening socket
    /// once a stop has taken it from libmicrohttpd (-1 until then), closed after the daemon.
    private let running: Mutex<(daemon: Int, listener: Int32)>
    private let context: Context
    /// Closes the requests past their deadline, a few times a second, until `stop()`.
    private let sweeper: DeadlineSweeper

    /// Starts listening and serving at once.
    /// - Parameters:
    ///   - respond: writes the response to a request; called on the server's thread.
    ///   - served: told of each request answered and its status (for a log line).
    ///   - refused: told of each client address outside `allow`, once per address.
    public init(_ settings: Settings, respond: @escaping @Sendable (HistoryRequest) -> HistoryResponse,
                served: (@Sendable (HistoryRequest, Int) -> Void)? = nil,
                refused: (@Sendable (String) -> Void)? = nil) throws(HistoryServerError) {
        let allow = try ClientAllowList(settings.allow)
        let context = Context(allow: allow, settings: settings, respond: respond, served: served, refused: refused)
        // ITC: a stop can take the listening socket away (MHD_quiesce_daemon).
        var flags = MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_THREAD_PER_CONNECTION.rawValue
            | MHD_USE_AUTO.rawValue | MHD_USE_ITC.rawValue
        let address: UnsafeMutableRawPointer
        let family: Int32
        var v4 = in_addr()
        var v6 = in6_addr()
        if inet_pton(AF_INET, settings.listen, &v4) == 1 {
            var socketAddress = sockaddr_in()
            socketAddress.sin_family = sa_family_t(AF_INET)
            socketAddress.sin_port = settings.port.bigEndian
            socketAddress.sin_addr = v4
            address = UnsafeMutableRawPointer.allocate(byteCount: MemoryLayout<sockaddr_in>.size, alignment: MemoryLayout<sockaddr_in>.alignment)
            address.storeBytes(of: socketAddress, as: sockaddr_in.self)
            family = AF_INET
        } else if inet_pton(AF_INET6, settings.listen, &v6) == 1 {
            var socketAddress = sockaddr_in6()
            socketAddress.sin6_family = sa_family_t(AF_INET6)
            socketAddress.sin6_port = settings.port.bigEndian
            socketAddress.sin6_addr = v6
            address = UnsafeMutableRawPointer.allocate(byteCount: MemoryLayout<sockaddr_in6>.size, alignment: MemoryLayout<sockaddr_in6>.alignment)
            address.storeBytes(of: socketAddress, as: sockaddr_in6.self)
            family = AF_INET6
            flags |= MHD_USE_IPv6.rawValue
        } else {
            throw HistoryServerError("http.listen expects an IP address like 127.0.0.1, 0.0.0.0 or ::, got '\(settings.listen)'")
        }
        defer { address.deallocate() }
        let pointer = Unmanaged.passUnretained(context).toOpaque()
        var options: [MHD_OptionItem] = [
            MHD_OptionItem(option: .CONNECTION_LIMIT, value: settings.connectionLimit, ptr_value: nil),
            MHD_OptionItem(option: .PER_IP_CONNECTION_LIMIT, value: settings.connectionsPerClient, ptr_value: nil),
            MHD_OptionItem(option: .CONNECTION_MEMORY_LIMIT, value: settings.connectionMemory, ptr_value: nil),
            MHD_OptionItem(option: .CONNECTION_TIMEOUT, value: settings.timeoutSeconds, ptr_value: nil),
            MHD_OptionItem(option: .SOCK_ADDR, value: 0, ptr_value: address),
            MHD_OptionItem(option: .NOTIFY_COMPLETED, value: unsafeBitCast(Self.requestCompleted, to: Int.self), ptr_value: pointer),
            MHD_OptionItem(option: .NOTIFY_CONNECTION, value: unsafeBitCast(Self.connectionChanged, to: Int.self), ptr_value: pointer),
            MHD_OptionItem(option: .END, value: 0, ptr_value: nil),
        ]
        errno = 0
        guard let started = options.withUnsafeMutableBufferPointer({ items in
            cct_mhd_start(flags, settings.port, Self.acceptPolicy, pointer, Self.handleRequest, pointer, items.baseAddress)
        }) else {
            let reason = errno != 0 ? String(cString: strerror(errno)) : "libmicrohttpd refused to start"
            throw HistoryServerError("cannot listen on \(family == AF_INET6 ? "[\(settings.listen)]" : settings.listen):\(settings.port) (\(reason))")
        }
        self.context = context
        self.listen = settings.listen
        self.port = cct_mhd_bound_port(started)
        self.running = Mutex((daemon: Int(bitPattern: started), listener: -1))
        self.sweeper = DeadlineSweeper(context.deadlines)
    }

    /// How many streamed responses are being sent.
    public var openStreams: Int { context.streams.count.withLock { $0 } }

    /// Stops once the streams have ended, waiting at most `seconds` for them: a stream's
    /// source that has ended (``ResponseStream`` answering `.end`) gets its last chunk
    /// sent, so its client reads a clean end rather than a cut connection. A client
    /// connecting meanwhile is refused at once, as by a service that has exited: it is
    /// not given a new stream only to have it cut.
    public func stop(lettingStreamsEndWithin seconds: Double) {
        refuseNewConnections()
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while openStreams > 0 && ContinuousClock.now < deadline {
            usleep(10_000)
        }
        stop()
    }

    /// Stops listening, closes the connections and waits for the server's thread; a
    /// request being answered is finished first. A second call does nothing.
    public func stop() {
        let (daemon, listener) = running.withLock { running in
            defer { running = (daemon: 0, listener: -1) }
            return running
        }
        sweeper.stop()
        if let pointer = OpaquePointer(bitPattern: daemon) { MHD_stop_daemon(pointer) }
        // libmicrohttpd's threads may use a quiesced socket until the daemon has stopped.
        if listener >= 0 { close(listener) }
        withExtendedLifetime(context) {}
    }

    /// Takes the listening socket from libmicrohttpd and shuts it down, which on Linux
    /// takes it out of listening: a client connecting from now on is refused, while the
    /// connections already accepted go on.
    func refuseNewConnections() {
        running.withLock { running in
            guard running.listener < 0, let pointer = OpaquePointer(bitPattern: running.daemon) else { return }
            let listener = MHD_quiesce_daemon(pointer)
            guard listener >= 0 else { return }
            RequestDeadlines.shutDown(listener)
            running.listener = listener
        }
    }

    deinit { stop() }

    // MARK: libmicrohttpd callbacks

    /// Every IPv4 or IPv6 client is accepted: one outside `allow` is answered 403 (an empty
    /// reply told it nothing, and nothing was logged).
    private static let acceptPolicy: MHD_AcceptPolicyCallback = { _, address, _ in
        guard let family = address?.pointee.sa_family else { return .NO }
        return Int32(family) == AF_INET || Int32(family) == AF_INET6 ? .YES : .NO
    }

    private static let handleRequest: MHD_AccessHandlerCallback = { pointer, connection, url, method, _, uploadData, uploadSize, state in
        guard let pointer, let connection, let state else { return .NO }
        let context = Unmanaged<Context>.fromOpaque(pointer).takeUnretainedValue()
        let verb = method.map { String(cString: $0) } ?? ""
        // GET and HEAD are answered at once; a body is gathered over the calls that follow.
        if ["GET", "HEAD", "OPTIONS", "DELETE"].contains(verb) || uploadSize == nil {
            return answer(read(connection, verb, url, body: []), connection: connection, context: context)
        }
        guard let opened = state.pointee else {
            if let length = MHD_lookup_connection_value(connection, .HEADER_KIND, "Content-Length"),
               let bytes = Int(String(cString: length)), bytes > context.bodyLimit {
                return answer(read(connection, verb, url, body: []), connection: connection, context: context,
                              instead: tooLarge(context.bodyLimit))
            }
            state.pointee = Unmanaged.passRetained(RequestBody()).toOpaque()
            return .YES
        }
        let gathered = Unmanaged<RequestBody>.fromOpaque(opened).takeUnretainedValue()
        if let uploadSize, uploadSize.pointee > 0 {
            if let uploadData, gathered.bytes.count + uploadSize.pointee <= context.bodyLimit {
                gathered.bytes += UnsafeRawBufferPointer(start: uploadData, count: uploadSize.pointee)
            } else {
                gathered.tooLarge = true
            }
            uploadSize.pointee = 0
            return .YES
        }
        state.pointee = nil
        Unmanaged<RequestBody>.fromOpaque(opened).release()
        let request = read(connection, verb, url, body: gathered.bytes)
        return answer(request, connection: connection, context: context, instead: gathered.tooLarge ? tooLarge(context.bodyLimit) : nil)
    }

    /// A body gathered across the access handler's calls, owned by libmicrohttpd's per-request pointer.
    final class RequestBody {
        var bytes: [UInt8] = []
        var tooLarge = false
    }

    /// A request ended: the connection's next request has its deadline from now; the body
    /// of a request that ended before it was answered (the client went away) is freed.
    private static let requestCompleted: MHD_RequestCompletedCallback = { pointer, connection, state, _ in
        if let pointer, let connection {
            let context = Unmanaged<Context>.fromOpaque(pointer).takeUnretainedValue()
            context.deadlines.awaitRequest(on: Int(bitPattern: connection), socket: cct_mhd_connection_fd(connection), since: .now)
        }
        guard let state, let opened = state.pointee else { return }
        state.pointee = nil
        Unmanaged<RequestBody>.fromOpaque(opened).release()
    }

    /// A connection opened (its first request's deadline starts) or closed.
    private static let connectionChanged: MHD_NotifyConnectionCallback = { pointer, connection, _, change in
        guard let pointer, let connection else { return }
        let context = Unmanaged<Context>.fromOpaque(pointer).takeUnretainedValue()
        if change == .CONNECTION_NOTIFY_STARTED {
            context.deadlines.awaitRequest(on: Int(bitPattern: connection), socket: cct_mhd_connection_fd(connection), since: .now)
        } else {
            context.deadlines.closed(Int(bitPattern: connection))
        }
    }

    private static func tooLarge(_ limit: Int) -> HistoryResponse {
        HistoryResponse(status: 413, contentType: "application/json",
                        body: #"{"error":"too_large","message":"the request body is larger than \#(limit) bytes"}"#)
    }

    private static func read(_ connection: OpaquePointer, _ method: String, _ url: UnsafePointer<CChar>?, body: [UInt8]) -> HistoryRequest {
        var arguments: [String: String] = [:]
        withUnsafeMutablePointer(to: &arguments) { arguments in
            _ = MHD_get_connection_values(connection, .GET_ARGUMENT_KIND, { pointer, _, key, value in
                guard let pointer, let key else { return .YES }
                let arguments = pointer.assumingMemoryBound(to: [String: String].self)
                let name = String(cString: key)
                if arguments.pointee[name] == nil { arguments.pointee[name] = value.map { String(cString: $0) } ?? "" }
                return .YES
            }, arguments)
        }
        let header = { (name: String) in MHD_lookup_connection_value(connection, .HEADER_KIND, name).map { String(cString: $0) } }
        return HistoryRequest(method: method, path: url.map { String(cString: $0) } ?? "", query: arguments,
                              ingressPath: header("X-Ingress-Path"), authorization: header("Authorization"), body: body,
                              client: cct_mhd_client_address(connection).map { ClientAllowList.text(of: $0) } ?? "")
    }

    private static func answer(_ request: HistoryRequest, connection: OpaquePointer, context: Context,
                               instead: HistoryResponse? = nil) -> MHD_Result {
        context.deadlines.answered(Int(bitPattern: connection))
        // The allow list, checked per request: paths under `openPrefixes` take every client.
        guard context.openPrefixes.contains(where: { request.path.hasPrefix($0) }) || context.admits(connection) else {
            return queue(HistoryResponse.forbidden, on: connection)
        }
        let answer = instead ?? context.respond(request)
        let queued: MHD_Result
        if let stream = answer.stream {
            _ = cct_mhd_no_timeout(connection)
            let feed = StreamFeed(stream, socket: cct_mhd_connection_fd(connection), open: context.streams)
            guard let response = MHD_create_response_from_callback(UInt64.max, 4096, StreamFeed.read,
                                                                   Unmanaged.passRetained(feed).toOpaque(), StreamFeed.free)
            else { return .NO }
            queued = queue(answer, response: response, on: connection)
        } else {
            queued = queue(answer, on: connection)
        }
        context.served?(request, answer.status)
        return queued
    }

    private static func queue(_ answer: HistoryResponse, on connection: OpaquePointer) -> MHD_Result {
        var body = Array(answer.body.utf8)
        guard let response = body.withUnsafeMutableBytes({ bytes in
            MHD_create_response_from_buffer(bytes.count, bytes.baseAddress, .RESPMEM_MUST_COPY)
        }) else { return .NO }
        return queue(answer, response: response, on: connection)
    }

    /// Queues `response` with `answer`'s status and headers, and lets go of it.
    private static func queue(_ answer: HistoryResponse, response: OpaquePointer, on connection: OpaquePointer) -> MHD_Result {
        defer { MHD_destroy_response(response) }
        _ = MHD_add_response_header(response, "Content-Type", answer.contentType)
        for header in HistoryResponse.standardHeaders + answer.headers {
            _ = MHD_add_response_header(response, header.name, header.value)
        }
        return MHD_queue_response(connection, UInt32(answer.status), response)
    }
}
