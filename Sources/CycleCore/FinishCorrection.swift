import FoundationEssentials

/// How an appliance's finish estimates turned out, per program: what the world reads
/// from the store at start and hands to the household (docs/PUSHES.md, "Finish-time
/// correction"). The household adds each cycle that finishes after that itself.
public struct FinishHistory: Sendable, Equatable {
    /// Per program key, the estimate errors of its finished cycles, oldest first, in
    /// seconds: the actual end minus the first finish time reported (what `stats` calls
    /// the estimate error); positive when the cycle ran over.
    public var errors: [String: [Double]]
    /// Per program key, how long its finished cycles took, oldest first, in seconds: what
    /// tells a cycle running much longer than usual (docs/PUSHES.md, "Anomalies").
    public var durations: [String: [Double]]

    public init(errors: [String: [Double]] = [:], durations: [String: [Double]] = [:]) {
        self.errors = errors
        self.durations = durations
    }

    /// The correction learned for `program`, seconds; nil without enough history.
    public func learned(_ program: String) -> Double? {
        errors[program].flatMap(FinishCorrection.learned(from:))
    }

    /// Adds a finished cycle's error.
    mutating func add(_ error: Double, program: String) {
        guard NumberText.isPlausible(error) else { return }
        errors[program, default: []].append(error)
    }

    /// How long `program` usually takes; nil without enough finished cycles of it.
    func usual(_ program: String?) -> UsualDuration? {
        program.flatMap { durations[$0] }.flatMap(UsualDuration.init(durations:))
    }

    /// Adds a finished cycle's duration.
    mutating func addDuration(_ seconds: Double, program: String) {
        guard NumberText.isPlausible(seconds), seconds > 0 else { return }
        durations[program, default: []].append(seconds)
    }
}

/// The rule that turns a program's past estimate errors into the finish time shown.
public enum FinishCorrection {
    /// Fewer finished cycles of a program than this give no correction.
    public static let minimumCycles = 3
    /// The shift never exceeds this share of the remaining time the appliance reports.
    public static let maximumShare = 0.25

    /// The median of `errors`, when there are at least `minimumCycles` of them: one
    /// wild cycle does not move a median.
    public static func learned(from errors: [Double]) -> Double? {
        guard errors.count >= minimumCycles else { return nil }
        let sorted = errors.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// The finish time to show for `reported`, seen `at`, in a cycle whose first reported
    /// finish was `firstReported`: the cycle is expected to end `learned` seconds after its
    /// first estimate, so the shift is what the appliance has not yet moved its estimate by
    /// itself (never against the learned direction), at most `maximumShare` of the time
    /// left.
    public static func shown(reported: Date, firstReported: Date, learned: Double, at: Date) -> Date {
        let expected = firstReported.addingTimeInterval(learned)
        var shift = expected.timeIntervalSince(reported)
        shift = learned >= 0 ? max(0, shift) : min(0, shift)
        let bound = maximumShare * max(0, reported.timeIntervalSince(at))
        shift = min(max(shift, -bound), bound)
        return reported.addingTimeInterval(shift)
    }
}
