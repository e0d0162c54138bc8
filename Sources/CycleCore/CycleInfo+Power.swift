import FoundationEssentials

extension CycleInfo {
    /// Adds the energy drawn since the last power reading (trapezoid rule) and keeps this
    /// one. A missing reading adds nothing and keeps the last one; time never runs backwards.
    mutating func integratePower(_ observation: Observation) {
        guard let watts = observation.power, watts >= 0 else { return }
        if let lastAt = lastPowerAt, let lastWatts = lastPowerWatts {
            let seconds = observation.at.timeIntervalSince(lastAt)
            if seconds > 0 {
                energyIntegrated = (energyIntegrated ?? 0) + (lastWatts + watts) / 2 * seconds / 3_600_000
            }
        } else {
            energyIntegrated = energyIntegrated ?? 0
        }
        lastPowerAt = observation.at
        lastPowerWatts = watts
    }

    /// The energy counter reading the store keeps for the start: the counter's, else 0
    /// when the energy is integrated from power.
    public var recordedEnergyStart: Double? {
        energyAtStart ?? energyIntegrated.map { _ in 0 }
    }

    /// The reading the store keeps for the end: the counter's, else the integrated kWh.
    public var recordedEnergyEnd: Double? {
        energyAtStart != nil ? energyLatest : energyIntegrated
    }
}
