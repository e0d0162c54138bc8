import CycleCore

/// A command from the local API for the runner.
public enum RunnerCommand: Sendable, Equatable {
    /// Change one appliance's settings: the given keys, or back to the configuration.
    case changeSettings(applianceID: String, SettingsChange)
    /// End one appliance's Live Activity now.
    case endActivity(applianceID: String)
    /// One appliance was unloaded: its unload reminders stop.
    case unloaded(applianceID: String)
    /// Change the household's quiet hours or one person's settings (docs/API.md, "The household").
    case changeDelivery(DeliveryChange)
    /// A Home Assistant integration announced itself (true) or was removed (false)
    /// (docs/API.md, "The integration").
    case integration(configured: Bool)
}
