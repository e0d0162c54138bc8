import FoundationEssentials

extension CycleInfo {
    /// Adds the cost of the energy drawn since the previous reading at the price known
    /// then, and takes this observation's price. Call it before the observation's energy
    /// and power are taken into the cycle.
    ///
    /// What HA shows holds until it changes, so both are step functions: the power read
    /// last (watts × seconds) or the energy counter's rise, times the price read last.
    /// Readings that repeat add what one longer step would: the cost of a cycle is the
    /// same from every poll as from the stored changes. No price seen yet: the first one
    /// seen is used.
    mutating func accumulateCost(_ observation: Observation) {
        defer {
            if let latest = observation.price {
                pricePerKWh = latest
                if let currency = observation.priceCurrency { self.currency = currency }
            }
        }
        guard let price = pricePerKWh ?? observation.price else { return }
        var drawn: Double?
        if let counter = observation.energy, let latest = energyLatest {
            drawn = max(counter - latest, 0)
        } else if energyAtStart == nil, observation.power != nil, let watts = lastPowerWatts, let at = lastPowerAt {
            drawn = watts * max(observation.at.timeIntervalSince(at), 0) / 3_600_000
        } else if observation.energy != nil || observation.power != nil {
            drawn = 0
        }
        if let drawn, NumberText.isPlausible(drawn) { cost = (cost ?? 0) + drawn * price }
    }

    /// What the cycle's energy cost: from the price entity's prices when one was read
    /// while it ran, else its energy at the fixed price (per kWh); nil without either.
    public func cost(fixedPrice: Double?) -> Double? {
        if let cost { return cost }
        guard let fixedPrice, let energy = energyUsed, energy >= 0 else { return nil }
        return energy * fixedPrice
    }
}
