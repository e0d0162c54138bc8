#if canImport(Glibc)
import Glibc
#endif

/// A tiny HTTP/1.1 server on 127.0.0.1 for tests and the benchmark, answering through
/// a handler that can also script faults (``Reply``).
///
/// It listens on 127.0.0.1 only, at a port the kernel picks (``port``). One thread
/// accepts; each connection gets its own thread and serves keep-alive requests with
/// Content-Length bodies. Every wait is a short `poll` slice, so ``stop()`` closes
/// everything and joins every thread within a fraction of a second. Stopping is also
/// done on deinit.
public final class HTTPStandIn: Sendable {
    /// The port the server listens on, at 127.0.0.1.
    public let port: Int
    // The threads hold `core`, not `self`, so dropping the last reference to the
    // stand-in stops it (deinit) even when a test forgets to.
    private let core: Core

    /// Starts listening and accepting; every request goes to `handler`.
    public init(handler: @escaping @Sendable (Request) -> Reply) throws(StandInError) {
        let (listener, port) = try StandInSocket.listenOnLoopback()
        self.port = port
        core = Core(listener: listener, handler: handler)
        do {
            try core.start()
        } catch {
            close(listener)
            throw error
        }
    }

    deinit {
        core.stop()
    }

    /// `http://127.0.0.1:<port>`, without a trailing slash.
    public var baseURL: String { "http://127.0.0.1:\(port)" }

    /// How many connections the server has accepted so far.
    public var acceptedConnections: Int { core.shared.withLock { $0.accepted } }

    /// Closes the listener and every connection and waits for all threads. Idempotent.
    public func stop() {
        core.stop()
    }

    /// A port on 127.0.0.1 that nothing listens on: bound, read back, and closed again.
    /// Connecting to it is refused (unless another process takes it in between).
    public static func unusedPort() throws(StandInError) -> Int {
        let fd = try StandInSocket.boundLoopbackSocket()
        defer { close(fd) }
        return try StandInSocket.localPort(of: fd)
    }
}

extension HTTPStandIn {
    /// The listener, the handler and the threads.
    private final class Core: Sendable {
        struct Shared {
            var stopped = false
            var accepted = 0
            var threads: [Int: StandInThread] = [:]
            var finished: [Int] = []
            var acceptThread: StandInThread?
        }

        let listener: Int32
        let handler: @Sendable (Request) -> Reply
        let shared = StandInLock(Shared())

        init(listener: Int32, handler: @escaping @Sendable (Request) -> Reply) {
            self.listener = listener
            self.handler = handler
        }

        var isStopped: Bool { shared.withLock { $0.stopped } }

        func start() throws(StandInError) {
            let thread = try StandInThread { self.acceptLoop() }
            shared.withLock { $0.acceptThread = thread }
        }

        func stop() {
            let acceptThread = shared.withLock { state -> StandInThread? in
                state.stopped = true
                defer { state.acceptThread = nil }
                return state.acceptThread
            }
            acceptThread?.join()
            let connections = shared.withLock { state -> [StandInThread] in
                defer { state.threads.removeAll() }
                return Array(state.threads.values)
            }
            connections.forEach { $0.join() }
        }

        private func acceptLoop() {
            defer { close(listener) }
            while !isStopped {
                reapFinished()
                let ready = StandInSocket.wait(listener, for: Int16(POLLIN), milliseconds: 50)
                if ready <= 0 { continue }
                let fd = accept(listener, nil, nil)
                guard fd >= 0 else { continue }
                var noDelay: Int32 = 1
                setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size))
                let index = shared.withLock { state -> Int in
                    state.accepted += 1
                    return state.accepted
                }
                let connection = StandInConnection(fd: fd, index: index, handler: handler,
                                                   isStopped: { self.isStopped })
                do {
                    let thread = try StandInThread {
                        connection.run()
                        self.shared.withLock { $0.finished.append(index) }
                    }
                    shared.withLock { $0.threads[index] = thread }
                } catch {
                    close(fd)
                }
            }
        }

        /// Joins connection threads that have ended, so a long benchmark doesn't pile them up.
        private func reapFinished() {
            let done = shared.withLock { state -> [StandInThread] in
                var threads: [StandInThread] = []
                var notYetRegistered: [Int] = []
                for index in state.finished {
                    if let thread = state.threads.removeValue(forKey: index) {
                        threads.append(thread)
                    } else {
                        notYetRegistered.append(index)
                    }
                }
                state.finished = notYetRegistered
                return threads
            }
            done.forEach { $0.join() }
        }
    }
}
