#if canImport(Glibc)
import Glibc
#endif

/// A WebSocket server on 127.0.0.1 for tests, standing in for Home Assistant's
/// `/api/websocket`, able to misbehave on purpose.
///
/// Every accepted connection gets its own thread: the upgrade request is read, then
/// answered as ``Upgrade`` says, and when accepted, `script` runs with a
/// ``WebSocketStandInPeer`` to talk frame by frame (fragment, ping, close, oversize,
/// garbage, go silent, drop the connection). When the script returns, the socket is
/// closed without a close frame unless the script sent one. ``stop()`` (or deinit)
/// closes everything and joins every thread.
///
/// The stand-in has no SHA-1 of its own: the test passes `acceptValue` (key →
/// `Sec-WebSocket-Accept`), normally the client's, which its own tests check against
/// RFC 6455's example.
public final class WebSocketStandIn: Sendable {
    /// How the upgrade request is answered.
    public enum Upgrade: Sendable {
        /// 101 with the right `Sec-WebSocket-Accept`; then the script runs.
        case accept
        /// 101 with a wrong `Sec-WebSocket-Accept`.
        case wrongAccept
        /// An HTTP error status, e.g. 404, and the connection closed.
        case refuse(status: Int)
        /// Bytes that are no HTTP at all.
        case garbage
        /// Nothing: the TCP connection stays open and silent until the client leaves.
        case neverAnswer
    }

    /// The port, at 127.0.0.1.
    public let port: Int
    private let core: Core

    /// Starts listening. `script` runs once per accepted upgrade, on that connection's thread.
    public init(upgrade: Upgrade = .accept, acceptValue: @escaping @Sendable (String) -> String,
                script: @escaping @Sendable (WebSocketStandInPeer) -> Void) throws(StandInError) {
        let (listener, port) = try StandInSocket.listenOnLoopback()
        self.port = port
        core = Core(listener: listener, upgrade: upgrade, acceptValue: acceptValue, script: script)
        do {
            let thread = try StandInThread { [core] in core.acceptLoop() }
            core.shared.withLock { $0.acceptThread = thread }
        } catch {
            close(listener)
            throw error
        }
    }

    deinit {
        core.stop()
    }

    /// `http://127.0.0.1:<port>`: the base URL as cycletrack's configuration has it.
    public var baseURL: String { "http://127.0.0.1:\(port)" }

    /// How many TCP connections were accepted so far.
    public var acceptedConnections: Int { core.shared.withLock { $0.accepted } }

    /// The upgrade requests received so far, each as its head's lines.
    public var upgradeRequests: [[String]] { core.shared.withLock { $0.requests } }

    /// Closes the listener and every connection and joins every thread. Idempotent.
    public func stop() {
        core.stop()
    }
}

extension WebSocketStandIn {
    private final class Core: Sendable {
        struct Shared {
            var stopped = false
            var accepted = 0
            var requests: [[String]] = []
            var threads: [StandInThread] = []
            var acceptThread: StandInThread?
        }

        let listener: Int32
        let upgrade: Upgrade
        let acceptValue: @Sendable (String) -> String
        let script: @Sendable (WebSocketStandInPeer) -> Void
        let shared = StandInLock(Shared())

        init(listener: Int32, upgrade: Upgrade, acceptValue: @escaping @Sendable (String) -> String,
             script: @escaping @Sendable (WebSocketStandInPeer) -> Void) {
            self.listener = listener
            self.upgrade = upgrade
            self.acceptValue = acceptValue
            self.script = script
        }

        var isStopped: Bool { shared.withLock { $0.stopped } }

        func stop() {
            let acceptThread = shared.withLock { state -> StandInThread? in
                state.stopped = true
                defer { state.acceptThread = nil }
                return state.acceptThread
            }
            acceptThread?.join()
            let threads = shared.withLock { state -> [StandInThread] in
                defer { state.threads.removeAll() }
                return state.threads
            }
            threads.forEach { $0.join() }
        }

        func acceptLoop() {
            defer { close(listener) }
            while !isStopped {
                let ready = StandInSocket.wait(listener, for: Int16(POLLIN), milliseconds: 50)
                if ready <= 0 { continue }
                let fd = accept(listener, nil, nil)
                guard fd >= 0 else { continue }
                var noDelay: Int32 = 1
                setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size))
                shared.withLock { $0.accepted += 1 }
                do {
                    let thread = try StandInThread { self.serve(fd) }
                    shared.withLock { $0.threads.append(thread) }
                } catch {
                    close(fd)
                }
            }
        }

        private func serve(_ fd: Int32) {
            let peer = WebSocketStandInPeer(fd: fd, isStopped: { self.isStopped })
            defer { peer.closeSocket() }
            guard let head = peer.readUpgradeRequest() else { return }
            shared.withLock { $0.requests.append(head) }
            let key = head.first { $0.lowercased().hasPrefix("sec-websocket-key:") }
                .map { String($0.dropFirst("sec-websocket-key:".count).drop { $0 == " " }) } ?? ""
            switch upgrade {
            case .accept, .wrongAccept:
                let accept = upgrade == .accept ? acceptValue(key) : acceptValue(key + "x")
                let answer = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                    + "Sec-WebSocket-Accept: \(accept)\r\n\r\n"
                guard peer.sendRaw(Array(answer.utf8)) else { return }
                if upgrade == .accept { script(peer) }
            case .refuse(let status):
                _ = peer.sendRaw(Array("HTTP/1.1 \(status) Refused\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8))
            case .garbage:
                _ = peer.sendRaw([0x00, 0xFF, 0x13, 0x37] + Array("no HTTP here\r\n\r\n".utf8))
            case .neverAnswer:
                peer.waitUntilClientLeaves()
            }
        }
    }
}

extension WebSocketStandIn.Upgrade: Equatable {}
