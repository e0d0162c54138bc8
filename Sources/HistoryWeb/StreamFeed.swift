import CMicroHTTPD
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Feeds a `ResponseStream` to libmicrohttpd's content reader, on the connection's own
/// thread: waits for the stream's next chunk, and between chunks checks every second
/// that the client is still there (a closed socket ends the response at once rather
/// than at the next failed write).
final class StreamFeed {
    private let stream: any ResponseStream
    private let socket: Int32
    private var pending: [UInt8] = []
    private var ended = false
    /// The server's count of streams being sent: one more from now until `free`.
    private let open: OpenStreams

    init(_ stream: any ResponseStream, socket: Int32, open: OpenStreams) {
        self.stream = stream
        self.socket = socket
        self.open = open
        open.count.withLock { $0 += 1 }
    }

    /// Copies up to `capacity` bytes into `buffer`: a count, or -1 for the end of the stream.
    func read(into buffer: UnsafeMutablePointer<CChar>, capacity: Int) -> Int {
        while pending.isEmpty {
            if ended { return -1 }
            switch stream.next(waitingAtMost: 1) {
            case .bytes(let bytes): pending = bytes
            case .idle: if clientLeft() { ended = true }
            case .end: ended = true
            }
        }
        let count = min(capacity, pending.count)
        pending.withUnsafeBytes { bytes in
            UnsafeMutableRawPointer(buffer).copyMemory(from: bytes.baseAddress!, byteCount: count) // non-empty: checked above
        }
        pending.removeFirst(count)
        return count
    }

    /// Whether the client closed its end (or the socket broke): a readable socket with
    /// nothing to read. A client that sends more is not closed.
    private func clientLeft() -> Bool {
        guard socket >= 0 else { return false }
        var watch = pollfd(fd: socket, events: Int16(POLLIN | Self.readHangUp), revents: 0)
        guard poll(&watch, 1, 0) > 0 else { return false }
        if Int32(watch.revents) & (POLLHUP | POLLERR | Self.readHangUp) != 0 { return true }
        var byte: UInt8 = 0
        return recv(socket, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) == 0
    }

    /// Linux's POLLRDHUP (the peer closed its end), which Glibc declares only under _GNU_SOURCE.
    private static let readHangUp: Int32 = 0x2000

    static let read: MHD_ContentReaderCallback = { pointer, _, buffer, capacity in
        guard let pointer, let buffer else { return -2 }
        return Unmanaged<StreamFeed>.fromOpaque(pointer).takeUnretainedValue().read(into: buffer, capacity: capacity)
    }

    static let free: MHD_ContentReaderFreeCallback = { pointer in
        guard let pointer else { return }
        let feed = Unmanaged<StreamFeed>.fromOpaque(pointer).takeRetainedValue()
        feed.stream.finished()
        feed.open.count.withLock { $0 -= 1 }
    }
}

/// How many streamed responses a server is sending (fed and not yet freed).
final class OpenStreams: Sendable {
    let count = Mutex(0)
}
