import FoundationEssentials

/// What makes a running cycle worth an anomaly note (docs/PUSHES.md, "Anomalies"), and
/// which notes it already had: each kind at most once per cycle. Part of the planner, so
/// it is reset at every cycle start and restored with it after a restart.
struct AnomalyWatch: Sendable, Codable, Equatable {
    /// The kinds of anomaly note, each said at most once per cycle.
    enum Kind: String, Sendable, Codable, CaseIterable {
        /// The appliance reports an error mid-cycle (docs/CYCLES.md, "Errors"): an alerting note with its reason.
        case error
        /// The appliance waits for someone (`actionrequired`): an alerting note with its reason.
        case actionRequired = "action required"
        /// Running past its program's usual time: a quiet note on the activity.
        case late = "longer than usual"
        /// Running far past it: an alerting note.
        case farLate = "far longer than usual"
        /// Its progress stopped moving while it runs: an alerting note.
        case stuck = "progress stuck"

        /// Whether the note alerts (a `progress` kind call) or only updates the activity.
        var alerts: Bool { self != .late }
    }

    /// One note due: its kind and message.
    struct Note: Equatable {
        var kind: Kind
        var message: String
        /// "anomaly: action required (door open)", the call's reason (and its `pushes` row's).
        var reason: String
    }

    /// What the planner is told about the cycle beside its view.
    struct Context: Sendable, Equatable {
        /// How long the cycle's program usually takes on this appliance; nil without enough history.
        var usual: UsualDuration?
        /// The door reads open now.
        var doorOpen = false
        /// The appliance's last error event (`ErrorEvent`), whenever it fired.
        var errorEvent: ErrorEvent?

        init(usual: UsualDuration? = nil, doorOpen: Bool = false, errorEvent: ErrorEvent? = nil) {
            self.usual = usual
            self.doorOpen = doorOpen
            self.errorEvent = errorEvent
        }
    }

    /// A progress that stays the same this long while running is stuck; longer for long
    /// programs (`stuckShare` of their usual time). Only for a program with history: a
    /// progress that pauses for long is normal for some.
    static let stuckSeconds: Double = 45 * 60
    static let stuckShare = 0.2

    private(set) var said: Set<Kind> = []
    /// The progress last seen running, and since when it has not moved.
    private var progress: Int?
    private var progressSince: Date?

    /// Takes the view at `now`: the progress stall restarts when the progress moves, and
    /// stops while paused, waiting or unavailable (or when the progress is estimated).
    mutating func see(_ view: CycleView, estimated: Bool, at now: Date) {
        guard view.available, view.pause == .running, !estimated, let value = view.progress else {
            progress = nil
            progressSince = nil
            return
        }
        if value != progress || progressSince == nil {
            progress = value
            progressSince = now
        }
    }

    /// Marks a note as said (sent, or refused by a budget: it is not tried again this cycle).
    mutating func mark(_ kind: Kind) { said.insert(kind) }

    /// The note due at `now`, if any: the first of error, action required, far late, late, stuck.
    func due(view: CycleView, cycle: CycleInfo, context: Context, at now: Date, texts: Texts, name: String) -> Note? {
        if view.pause == .error, !said.contains(.error) {
            return Self.waiting(.error, context: context, cycle: cycle, texts: texts, name: name,
                                plain: texts.errorState, because: texts.errorBecause)
        }
        if view.pause == .actionRequired, !said.contains(.actionRequired) {
            return Self.waiting(.actionRequired, context: context, cycle: cycle, texts: texts, name: name,
                                plain: texts.actionRequired, because: texts.actionRequiredBecause)
        }
        if let usual = context.usual, view.pause == .running {
            let elapsed = now.timeIntervalSince(cycle.startedAt)
            let over = DurationText.format(seconds: elapsed - usual.median, texts: texts)
            let message = Texts.render(texts.longerThanUsual, ["name": name, "duration": over])
            if !said.contains(.farLate), elapsed >= usual.farLateAfter {
                return Note(kind: .farLate, message: message,
                            reason: SupernotifyCall.anomalyMark + "far longer than usual (\(over))")
            }
            if !said.contains(.late), !said.contains(.farLate), elapsed >= usual.lateAfter {
                return Note(kind: .late, message: message, reason: SupernotifyCall.anomalyMark + "longer than usual (\(over))")
            }
        }
        if let since = progressSince, let stall = stuckAfter(context), !said.contains(.stuck),
           now >= since.addingTimeInterval(stall) {
            let still = DurationText.format(seconds: now.timeIntervalSince(since), texts: texts)
            return Note(kind: .stuck, message: Texts.render(texts.progressStuck, ["name": name, "duration": still]),
                        reason: SupernotifyCall.anomalyMark + "progress stuck (\(still))")
        }
        return nil
    }

    /// The note of an appliance that stopped for something (an error, an action required),
    /// with the appliance's own reason where it gives one: its error event of this cycle
    /// (`ErrorEvent`), else the door reading open, else none.
    private static func waiting(_ kind: Kind, context: Context, cycle: CycleInfo, texts: Texts, name: String,
                                plain: String, because: String) -> Note {
        let event = context.errorEvent.flatMap { $0.counts(since: cycle.startedAt) ? $0 : nil }
        let reason = event.map { $0.words(texts) }
            ?? (context.doorOpen ? Texts.render(texts.doorOpen, ["name": name]) : nil)
        let message = reason.map { Texts.render(because, ["name": name, "reason": $0]) }
            ?? Texts.render(plain, ["name": name])
        let said = event.map { " (\($0.englishWords))" } ?? (context.doorOpen ? " (door open)" : "")
        return Note(kind: kind, message: message, reason: SupernotifyCall.anomalyMark + kind.rawValue + said)
    }

    /// When a note falls due without a new reading: the late, far-late or stuck threshold.
    func deadline(cycle: CycleInfo, view: CycleView, context: Context) -> Date? {
        guard view.pause == .running else { return nil }
        var times: [Date] = []
        if let usual = context.usual {
            if !said.contains(.late), !said.contains(.farLate) {
                times.append(cycle.startedAt.addingTimeInterval(usual.lateAfter))
            } else if !said.contains(.farLate) {
                times.append(cycle.startedAt.addingTimeInterval(usual.farLateAfter))
            }
        }
        if let since = progressSince, let stall = stuckAfter(context), !said.contains(.stuck) {
            times.append(since.addingTimeInterval(stall))
        }
        return times.min()
    }

    /// How long a progress may stand still; nil without history of the program.
    private func stuckAfter(_ context: Context) -> Double? {
        context.usual.map { max(Self.stuckSeconds, $0.median * Self.stuckShare) }
    }
}

/// How long a program usually takes on one appliance, from its last finished cycles
/// (`FinishHistory.usual`), and when a cycle of it counts as running long.
struct UsualDuration: Sendable, Equatable {
    /// Fewer finished cycles of a program than this say nothing about it.
    static let minimumCycles = 5
    /// The last finished cycles of a program that count.
    static let lastCycles = 10

    var median: Double
    /// The 90th percentile (nearest rank) of the counted durations.
    var p90: Double

    /// The margin past the p90 that history justifies: the spread between median and p90,
    /// at least a tenth of the median and ten minutes.
    var margin: Double { max(p90 - median, median * 0.1, 600) }
    /// Past this (seconds from the start), a quiet note; past `farLateAfter`, an alerting one.
    var lateAfter: Double { p90 + margin }
    var farLateAfter: Double { p90 + 3 * margin }

    /// From the durations of a program's finished cycles, oldest first; nil with too few.
    init?(durations: [Double]) {
        let counted = durations.suffix(Self.lastCycles).filter { $0.isFinite && $0 > 0 }.sorted()
        guard counted.count >= Self.minimumCycles, let median = LearnedDurations.median(counted) else { return nil }
        self.median = median
        let rank = Int((0.9 * Double(counted.count)).rounded(.up)) - 1
        p90 = counted[min(max(rank, 0), counted.count - 1)]
    }
}
