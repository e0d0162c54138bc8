/// What a `ResponseStream` hands the server.
public enum StreamChunk: Sendable, Equatable {
    case bytes([UInt8])
    case idle
    case end
}
