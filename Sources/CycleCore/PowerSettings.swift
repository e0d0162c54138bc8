/// How a smart plug's power readings become a cycle (`power` in the configuration,
/// docs/CYCLES.md, "Smart plugs"; docs/PLUGS.md). The defaults suit washers, dryers and
/// dishwashers alike: what differs between them (a soak, a drying phase, anti-crease
/// bursts) is told by the power itself or learned from the appliance's own cycles.
public struct PowerSettings: Sendable, Equatable, Codable {
    /// Watts above which the appliance is drawing for a cycle.
    public var onWatts: Double = 5
    /// How long the power must stay above `onWatts` before a cycle starts (it starts at
    /// the first reading above).
    public var startSeconds: Double = 60
    /// Watts below which the appliance rests (a soak, drying, or done).
    public var offWatts: Double = 2
    /// How long the power must stay at `zeroWatts` or below (off for good) before the
    /// cycle ends; also how long a rest with anti-crease bursts lasts before it ends.
    public var offSeconds: Double = 300
    /// Watts at or below which the appliance draws nothing: switched off.
    public var zeroWatts: Double = 0.5
    /// How long a rest above `zeroWatts` (a soak, drying) may last before the cycle ends,
    /// until the appliance's own longest rest is learned (`LearnedDurations.longestRest`).
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

    /// How long a quiet rest may last: the learned longest rest with room to spare, else `quietSeconds`.
    func quietWait(learnedRest: Double?) -> Double {
        guard let learnedRest, learnedRest > 0 else { return quietSeconds }
        return learnedRest * 1.25 + 60
    }
}
