/// A live subscription: its events, and how to end it.
public struct SourceSubscription: Sendable {
    /// Ends by throwing (a `SourceFailure`) when the connection is lost.
    public var events: AsyncThrowingStream<SourceEvent, any Error>
    public var close: @Sendable () -> Void

    public init(events: AsyncThrowingStream<SourceEvent, any Error>, close: @escaping @Sendable () -> Void) {
        self.events = events
        self.close = close
    }
}
