import HomeAssistantAPI
import CycleCore

/// One configured appliance: its settings for the core and the entities it maps.
public struct ApplianceConfiguration: Sendable {
    public var settings: ApplianceSettings
    /// Entity id per role, as configured (configuration wins over discovery).
    public var entities: [Role: String]
    /// Roles the configuration set to null on purpose: discovery must not fill them in.
    public var unmapped: Set<Role>
    /// Whether `name` was given (else discovery's device name is used when there is one).
    public var hasName: Bool
    /// Whether the profile was given (or implied by a power sensor alone); else discovery's
    /// integration chooses it.
    public var hasProfile: Bool = false
}
