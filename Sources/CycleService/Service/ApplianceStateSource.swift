import CycleHistory
import HomeAssistantAPI
import CycleCore
/// Why a poll got nothing: one line for the log (never the token), and whether the
/// token was refused, which calls for slower retries.
public struct SourceFailure: Error, Sendable, CustomStringConvertible {
    public var message: String
    public var isUnauthorized: Bool

    public init(_ message: String, isUnauthorized: Bool = false) {
        self.message = message
        self.isUnauthorized = isUnauthorized
    }

    public var description: String { message }
}

/// Where the runner reads appliance states from: Home Assistant, or the demo's simulation.
public protocol ApplianceStateSource: Sendable {
    /// Every listed entity's state in one request; nil for an entity that doesn't exist.
    func read(_ entities: [String]) async throws(SourceFailure) -> [String: EntityState?]
}

/// One `supernotify.notify` call to make: the body is what goes over the wire; the
/// rest is for sinks that show calls to a person (the demo).
public struct NotifyRequest: Sendable {
    public var applianceID: String
    public var kind: String
    public var body: String
}

/// Where the runner sends Supernotify calls: Home Assistant, or the demo's printer.
public protocol NotifySink: Sendable {
    func notify(_ request: NotifyRequest) async -> ServiceCallOutcome
}
