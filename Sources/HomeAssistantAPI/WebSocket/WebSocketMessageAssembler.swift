/// Joins fragmented data frames into messages (RFC 6455 §5.4) with a cap on the whole
/// message, validates text as UTF-8 and decodes close payloads. Control frames may
/// arrive between fragments and pass straight through.
///
/// Pure: frames in, messages out.
public struct WebSocketMessageAssembler: Sendable {
    /// The largest message accepted, all fragments together.
    public let maxMessage: Int
    private var partial: (opcode: WebSocketFrame.Opcode, payload: [UInt8])?

    public init(maxMessage: Int) {
        self.maxMessage = maxMessage
    }

    /// The message `frame` completes, or nil when it starts or continues a fragmented one.
    public mutating func accept(_ frame: WebSocketFrame) throws(WebSocketFrameParser.Failure) -> WebSocketMessage? {
        switch frame.opcode {
        case .ping:
            return .ping(frame.payload)
        case .pong:
            return .pong(frame.payload)
        case .close:
            return try Self.close(frame.payload)
        case .text, .binary:
            guard partial == nil else {
                throw .protocolViolation("a new \(frame.opcode) frame inside a fragmented message: expected a continuation frame")
            }
            guard frame.payload.count <= maxMessage else { throw .tooLarge(limit: maxMessage) }
            if frame.fin {
                return try Self.message(frame.opcode, frame.payload)
            }
            partial = (frame.opcode, frame.payload)
            return nil
        case .continuation:
            guard var current = partial else {
                throw .protocolViolation("a continuation frame with no message begun: expected a text or binary frame first")
            }
            guard current.payload.count + frame.payload.count <= maxMessage else {
                partial = nil
                throw .tooLarge(limit: maxMessage)
            }
            partial = nil
            current.payload.append(contentsOf: frame.payload)
            if frame.fin {
                return try Self.message(current.opcode, current.payload)
            }
            partial = current
            return nil
        }
    }

    private static func message(_ opcode: WebSocketFrame.Opcode, _ payload: [UInt8]) throws(WebSocketFrameParser.Failure) -> WebSocketMessage {
        guard opcode == .text else { return .binary(payload) }
        guard let text = String(validating: payload, as: UTF8.self) else {
            throw .protocolViolation("a text message that is not valid UTF-8")
        }
        return .text(text)
    }

    private static func close(_ payload: [UInt8]) throws(WebSocketFrameParser.Failure) -> WebSocketMessage {
        if payload.isEmpty { return .close(code: nil, reason: "") }
        guard payload.count >= 2 else {
            throw .protocolViolation("a close frame with a 1-byte payload: expected none or a 2-byte status code first")
        }
        let code = UInt16(payload[0]) << 8 | UInt16(payload[1])
        guard let reason = String(validating: payload[2...], as: UTF8.self) else {
            throw .protocolViolation("a close reason that is not valid UTF-8")
        }
        return .close(code: code, reason: reason)
    }
}
