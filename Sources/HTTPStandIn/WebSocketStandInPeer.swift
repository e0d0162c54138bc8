#if canImport(Glibc)
import Glibc
#endif

/// The server side of one stand-in WebSocket connection, for a test's script: reads
/// the client's (masked) frames and writes frames, well-formed or not. Receiving
/// belongs to the connection's own thread; sending is safe from any thread, one whole
/// write at a time (``HomeAssistantStandIn`` sends change events from the thread that
/// sets a state). Every wait is in short `poll` slices that end when the stand-in stops.
public final class WebSocketStandInPeer: @unchecked Sendable {
    /// One frame from the client, unmasked.
    public struct Frame: Sendable, Equatable {
        public var fin: Bool
        public var opcode: UInt8
        public var payload: [UInt8]
        /// Whether the client masked it (RFC 6455 requires it).
        public var masked: Bool

        /// The payload as UTF-8 text.
        public var text: String { String(decoding: payload, as: UTF8.self) }
        /// A close frame's status code, if it has one.
        public var closeCode: UInt16? {
            opcode == 0x8 && payload.count >= 2 ? UInt16(payload[0]) << 8 | UInt16(payload[1]) : nil
        }
    }

    private let fd: Int32
    private let isStopped: @Sendable () -> Bool
    /// Whether ``closeSocket()`` closes the descriptor; a peer lent a connection of
    /// ``HTTPStandIn`` only shuts it down, and the connection closes it.
    private let ownsSocket: Bool
    /// Received bytes not yet taken as frames: the connection's thread only.
    private var buffer: [UInt8]
    /// Whether the socket was closed; held while sending, so writes don't interleave.
    private let closed = StandInLock(false)

    init(fd: Int32, buffered: [UInt8] = [], ownsSocket: Bool = true, isStopped: @escaping @Sendable () -> Bool) {
        self.fd = fd
        self.buffer = buffered
        self.ownsSocket = ownsSocket
        self.isStopped = isStopped
    }

    private var isClosed: Bool { closed.withLock { $0 } }

    // MARK: Sending

    /// Sends bytes as they are; false when the client went away.
    @discardableResult
    public func sendRaw(_ bytes: [UInt8]) -> Bool {
        closed.withLock { closed in
            guard !closed else { return false }
            return StandInSocket.sendAll(fd, bytes, isStopped: isStopped)
        }
    }

    /// Sends one unmasked frame (or a masked one, which a client must refuse).
    @discardableResult
    public func sendFrame(fin: Bool = true, opcode: UInt8, payload: [UInt8], masked: Bool = false) -> Bool {
        sendRaw(Self.frame(fin: fin, opcode: opcode, payload: payload, masked: masked))
    }

    /// Sends `text` as one text frame.
    @discardableResult
    public func sendText(_ text: String) -> Bool {
        sendFrame(opcode: 0x1, payload: Array(text.utf8))
    }

    /// Sends `text` as a text frame and continuation frames of at most `pieceBytes`
    /// bytes each, with a ping between the first two when `pingBetween`.
    @discardableResult
    public func sendFragmented(_ text: String, pieceBytes: Int, pingBetween: Bool = false) -> Bool {
        let bytes = Array(text.utf8)
        var offset = 0
        var first = true
        while offset < bytes.count || first {
            let end = min(offset + max(pieceBytes, 1), bytes.count)
            let last = end == bytes.count
            guard sendFrame(fin: last, opcode: first ? 0x1 : 0x0, payload: Array(bytes[offset..<end])) else { return false }
            if first && pingBetween && !last {
                guard sendFrame(opcode: 0x9, payload: Array("mid".utf8)) else { return false }
            }
            first = false
            offset = end
        }
        return true
    }

    /// Sends a close frame with `code` and `reason`.
    @discardableResult
    public func sendClose(code: UInt16, reason: String = "") -> Bool {
        sendFrame(opcode: 0x8, payload: [UInt8(code >> 8), UInt8(code & 0xFF)] + Array(reason.utf8))
    }

    // MARK: Receiving

    /// The next frame from the client, or nil when it closed the TCP connection, the
    /// stand-in stopped, or `timeout` seconds passed.
    public func receiveFrame(timeout: Double = 15) -> Frame? {
        var deadline = timeout
        while true {
            if let frame = Self.parse(&buffer) { return frame }
            guard deadline > 0, receiveMore() else { return nil }
            deadline -= 0.05
        }
    }

    /// The next text message's payload, answering nothing, skipping pongs; nil on close,
    /// timeout or end of the connection.
    public func receiveText(timeout: Double = 15) -> String? {
        while let frame = receiveFrame(timeout: timeout) {
            if frame.opcode == 0x1 { return frame.text }
            if frame.opcode == 0x8 { return nil }
        }
        return nil
    }

    /// Reads and discards until the client closes the TCP connection or the stand-in stops.
    public func waitUntilClientLeaves() {
        while receiveMore() { buffer.removeAll() }
    }

    /// Keeps the connection open but reads and answers nothing (a cut cable, a hung
    /// server), until the client closes it or the stand-in stops.
    public func goSilent() {
        var scratch = [UInt8](repeating: 0, count: 4096)
        while !isStopped() && !isClosed {
            let ready = StandInSocket.wait(fd, for: Int16(POLLIN), milliseconds: 50)
            if ready < 0 { return }
            if ready == 0 { continue }
            // Only to notice the client leaving: what it sends is dropped.
            let count = scratch.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count == 0 || (count < 0 && errno != EINTR && errno != EAGAIN) { return }
        }
    }

    /// Closes the TCP connection without a close frame. Idempotent.
    public func closeSocket() {
        closed.withLock { closed in
            guard !closed else { return }
            closed = true
            if ownsSocket {
                close(fd)
            } else {
                shutdown(fd, Int32(SHUT_RDWR))
            }
        }
    }

    // MARK: Plumbing

    /// The upgrade request's head as lines, or nil when the client left first.
    func readUpgradeRequest() -> [String]? {
        while true {
            if buffer.count >= 4 {
                for index in 0...(buffer.count - 4)
                where buffer[index] == 13 && buffer[index + 1] == 10 && buffer[index + 2] == 13 && buffer[index + 3] == 10 {
                    let head = String(decoding: buffer[..<index], as: UTF8.self)
                    buffer.removeSubrange(..<(index + 4))
                    return head.split(separator: "\r\n").map(String.init)
                }
            }
            guard buffer.count < 64 * 1024, receiveMore() else { return nil }
        }
    }

    /// Waits up to 50 ms for bytes and appends them; false when the client closed, the
    /// stand-in stopped or the read failed (true with nothing added on a quiet slice).
    private func receiveMore() -> Bool {
        guard !isClosed, !isStopped() else { return false }
        let ready = StandInSocket.wait(fd, for: Int16(POLLIN), milliseconds: 50)
        if ready < 0 { return false }
        if ready == 0 { return true }
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if count < 0 { return errno == EINTR || errno == EAGAIN }
        guard count > 0 else { return false }
        buffer.append(contentsOf: chunk[..<count])
        return true
    }

    static func frame(fin: Bool, opcode: UInt8, payload: [UInt8], masked: Bool) -> [UInt8] {
        var bytes: [UInt8] = [(fin ? 0x80 : 0) | opcode]
        let maskBit: UInt8 = masked ? 0x80 : 0
        if payload.count < 126 {
            bytes.append(maskBit | UInt8(payload.count))
        } else if payload.count <= 0xFFFF {
            bytes += [maskBit | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        } else {
            bytes.append(maskBit | 127)
            for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8((payload.count >> shift) & 0xFF)) }
        }
        if masked {
            let key: [UInt8] = [1, 2, 3, 4]
            bytes += key
            bytes += payload.enumerated().map { $0.element ^ key[$0.offset & 3] }
        } else {
            bytes += payload
        }
        return bytes
    }

    /// Takes one whole frame off the front of `buffer`, or nil until it is complete.
    static func parse(_ buffer: inout [UInt8]) -> Frame? {
        guard buffer.count >= 2 else { return nil }
        let masked = buffer[1] & 0x80 != 0
        var length = Int(buffer[1] & 0x7F)
        var offset = 2
        if length == 126 {
            guard buffer.count >= 4 else { return nil }
            length = Int(buffer[2]) << 8 | Int(buffer[3])
            offset = 4
        } else if length == 127 {
            guard buffer.count >= 10 else { return nil }
            length = buffer[2..<10].reduce(0) { $0 << 8 | Int($1) }
            offset = 10
        }
        let keyLength = masked ? 4 : 0
        guard buffer.count >= offset + keyLength + length else { return nil }
        let key = masked ? Array(buffer[offset..<(offset + 4)]) : [0, 0, 0, 0]
        let start = offset + keyLength
        let payload = buffer[start..<(start + length)].enumerated().map { $0.element ^ key[$0.offset & 3] }
        let frame = Frame(fin: buffer[0] & 0x80 != 0, opcode: buffer[0] & 0x0F, payload: payload, masked: masked)
        buffer.removeSubrange(..<(start + length))
        return frame
    }
}
