/// Who recorded a cycle: the raw values are what the `cycles.source` column holds.
public enum CycleSource: String, Sendable, CaseIterable {
    /// `cycletrack run`, from a real Home Assistant.
    case run
    /// `cycletrack replay --record`: calls planned, never sent.
    case replay
    /// `cycletrack demo`: simulated appliances.
    case demo
}
