import CycleCore
import FoundationEssentials

/// The service as the local API shows it (docs/API.md, `GET /api/v1/service`).
public struct ServiceSnapshot: Sendable, Equatable {
    public var version: String
    public var instanceID: String
    public var homeAssistantConnected: Bool
    /// `events` while HA's WebSocket subscription is live, else `poll`.
    public var updates: String
    public var pushesToday: Int
    public var dailyPushLimit: Int
    public var integrationConnected: Bool

    public var pushesLeftToday: Int { max(0, dailyPushLimit - pushesToday) }
}
