/// One RFC 6455 frame, and its wire encoding for the client side (always masked).
///
/// Pure: no I/O. ``WebSocketFrameParser`` reads frames from the server; this type
/// writes the client's.
public struct WebSocketFrame: Sendable, Equatable {
    /// The frame's opcode (RFC 6455 §5.2). Other values are a protocol error.
    public enum Opcode: UInt8, Sendable {
        case continuation = 0x0
        case text = 0x1
        case binary = 0x2
        case close = 0x8
        case ping = 0x9
        case pong = 0xA

        /// Close, ping and pong: at most 125 bytes of payload, never fragmented.
        public var isControl: Bool { rawValue & 0x8 != 0 }
    }

    /// Whether this is the last frame of its message.
    public var fin: Bool
    public var opcode: Opcode
    /// The unmasked payload.
    public var payload: [UInt8]

    public init(fin: Bool = true, opcode: Opcode, payload: [UInt8] = []) {
        self.fin = fin
        self.opcode = opcode
        self.payload = payload
    }

    /// The largest payload of a control frame (§5.5).
    public static let maxControlPayload = 125

    /// The frame as a client sends it: masked with `maskingKey` (§5.3), which must be
    /// fresh and unpredictable for every frame (see ``randomMaskingKey()``).
    public func encoded(maskingKey: (UInt8, UInt8, UInt8, UInt8)) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(payload.count + 14)
        bytes.append((fin ? 0x80 : 0) | opcode.rawValue)
        let count = payload.count
        switch count {
        case 0...125:
            bytes.append(0x80 | UInt8(count))
        case 126...0xFFFF:
            bytes.append(0x80 | 126)
            bytes.append(UInt8(count >> 8))
            bytes.append(UInt8(count & 0xFF))
        default:
            bytes.append(0x80 | 127)
            for shift in stride(from: 56, through: 0, by: -8) {
                bytes.append(UInt8((UInt64(count) >> UInt64(shift)) & 0xFF))
            }
        }
        let mask = [maskingKey.0, maskingKey.1, maskingKey.2, maskingKey.3]
        bytes.append(contentsOf: mask)
        for (index, byte) in payload.enumerated() {
            bytes.append(byte ^ mask[index & 3])
        }
        return bytes
    }

    /// The frame masked with a key from the system's random source.
    public func encoded() -> [UInt8] {
        encoded(maskingKey: WebSocketFrame.randomMaskingKey())
    }

    /// Four bytes from `SystemRandomNumberGenerator` (getrandom(2) on Linux).
    public static func randomMaskingKey() -> (UInt8, UInt8, UInt8, UInt8) {
        var generator = SystemRandomNumberGenerator()
        let value = generator.next() as UInt32
        return (UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF))
    }

    /// A close frame's payload: the status code, big-endian, then the UTF-8 reason,
    /// cut so the payload stays within 125 bytes.
    public static func closePayload(code: UInt16, reason: String) -> [UInt8] {
        var payload = [UInt8(code >> 8), UInt8(code & 0xFF)]
        var reasonBytes = Array(reason.utf8)
        while reasonBytes.count > maxControlPayload - 2 || String(validating: reasonBytes, as: UTF8.self) == nil {
            reasonBytes.removeLast()
        }
        payload.append(contentsOf: reasonBytes)
        return payload
    }
}
