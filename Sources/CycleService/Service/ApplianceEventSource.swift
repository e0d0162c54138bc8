/// Where the runner hears of changes as they happen: Home Assistant's WebSocket API.
public protocol ApplianceEventSource: Sendable {
    /// Subscribes to the entities' changes and returns once subscribed.
    func subscribe(_ entities: [String]) async throws(SourceFailure) -> SourceSubscription
}
