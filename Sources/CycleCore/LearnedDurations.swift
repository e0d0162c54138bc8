import FoundationEssentials

/// How long an appliance's cycles take, learned from its own finished cycles
/// (docs/CYCLES.md, "Smart plugs"): the median duration of the last ones, per program
/// where the program is known. The world computes it from the store when it starts
/// following the appliance and hands it to the core as plain values
/// (`ApplianceSettings.learned`); the core never reads the store.
public struct LearnedDurations: Sendable, Equatable, Codable {
    /// Median seconds per program key.
    public var byProgram: [String: Double]
    /// Median seconds over every program (and none).
    public var overall: Double?

    /// A smart plug's longest rest inside any of its latest cycles, in seconds
    /// (`CycleInfo.longestRestSeconds`); nil until one was seen. A rest longer than this
    /// (with room to spare) ends the cycle (docs/PLUGS.md).
    public var longestRest: Double?

    /// How many of the latest finished cycles count, per program and overall.
    public static let lastCycles = 10

    public init(byProgram: [String: Double] = [:], overall: Double? = nil, longestRest: Double? = nil) {
        self.byProgram = byProgram
        self.overall = overall
        self.longestRest = longestRest
    }

    /// Medians of the latest `lastCycles` durations (newest first), per program and overall.
    /// Nil when there is none to learn from. Durations that aren't positive and finite are left out.
    public init?(newestFirst cycles: [(program: String?, seconds: Double)], rests: [Double] = []) {
        let usable = cycles.filter { $0.seconds.isFinite && $0.seconds > 0 }
        guard !usable.isEmpty else { return nil }
        var programs: [String: [Double]] = [:]
        for cycle in usable {
            guard let program = cycle.program else { continue }
            if programs[program, default: []].count < Self.lastCycles { programs[program, default: []].append(cycle.seconds) }
        }
        byProgram = programs.compactMapValues(Self.median)
        overall = Self.median(Array(usable.prefix(Self.lastCycles).map(\.seconds)))
        longestRest = rests.prefix(Self.lastCycles).filter { $0.isFinite && $0 > 0 }.max()
    }

    /// The expected duration of a cycle of `program`: its own median, else the overall one.
    public func seconds(program: String?) -> Double? {
        program.flatMap { byProgram[$0] } ?? overall
    }

    /// The median of `values`; the mean of the middle two for an even count; nil for none.
    public static func median(_ values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count.isMultiple(of: 2) ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
    }

    /// An observation that reports neither a progress nor a finish time, given them from
    /// the learned duration of a cycle that started at `startedAt`: the finish time at the
    /// start plus the median, the progress the share of it elapsed, rounded down and held
    /// at 99% at most (it never reaches 100% on its own, and it never goes backwards, since
    /// time doesn't). Any reported value leaves the observation as it is.
    func estimating(_ observation: Observation, startedAt: Date, program: String?) -> Observation {
        guard observation.progress == nil, observation.finishTime == nil,
              let seconds = seconds(program: program ?? observation.program), seconds > 0 else { return observation }
        var estimated = observation
        estimated.finishTime = startedAt.addingTimeInterval(seconds)
        let share = max(0, observation.at.timeIntervalSince(startedAt)) / seconds
        estimated.progress = NumberText.int(min(0.99, share) * 100, .down)
        return estimated
    }
}
