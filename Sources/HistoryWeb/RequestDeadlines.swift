import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The connections whose request has not been read whole yet, each with the moment it
/// must be by: from the connection's start, and again from each answer (the next
/// request on a kept-alive connection). libmicrohttpd's own timeout is an idle timeout,
/// restarted by every byte, so a client sending a header line every few seconds would
/// hold its connection for ever; this deadline counts from the start.
///
/// A request read whole (answered) leaves the list: an event stream lasts as long as
/// its client listens. Past its deadline, a connection's socket is shut down both ways,
/// under the same lock `closed` takes, so a socket number libmicrohttpd has closed and
/// the kernel handed out again is never touched; libmicrohttpd then sees the end and
/// closes the connection itself.
final class RequestDeadlines: Sendable {
    private struct Waiting {
        var socket: Int32
        var due: ContinuousClock.Instant
    }

    /// How long a request may take to arrive whole.
    let allowance: Duration
    /// By libmicrohttpd's connection pointer, as an integer.
    private let waiting = Mutex<[Int: Waiting]>([:])

    init(seconds: Int) {
        allowance = .seconds(seconds)
    }

    /// A connection started, or answered and now waits for its next request.
    func awaitRequest(on connection: Int, socket: Int32, since now: ContinuousClock.Instant) {
        guard socket >= 0 else { return }
        waiting.withLock { $0[connection] = Waiting(socket: socket, due: now + allowance) }
    }

    /// The connection's request was read whole and is being answered.
    func answered(_ connection: Int) {
        _ = waiting.withLock { $0.removeValue(forKey: connection) }
    }

    /// libmicrohttpd closed the connection (its socket is about to be closed).
    func closed(_ connection: Int) {
        _ = waiting.withLock { $0.removeValue(forKey: connection) }
    }

    /// How many requests are still arriving.
    var count: Int { waiting.withLock { $0.count } }

    /// Ends both directions of `socket`, leaving its descriptor open (a listening socket
    /// stops listening). The module's one use of `SHUT_RDWR`: when HistoryServer.swift,
    /// which imports CMicroHTTPD, named it too, the release build (`demo.sh`,
    /// `release.sh`) no longer found it here.
    static func shutDown(_ socket: Int32) {
        shutdown(socket, Int32(SHUT_RDWR))
    }

    /// Shuts down the sockets of the requests past their deadline and forgets them;
    /// returns how many.
    @discardableResult
    func closeOverdue(at now: ContinuousClock.Instant) -> Int {
        waiting.withLock { waiting in
            let overdue = waiting.filter { $0.value.due <= now }
            for (connection, entry) in overdue {
                RequestDeadlines.shutDown(entry.socket)
                waiting.removeValue(forKey: connection)
            }
            return overdue.count
        }
    }
}
