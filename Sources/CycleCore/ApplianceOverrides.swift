/// The settings of one appliance changed at run time (through the local API, kept in
/// the history), over the configuration's: each key not set keeps the configured value
/// (docs/API.md, "Settings").
public struct ApplianceOverrides: Sendable, Equatable {
    public var steps: ProgressSteps?
    /// The declared tunable settings changed (`ApplianceSetting.tunables`), by key.
    public var values: [String: ApplianceSetting.Value]

    /// The keys as the API and the store name them, in this order: `progress_steps`, then
    /// the declared tunable settings.
    public static var keys: [String] { ["progress_steps"] + ApplianceSetting.tunables.map(\.key) }

    public init(steps: ProgressSteps? = nil, values: [String: ApplianceSetting.Value] = [:]) {
        self.steps = steps
        self.values = values
    }

    /// No key overridden.
    public var isEmpty: Bool { self == ApplianceOverrides() }

    /// The keys overridden, as named in `keys`.
    public var overridden: Set<String> { Set(values.keys).union(steps == nil ? [] : ["progress_steps"]) }

    /// `base` with every overridden key replaced.
    public func applied(to base: ApplianceSettings) -> ApplianceSettings {
        var settings = base
        if let steps { settings.steps = steps }
        for setting in ApplianceSetting.all {
            if let value = values[setting.key] { setting.set(value, in: &settings) }
        }
        return settings
    }

    /// These overrides with every key `newer` sets taken from it.
    public func merging(_ newer: ApplianceOverrides) -> ApplianceOverrides {
        ApplianceOverrides(steps: newer.steps ?? steps, values: values.merging(newer.values) { $1 })
    }
}
