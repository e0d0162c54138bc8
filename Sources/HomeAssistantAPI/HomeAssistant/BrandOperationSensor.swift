import CycleCore

/// Finds a brand's operation state entity among a device's entities by its `options`
/// (the integration's enum states), never by its id. Electrolux's `applianceState` is a
/// plain string sensor with no options: there the sensor whose current state is one of
/// the brand's states, preferring one that isn't `OFF`, is taken.
enum BrandOperationSensor {
    /// Options that must all be present, per brand (the integrations' sources are cited in
    /// `BrandProfile`'s maps).
    static func required(_ profile: BrandProfile) -> [[String]] {
        switch profile {
        case .homeConnect: [["run", "pause", "finished"]]
        // `running` is the older integration's `in_use`.
        case .miele: [["in_use", "program_ended"], ["running", "program_ended"]]
        case .lgThinQ: [["running", "end"]]
        case .smartThings: [["run", "pause", "stop"]]
        case .whirlpool: [["running_maincycle", "complete"]]
        case .electrolux, .plug: []
        }
    }

    /// What the skip reason says was looked for.
    static func expected(_ profile: BrandProfile) -> String {
        switch profile {
        case .electrolux: return "a sensor whose state is an Electrolux appliance state (Running, Idle, Off, …)"
        case .plug: return "a power sensor"
        default:
            let sets = required(profile).map { $0.joined(separator: ", ") }.joined(separator: " or ")
            return "a sensor whose options include \(sets)"
        }
    }

    /// The operation state entity of a device of `profile`, or nil.
    static func choose(_ candidates: [DiscoveryRecord.Entity], profile: BrandProfile) -> DiscoveryRecord.Entity? {
        let sensors = candidates.filter { $0.domain == "sensor" }
        if profile == .electrolux {
            let known = sensors.filter { entity in
                entity.options == nil && entity.unit == nil
                    && BrandProfile.electroluxStates.keys.contains(BrandProfile.stateKey(entity.state))
            }
            return known.first { BrandProfile.stateKey($0.state) != "off" } ?? known.first
        }
        return sensors.first { entity in
            guard let options = entity.options else { return false }
            return required(profile).contains { $0.allSatisfy(options.contains) }
        }
    }
}
