import FoundationEssentials

/// The numbers `stats` shows for one group of cycles.
struct CycleStatistics: Equatable {
    /// Every cycle in the group, open ones included.
    var cycles: Int
    /// Cycles that ended `finished`.
    var finished: Int
    /// Median and 90th percentile (nearest rank) of the durations of ended cycles, seconds.
    var medianDuration: TimeInterval?
    var p90Duration: TimeInterval?
    /// Median of (actual end − first predicted finish), seconds, over finished cycles
    /// that had a prediction. Positive: the cycle ran over its first estimate;
    /// negative: it finished early.
    var medianEstimateError: TimeInterval?
    /// Median and maximum of the calls per cycle.
    var medianPushes: Double?
    var maxPushes: Int?
    /// Median and total of the energy per cycle, kWh, over cycles where it was recorded.
    var medianEnergy: Double?
    var totalEnergy: Double?

    init(_ group: [CycleRecord]) {
        cycles = group.count
        finished = group.filter { $0.outcome == "finished" }.count
        let durations = group.compactMap(\.duration)
        medianDuration = Self.median(durations)
        p90Duration = Self.nearestRank(90, of: durations)
        medianEstimateError = Self.median(group.compactMap { cycle in
            guard cycle.outcome == "finished", let predicted = cycle.firstPredictedFinish, let ended = cycle.endedAt else { return nil }
            return ended.timeIntervalSince(predicted)
        })
        let pushes = group.map(\.pushes)
        medianPushes = Self.median(pushes.map(Double.init))
        maxPushes = pushes.max()
        let energy = group.compactMap(\.energyKWh)
        medianEnergy = Self.median(energy)
        totalEnergy = energy.isEmpty ? nil : energy.reduce(0, +)
    }

    /// The middle value; the mean of the two middle values for an even count.
    static func median(_ values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// The nearest-rank percentile: the smallest value with at least `percent`% of
    /// the values at or below it (rank ⌈percent/100 × n⌉).
    static func nearestRank(_ percent: Int, of values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        let rank = (percent * values.count + 99) / 100
        return values.sorted()[max(rank, 1) - 1]
    }
}
