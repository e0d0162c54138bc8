import CycleCore

/// A change of settings through the API.
public enum SettingsChange: Sendable, Equatable {
    /// These keys, over what was changed before.
    case set(ApplianceOverrides)
    /// Every change dropped: the configuration's settings again.
    case reset
}
