/// What the server sent, after reassembly: a whole data message or one control frame.
public enum WebSocketMessage: Sendable, Equatable {
    /// A text message, all its fragments joined, valid UTF-8.
    case text(String)
    /// A binary message, all its fragments joined.
    case binary([UInt8])
    /// A ping; the client answers with a pong carrying the same payload.
    case ping([UInt8])
    /// A pong (the client sends no pings of its own, but one is allowed unsolicited).
    case pong([UInt8])
    /// A close frame: its status code (nil when it carried none) and reason.
    case close(code: UInt16?, reason: String)
}
