/// Reads server frames from the bytes as they arrive (RFC 6455 §5.2), enforcing what a
/// client must: no reserved bits (no extension is ever negotiated), known opcodes,
/// unmasked frames (§5.1: a client closes on a masked one), control frames of at most
/// 125 bytes and never fragmented, and a cap on the payload length, checked from the
/// header so an oversized frame is refused before its payload is buffered.
///
/// Pure: bytes in, frames out.
public struct WebSocketFrameParser: Sendable {
    /// Why the incoming bytes can't be accepted.
    public enum Failure: Error, Sendable, Equatable {
        /// The bytes break RFC 6455; the detail says what was expected and what came.
        case protocolViolation(String)
        /// A frame or message announced more than `limit` bytes.
        case tooLarge(limit: Int)
    }

    /// The largest payload accepted in one frame.
    public let maxPayload: Int
    private var buffer: [UInt8] = []
    private var start = 0

    public init(maxPayload: Int) {
        self.maxPayload = maxPayload
    }

    /// Bytes received but not yet part of a returned frame.
    public var bufferedCount: Int { buffer.count - start }

    /// The bytes the buffer has room for without growing.
    public var capacity: Int { buffer.capacity }

    /// The room the buffer keeps between frames; what a large frame made it grow beyond
    /// is given back once that frame was taken, so one message near the size cap doesn't
    /// hold its memory for the life of the connection.
    public static let retainedCapacity = 64 * 1024

    /// Adds received bytes.
    public mutating func append(_ bytes: some Collection<UInt8>) {
        if start > 0 && start == buffer.count {
            buffer.removeAll(keepingCapacity: buffer.capacity <= Self.retainedCapacity)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// The next complete frame, or nil until more bytes arrive.
    public mutating func next() throws(Failure) -> WebSocketFrame? {
        let available = buffer.count - start
        guard available >= 2 else { return nil }
        let first = buffer[start]
        let second = buffer[start + 1]
        guard first & 0x70 == 0 else {
            throw .protocolViolation("frame with reserved bits set (first byte 0x\(hex(first))): expected none, no extension was negotiated")
        }
        guard let opcode = WebSocketFrame.Opcode(rawValue: first & 0x0F) else {
            throw .protocolViolation("unknown opcode 0x\(hex(first & 0x0F)): expected text, binary, continuation, close, ping or pong")
        }
        guard second & 0x80 == 0 else {
            throw .protocolViolation("masked frame from the server: expected unmasked frames (RFC 6455 §5.1)")
        }
        let fin = first & 0x80 != 0
        var headerLength = 2
        var length = UInt64(second & 0x7F)
        if length == 126 {
            guard available >= 4 else { return nil }
            length = UInt64(buffer[start + 2]) << 8 | UInt64(buffer[start + 3])
            headerLength = 4
        } else if length == 127 {
            guard available >= 10 else { return nil }
            length = 0
            for index in 2..<10 {
                length = length << 8 | UInt64(buffer[start + index])
            }
            guard length >> 63 == 0 else {
                throw .protocolViolation("64-bit payload length with its top bit set")
            }
            headerLength = 10
        }
        if opcode.isControl {
            guard fin else {
                throw .protocolViolation("fragmented \(opcode) frame: expected control frames whole")
            }
            guard length <= UInt64(WebSocketFrame.maxControlPayload) else {
                throw .protocolViolation("\(opcode) frame of \(length) bytes: expected at most 125")
            }
        }
        guard length <= UInt64(maxPayload) else { throw .tooLarge(limit: maxPayload) }
        let total = headerLength + Int(length)
        guard available >= total else { return nil }
        let payload = Array(buffer[(start + headerLength)..<(start + total)])
        start += total
        compact()
        return WebSocketFrame(fin: fin, opcode: opcode, payload: payload)
    }

    /// Drops the bytes of taken frames now and then instead of shifting the buffer after
    /// every frame, and gives back room beyond ``retainedCapacity`` that the rest doesn't need.
    private mutating func compact() {
        let rest = buffer.count - start
        if buffer.capacity > Self.retainedCapacity && rest <= Self.retainedCapacity / 2 {
            buffer = Array(buffer[start...])
            start = 0
        } else if start > Self.retainedCapacity && start * 2 > buffer.count {
            buffer.removeSubrange(0..<start)
            start = 0
        }
    }

    private func hex(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16)
        return digits.count == 1 ? "0" + digits : digits
    }
}
