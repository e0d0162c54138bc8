import CycleHistory
import HomeAssistantAPI
import CycleCore

/// An appliance the service follows: its settings for the core and its entity per role.
public struct TrackedAppliance: Sendable, Equatable {
    public var settings: ApplianceSettings
    public var entities: [Role: String]
    /// "config", "discovered", or "config+discovered", for `check` and the logs.
    public var origin: String
    /// HA's device id, when discovery found the appliance's device.
    public var deviceID: String?

    public init(settings: ApplianceSettings, entities: [Role: String], origin: String, deviceID: String? = nil) {
        self.settings = settings
        self.entities = entities
        self.origin = origin
        self.deviceID = deviceID
    }

    public var id: String { settings.id }
}
