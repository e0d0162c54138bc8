import CycleHistory
import HomeAssistantAPI
import CycleCore

/// An appliance the service follows: its settings for the core and its entity per role.
public struct TrackedAppliance: Sendable, Equatable {
    public var settings: ApplianceSettings
    public var entities: [Role: String]
    /// "config", "discovered", or "config+discovered", for `check` and the logs.
    public var origin: String

    public init(settings: ApplianceSettings, entities: [Role: String], origin: String) {
        self.settings = settings
        self.entities = entities
        self.origin = origin
    }

    public var id: String { settings.id }
}
