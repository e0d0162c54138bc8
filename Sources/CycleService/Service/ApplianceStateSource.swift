import CycleHistory
import HomeAssistantAPI
import CycleCore
/// Why a poll got nothing: one line for the log (never the token), and whether the
/// token was refused, which calls for slower retries.
public struct SourceFailure: Error, Sendable, CustomStringConvertible {
    public var message: String
    public var isUnauthorized: Bool
    /// A subscription ended because HA said it was stopping (see ``HomeAssistantWebSocketError/saysStopping``).
    public var isStopping: Bool

    public init(_ message: String, isUnauthorized: Bool = false, isStopping: Bool = false) {
        self.message = message
        self.isUnauthorized = isUnauthorized
        self.isStopping = isStopping
    }

    public var description: String { message }
}

/// Where the runner reads appliance states from: Home Assistant, or the demo's simulation.
public protocol ApplianceStateSource: Sendable {
    /// Every listed entity's state in one request; nil for an entity that doesn't exist.
    func read(_ entities: [String]) async throws(SourceFailure) -> [String: EntityState?]
}

/// What a subscription to Home Assistant's changes delivers.
public enum SourceEvent: Sendable, Equatable {
    /// New states of followed entities, to merge into what the runner knows (nil: the
    /// entity no longer exists). The first one after subscribing holds every entity.
    case states([String: EntityState?])
    /// Entities or devices were added, removed or changed: discovery should run again.
    case registryChanged
    /// The states delivered since the last one are all HA wrote together: a burst
    /// that holds them has ended (HA's coalesced messages, `HomeAssistantSession`).
    case batchEnded
}

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

/// Where the runner hears of changes as they happen: Home Assistant's WebSocket API.
public protocol ApplianceEventSource: Sendable {
    /// Subscribes to the entities' changes and returns once subscribed.
    func subscribe(_ entities: [String]) async throws(SourceFailure) -> SourceSubscription
}

/// One `supernotify.notify` call to make: the body is what goes over the wire; the
/// rest is for sinks that show calls to a person (the demo).
public struct CallRequest: Sendable {
    public var applianceID: String
    public var kind: CallKind
    public var body: String
}

/// Where the runner sends Supernotify calls: Home Assistant, or the demo's printer.
public protocol CallSink: Sendable {
    func notify(_ request: CallRequest) async -> ServiceCallOutcome
}
