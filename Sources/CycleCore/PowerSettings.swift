/// How a smart plug's power readings become a cycle (`power` in the configuration,
/// docs/CYCLES.md, "Smart plugs"; docs/PLUGS.md). The defaults suit washers, dryers and
/// dishwashers alike: what differs between them (a soak, a drying phase, anti-crease
/// bursts) is told by the kind (from the name), the plug's learned standby
/// (`PlugLevels`) and the appliance's own cycles. The watts are floors the learned
/// standby raises; the times set the scale of every other time the detector uses.
public struct PowerSettings: Sendable, Equatable, Codable {
    /// Watts above which the appliance draws something; 6 × this is work (a start needs it).
    public var onWatts: Double = 5
    /// How long a stretch above `onWatts` with work in it lasts before a cycle starts (it
    /// started at the stretch's first reading).
    public var startSeconds: Double = 60
    /// 5 × this: watts below which the appliance rests (a soak, drying, or done).
    public var offWatts: Double = 2
    /// How long the power stays at standby before a washer's or dryer's cycle ends; how long
    /// a dryer's rest with anti-crease bursts lasts; the unit of the kinds' rest waits.
    public var offSeconds: Double = 300
    /// Watts at or below which the appliance is at standby (off, or its display).
    public var zeroWatts: Double = 0.5
    /// The longest a rest above standby (a soak, drying) may last inside a cycle, whatever
    /// was learned (`PlugKind.restWait`, `LearnedDurations.longestRest`).
    public var quietSeconds: Double = 3600
    /// A load above `onWatts` shorter than this, after a rest, is a burst (a dryer's
    /// anti-crease turn): it neither ends the rest nor starts a cycle.
    public var burstSeconds: Double = 90
    /// How long after a cycle's end bursts are expected (a dryer's anti-crease phase).
    public var burstWindowSeconds: Double = 1800

    public init() {}

    private enum CodingKeys: String, CodingKey {
        case onWatts, startSeconds, offWatts, offSeconds, zeroWatts, quietSeconds, burstSeconds, burstWindowSeconds
    }

    /// Settings saved before the newer keys existed decode with their defaults.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = PowerSettings()
        onWatts = try container.decodeIfPresent(Double.self, forKey: .onWatts) ?? defaults.onWatts
        startSeconds = try container.decodeIfPresent(Double.self, forKey: .startSeconds) ?? defaults.startSeconds
        offWatts = try container.decodeIfPresent(Double.self, forKey: .offWatts) ?? defaults.offWatts
        offSeconds = try container.decodeIfPresent(Double.self, forKey: .offSeconds) ?? defaults.offSeconds
        zeroWatts = try container.decodeIfPresent(Double.self, forKey: .zeroWatts) ?? defaults.zeroWatts
        quietSeconds = try container.decodeIfPresent(Double.self, forKey: .quietSeconds) ?? defaults.quietSeconds
        burstSeconds = try container.decodeIfPresent(Double.self, forKey: .burstSeconds) ?? defaults.burstSeconds
        burstWindowSeconds = try container.decodeIfPresent(Double.self, forKey: .burstWindowSeconds)
            ?? defaults.burstWindowSeconds
    }
}
