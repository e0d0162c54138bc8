import FoundationEssentials

/// The body of a long-lived response (Server-Sent Events): chunks as they come, on the
/// connection's own thread, until the stream ends or the client goes away.
public protocol ResponseStream: AnyObject, Sendable {
    /// The next chunk, waiting at most `seconds` for one: `.bytes` to send, `.idle` when
    /// none came in time (the server then checks that the client is still there), `.end`.
    func next(waitingAtMost seconds: Double) -> StreamChunk
    /// The response is over (ended, or the client went away): called once, on any thread.
    func finished()
}
