import CycleCore
import FoundationEssentials

/// The numbers `stats` and the history page show for one group of cycles.
public struct CycleStatistics: Equatable, Sendable {
    /// Every cycle in the group, open ones included.
    public var cycles: Int
    /// Cycles that ended `finished`.
    public var finished: Int
    /// Median and 90th percentile (nearest rank) of the durations of ended cycles, seconds.
    public var medianDuration: TimeInterval?
    public var p90Duration: TimeInterval?
    /// Median of (actual end − first predicted finish), seconds, over finished cycles
    /// that had a prediction. Positive: the cycle ran over its first estimate;
    /// negative: it finished early.
    public var medianEstimateError: TimeInterval?
    /// Median of the absolute estimate errors over the same cycles, without and with the
    /// finish-time correction (leave-one-out, `CorrectedEstimates`): what the correction gains.
    public var medianAbsEstimateError: TimeInterval?
    public var medianAbsCorrectedError: TimeInterval?
    /// Median and maximum of the calls per cycle.
    public var medianPushes: Double?
    public var maxPushes: Int?
    /// Median and total of the energy per cycle, kWh, over cycles where it was recorded.
    public var medianEnergy: Double?
    public var totalEnergy: Double?
    /// Cost per cycle (median) and in total, over the cycles whose cost is known.
    public var medianCost: Double?
    public var totalCost: Double?
    /// The currency of those costs when they share one (nil when none is named, or mixed).
    public var currency: String?

    /// The figures of a group gathered as the rows stream by, with nothing else kept.
    public struct Accumulator: Sendable {
        fileprivate var cycles = 0
        fileprivate var finished = 0
        fileprivate var durations: [Double] = []
        fileprivate var estimateErrors: [Double] = []
        fileprivate var absErrors: [Double] = []
        fileprivate var absCorrectedErrors: [Double] = []
        fileprivate var pushes: [Double] = []
        fileprivate var energy: [Double] = []
        fileprivate var costs: [Double] = []
        fileprivate var currencies: Set<String?> = []

        public init() {}

        public mutating func add(_ cycle: CycleFigures) {
            cycles += 1
            if cycle.finished { finished += 1 }
            if let duration = cycle.duration { durations.append(duration) }
            if let error = cycle.estimateError { estimateErrors.append(error) }
            pushes.append(Double(cycle.pushes))
            if let kWh = cycle.energyKWh { energy.append(kWh) }
            if let cost = cycle.cost {
                costs.append(cost)
                currencies.insert(cycle.currency)
            }
        }

        /// Estimate errors of the group's cycles without and with the correction, once all are read.
        public mutating func addEstimates(plain: [Double], corrected: [Double]) {
            absErrors += plain.lazy.map(abs)
            absCorrectedErrors += corrected.lazy.map(abs)
        }
    }

    public init(_ group: Accumulator) {
        cycles = group.cycles
        finished = group.finished
        let durations = group.durations.sorted()
        medianDuration = Self.median(sorted: durations)
        p90Duration = Self.nearestRank(90, ofSorted: durations)
        medianEstimateError = Self.median(sorted: group.estimateErrors.sorted())
        medianAbsEstimateError = Self.median(selecting: group.absErrors)
        medianAbsCorrectedError = Self.median(selecting: group.absCorrectedErrors)
        let pushes = group.pushes.sorted()
        medianPushes = Self.median(sorted: pushes)
        maxPushes = pushes.last.flatMap { NumberText.int($0) }
        let energy = group.energy.sorted()
        medianEnergy = Self.median(sorted: energy)
        totalEnergy = energy.isEmpty ? nil : energy.reduce(0, +)
        let costs = group.costs.sorted()
        medianCost = Self.median(sorted: costs)
        totalCost = costs.isEmpty ? nil : costs.reduce(0, +)
        currency = group.currencies.count == 1 ? group.currencies.first ?? nil : nil
    }

    /// The middle value; the mean of the two middle values for an even count.
    public static func median(_ values: [Double]) -> Double? { median(sorted: values.sorted()) }

    public static func median(sorted: [Double]) -> Double? {
        guard !sorted.isEmpty else { return nil }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// The same as `median`, found by selection rather than a sort: `stats` at 100,000
    /// cycles has two more columns of medians and no time for two more sorts.
    static func median(selecting values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        var values = values
        let middle = values.count / 2
        let upper = select(middle, in: &values)
        guard values.count % 2 == 0 else { return upper }
        // After selecting, everything before `middle` is at most `upper`: the lower middle is their maximum.
        return ((values[..<middle].max() ?? upper) + upper) / 2
    }

    /// The `k`-th smallest of `values` (0-based), leaving smaller ones before it and
    /// larger ones after (Hoare's selection, middle pivot).
    private static func select(_ k: Int, in values: inout [Double]) -> Double {
        var low = 0
        var high = values.count - 1
        while low < high {
            let pivot = values[(low + high) / 2]
            var left = low
            var right = high
            while left <= right {
                while values[left] < pivot { left += 1 }
                while values[right] > pivot { right -= 1 }
                if left <= right {
                    values.swapAt(left, right)
                    left += 1
                    right -= 1
                }
            }
            if k <= right { high = right } else if k >= left { low = left } else { break }
        }
        return values[k]
    }

    /// The nearest-rank percentile: the smallest value with at least `percent`% of
    /// the values at or below it (rank ⌈percent/100 × n⌉).
    public static func nearestRank(_ percent: Int, of values: [Double]) -> Double? { nearestRank(percent, ofSorted: values.sorted()) }

    public static func nearestRank(_ percent: Int, ofSorted sorted: [Double]) -> Double? {
        guard !sorted.isEmpty else { return nil }
        let rank = (percent * sorted.count + 99) / 100
        return sorted[max(rank, 1) - 1]
    }
}
