import HomeAssistantAPI

/// What a subscription to Home Assistant's changes delivers.
public enum SourceEvent: Sendable, Equatable {
    /// New states of followed entities, to merge into what the runner knows (nil: the
    /// entity no longer exists). The first one after subscribing holds every entity.
    /// `endsBatch`: they are all HA wrote together, so a burst that holds them has ended
    /// (HA's coalesced messages, `HomeAssistantSession`).
    case states([String: EntityState?], endsBatch: Bool = false)
    /// Entities or devices were added, removed or changed: discovery should run again.
    case registryChanged
    /// A button on a notification was tapped: its action (`UnloadedAction`).
    case notificationAction(String)
    /// HA refused to send the notification buttons' taps (the token's user isn't an administrator).
    case notificationActionsRefused(reason: String)
}
