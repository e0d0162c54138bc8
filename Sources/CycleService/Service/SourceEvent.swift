import HomeAssistantAPI

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
