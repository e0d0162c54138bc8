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
    /// Median and maximum of the calls per cycle.
    public var medianPushes: Double?
    public var maxPushes: Int?
    /// Median and total of the energy per cycle, kWh, over cycles where it was recorded.
    public var medianEnergy: Double?
    public var totalEnergy: Double?

    /// The figures of a group gathered as the rows stream by, with nothing else kept.
    public struct Accumulator: Sendable {
        fileprivate var cycles = 0
        fileprivate var finished = 0
        fileprivate var durations: [Double] = []
        fileprivate var estimateErrors: [Double] = []
        fileprivate var pushes: [Double] = []
        fileprivate var energy: [Double] = []

        public init() {}

        public mutating func add(_ cycle: CycleFigures) {
            cycles += 1
            if cycle.finished { finished += 1 }
            if let duration = cycle.duration { durations.append(duration) }
            if let error = cycle.estimateError { estimateErrors.append(error) }
            pushes.append(Double(cycle.pushes))
            if let kWh = cycle.energyKWh { energy.append(kWh) }
        }
    }

    public init(_ group: Accumulator) {
        cycles = group.cycles
        finished = group.finished
        let durations = group.durations.sorted()
        medianDuration = Self.median(sorted: durations)
        p90Duration = Self.nearestRank(90, ofSorted: durations)
        medianEstimateError = Self.median(sorted: group.estimateErrors.sorted())
        let pushes = group.pushes.sorted()
        medianPushes = Self.median(sorted: pushes)
        maxPushes = pushes.last.flatMap { NumberText.int($0) }
        let energy = group.energy.sorted()
        medianEnergy = Self.median(sorted: energy)
        totalEnergy = energy.isEmpty ? nil : energy.reduce(0, +)
    }

    /// The middle value; the mean of the two middle values for an even count.
    public static func median(_ values: [Double]) -> Double? { median(sorted: values.sorted()) }

    public static func median(sorted: [Double]) -> Double? {
        guard !sorted.isEmpty else { return nil }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
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
