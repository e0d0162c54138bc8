import CycleCore
import Dispatch
#if canImport(Glibc)
import Glibc
#endif

/// One connection to Home Assistant's WebSocket API that follows the states of a set
/// of entities and, if asked, HA's entity and device registry events.
///
///     let socket = try await HomeAssistantWebSocket.connect(
///         baseURL: "http://homeassistant.local:8123", token: token,
///         entityIDs: ["sensor.dishwasher_operation_state"], registries: [.entity, .device])
///     // Connected, authenticated and subscribed: from here no change is missed.
///     for try await event in socket.events { … }   // .states, .registryUpdated
///
/// ``connect(baseURL:token:entityIDs:registries:configuration:)`` returns only once HA
/// accepted the token and confirmed every subscription, so a caller that reads the full
/// state after it returns misses nothing. The first event is `.states` with every
/// tracked entity (see ``Event``). Which subscription and why: ``HomeAssistantSession``.
///
/// Liveness: every `pingInterval` (30 s) the client sends HA's `{"type": "ping"}`; no
/// pong within `pongTimeout` (10 s) ends ``events`` with `.noPong`: that is how a
/// connection cut without a close frame, or a hung HA, is noticed. WebSocket pings from
/// HA's server (aiohttp's heartbeat) are answered with pongs.
///
/// One connection per value: when ``events`` ends with an error, connect again (with
/// backoff); it ends without an error only after ``close()``. The token goes only into
/// the `auth` message; it is in no error, description or log line.
///
/// The blocking socket work runs on a private dispatch queue, never on a Swift
/// concurrency thread.
public final class HomeAssistantWebSocket: Sendable {
    /// Timeouts and limits.
    public struct Configuration: Sendable {
        /// Connect timeout, CA file and proxy as for the REST client (its body cap and
        /// total timeout don't apply here).
        public var http: HTTPClient.Configuration
        /// Seconds for each step of opening: the upgrade's answer, `auth_required`, the
        /// answer to `auth`, the subscriptions' results. 10 by default.
        public var handshakeTimeout: Double
        /// Seconds between HA pings, 30 by default.
        public var pingInterval: Double
        /// Seconds a pong may take before the connection counts as dead, 10 by default.
        public var pongTimeout: Double
        /// The largest message accepted from HA, 16 MiB by default: the first
        /// `subscribe_entities` event carries every tracked entity's attributes.
        public var maxMessageBytes: Int

        public init(http: HTTPClient.Configuration = HTTPClient.Configuration(), handshakeTimeout: Double = 10,
                    pingInterval: Double = 30, pongTimeout: Double = 10, maxMessageBytes: Int = 16 * 1024 * 1024) {
            self.http = http
            self.handshakeTimeout = handshakeTimeout
            self.pingInterval = pingInterval
            self.pongTimeout = pongTimeout
            self.maxMessageBytes = maxMessageBytes
        }
    }

    /// The `ws://` or `wss://` URL connected to.
    public let url: String
    /// HA's version, from `auth_ok`.
    public let haVersion: String
    /// What HA reports, in order. Ends by throwing a ``HomeAssistantWebSocketError`` when
    /// the connection fails, and without an error after ``close()``. Dropping the last
    /// iterator (or cancelling the task iterating) closes the connection.
    public let events: AsyncThrowingStream<Event, any Error>
    private let driver: Driver

    private init(url: String, haVersion: String, events: AsyncThrowingStream<Event, any Error>, driver: Driver) {
        self.url = url
        self.haVersion = haVersion
        self.events = events
        self.driver = driver
    }

    /// Connects to HA at `baseURL` (the REST base URL: `http://host:8123`, `https://…`,
    /// or `http://supervisor/core` in the add-on), authenticates with `token`, subscribes
    /// to the states of `entityIDs`, to the events of `registries` and, with
    /// `notificationActions`, to the buttons tapped on notifications, and returns once
    /// HA confirmed all of it.
    public static func connect(
        baseURL: String, token: String, entityIDs: [String], registries: [Registry] = [],
        notificationActions: Bool = false, configuration: Configuration = Configuration()
    ) async throws(HomeAssistantWebSocketError) -> HomeAssistantWebSocket {
        guard let endpoint = WebSocketEndpoint(baseURL: baseURL) else { throw .invalidBaseURL(baseURL) }
        var unique: [String] = []
        for id in entityIDs where !unique.contains(id) {
            guard HomeAssistantTemplates.isValidEntityID(id) else { throw .invalidEntityID(id) }
            unique.append(id)
        }
        let settings = HomeAssistantSession.Settings(
            url: endpoint.url, entityIDs: unique, registries: registries, notificationActions: notificationActions,
            handshakeTimeout: duration(configuration.handshakeTimeout),
            pingInterval: duration(configuration.pingInterval), pongTimeout: duration(configuration.pongTimeout))
        let (events, continuation) = AsyncThrowingStream<Event, any Error>.makeStream()
        let driver = Driver(endpoint: endpoint, settings: settings, token: token, configuration: configuration,
                            events: continuation)
        continuation.onTermination = { _ in driver.stop() }
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (opened: CheckedContinuation<Result<String, HomeAssistantWebSocketError>, Never>) in
                driver.start(opened)
            }
        } onCancel: {
            driver.stop()
        }
        let version = try result.get()
        return HomeAssistantWebSocket(url: endpoint.url, haVersion: version, events: events, driver: driver)
    }

    /// Closes the connection (close frame 1000) and ends ``events`` without an error.
    /// Returns at once; the closing handshake takes at most a second in the background.
    public func close() {
        driver.stop()
    }

    private static func duration(_ seconds: Double) -> Duration {
        .milliseconds(Int((max(seconds, 0) * 1000).rounded()))
    }
}

extension HomeAssistantWebSocket {
    /// Runs one connection on its own queue: the blocking ``WebSocketConnection`` and the
    /// ``HomeAssistantSession`` deciding what to send and deliver. `@unchecked Sendable`:
    /// `connection` and `session` are touched only on `queue`; the rest is behind `lock`.
    private final class Driver: @unchecked Sendable {
        private struct Shared {
            var stopRequested = false
            var opened: CheckedContinuation<Result<String, HomeAssistantWebSocketError>, Never>?
        }

        private let endpoint: WebSocketEndpoint
        private let settings: HomeAssistantSession.Settings
        private let token: String
        private let configuration: Configuration
        private let events: AsyncThrowingStream<Event, any Error>.Continuation
        private let queue = DispatchQueue(label: "cycletrack.websocket")
        /// Guards `shared`: `sync` on a serial queue is the lock.
        private let lock = DispatchQueue(label: "cycletrack.websocket.state")
        private var shared = Shared()
        /// A pipe whose read end is polled beside the socket, so ``stop()`` wakes the loop.
        private let wakeRead: Int32
        private let wakeWrite: Int32

        init(endpoint: WebSocketEndpoint, settings: HomeAssistantSession.Settings, token: String,
             configuration: Configuration, events: AsyncThrowingStream<Event, any Error>.Continuation) {
            self.endpoint = endpoint
            self.settings = settings
            self.token = token
            self.configuration = configuration
            self.events = events
            var fds: [Int32] = [-1, -1]
            if pipe(&fds) == 0 {
                for fd in fds { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
            }
            wakeRead = fds[0]
            wakeWrite = fds[1]
        }

        deinit {
            if wakeRead >= 0 { Glibc.close(wakeRead) }
            if wakeWrite >= 0 { Glibc.close(wakeWrite) }
        }

        func start(_ opened: CheckedContinuation<Result<String, HomeAssistantWebSocketError>, Never>) {
            let stopped = lock.sync { () -> Bool in
                shared.opened = opened
                return shared.stopRequested
            }
            if stopped {
                resolveOpening(.failure(.cancelled(url: endpoint.url)))
                return
            }
            queue.async { self.run() }
        }

        func stop() {
            let first = lock.sync { () -> Bool in
                defer { shared.stopRequested = true }
                return !shared.stopRequested
            }
            if first && wakeWrite >= 0 {
                var byte: UInt8 = 1
                _ = write(wakeWrite, &byte, 1)
            }
        }

        private var stopRequested: Bool { lock.sync { shared.stopRequested } }

        /// Resumes `connect` once; false when it was resumed already.
        @discardableResult
        private func resolveOpening(_ result: Result<String, HomeAssistantWebSocketError>) -> Bool {
            let opened = lock.sync { () -> CheckedContinuation<Result<String, HomeAssistantWebSocketError>, Never>? in
                defer { shared.opened = nil }
                return shared.opened
            }
            opened?.resume(returning: result)
            return opened != nil
        }

        /// Ends the connection's life: `connect` fails if it is still waiting, else the events do.
        private func finish(_ error: HomeAssistantWebSocketError?) {
            if !resolveOpening(.failure(error ?? .cancelled(url: endpoint.url))) {
                events.finish(throwing: error)
            } else {
                events.finish()
            }
        }

        private func run() {
            dispatchPrecondition(condition: .onQueue(queue))
            let clock = ContinuousClock()
            let start = clock.now
            let connection: WebSocketConnection
            do {
                connection = try WebSocketConnection(endpoint: endpoint, configuration: configuration.http,
                                                     maxMessageBytes: configuration.maxMessageBytes,
                                                     handshakeTimeout: configuration.handshakeTimeout)
            } catch {
                finish(stopRequested ? nil : .connection(error))
                return
            }
            var session = HomeAssistantSession(settings: settings, token: token, now: clock.now - start)
            while true {
                if stopRequested {
                    connection.close()
                    finish(nil)
                    return
                }
                let deadline = session.nextDeadline.map { start + $0 } ?? clock.now + .seconds(3600)
                do throws(WebSocketError) {
                    var actions = try receive(on: connection, until: deadline, into: &session, at: { clock.now - start })
                    // Always: a steady flow of events must not hold back pings and their timeout.
                    actions += session.tick(at: clock.now - start)
                    guard try perform(actions, on: connection) else { return }
                } catch {
                    connection.abort()
                    finish(stopRequested ? nil : .connection(error))
                    return
                }
            }
        }

        /// Waits for one message (or the deadline, or a wake) and hands a text to the session.
        private func receive(on connection: WebSocketConnection, until deadline: ContinuousClock.Instant,
                             into session: inout HomeAssistantSession,
                             at now: () -> Duration) throws(WebSocketError) -> [HomeAssistantSession.Action] {
            switch try connection.receive(until: deadline, wake: wakeRead) {
            case .text(let text):
                return session.receive(text, at: now())
            case .binary(let bytes):
                return [.fail(.unexpectedMessage(url: endpoint.url, expected: "text messages",
                                                 found: "a binary message of \(bytes.count) bytes"))]
            case .pong, .ping, .close, nil:
                return []
            }
        }

        /// Does what the session decided; false once the connection's life is over.
        private func perform(_ actions: [HomeAssistantSession.Action], on connection: WebSocketConnection) throws(WebSocketError) -> Bool {
            for action in actions {
                switch action {
                case .send(let text):
                    try connection.send(text: text)
                case .subscribed(let version):
                    if !resolveOpening(.success(version)) {
                        connection.close()
                        return false
                    }
                case .deliver(let event):
                    events.yield(event)
                case .fail(let error):
                    if case .noPong = error {
                        connection.abort()
                    } else {
                        connection.close(code: 1000, reason: "", timeout: 1)
                    }
                    finish(error)
                    return false
                }
            }
            return true
        }
    }
}
