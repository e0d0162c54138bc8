/// How a smart plug's power readings become a cycle (`power` in the configuration,
/// docs/CYCLES.md, "Smart plugs"). The defaults suit a washer, whose soak pauses last a
/// few minutes; a dishwasher that dries for 20 minutes drawing nothing needs a longer
/// `offSeconds` (1800).
public struct PowerSettings: Sendable, Equatable, Codable {
    /// Watts above which the appliance is drawing for a cycle.
    public var onWatts: Double = 5
    /// How long the power must stay above `onWatts` before a cycle starts.
    public var startSeconds: Double = 60
    /// Watts below which the appliance is idle.
    public var offWatts: Double = 2
    /// How long the power must stay below `offWatts` before the cycle ends.
    public var offSeconds: Double = 300

    public init() {}
}
