import FoundationEssentials

/// Reads a smart plug's power readings as an operation state (docs/CYCLES.md, "Smart
/// plugs"; docs/PLUGS.md). A value, with time only from the observations and the
/// deadlines it is asked about, so that `replay` and `run` see the same cycles.
///
/// - A cycle starts once the power has stayed above `on_watts` for `start_seconds`; it
///   started at the first reading above (`transitionAt`).
/// - While it runs, a reading below `off_watts` begins a rest. A load above `on_watts`
///   shorter than `burst_seconds` inside a rest is a burst (a dryer's anti-crease turn):
///   the rest goes on. Readings between the two thresholds change nothing.
/// - A rest ends the cycle when the power has been at `zero_watts` or below for
///   `off_seconds` (off for good: the cycle ended at the first such reading); when, with
///   bursts in it, it has lasted `off_seconds` (the cycle ended when the rest began: the
///   drying load stopped); or when it has lasted longer than the appliance's longest rest
///   inside a cycle, learned from its history (`quiet_seconds` until there is one).
/// - Bursts up to `burst_window_seconds` after an end don't start a cycle.
struct PowerCycleDetector: Sendable, Codable, Equatable {
    /// Whether the plug's appliance is in a cycle.
    private(set) var running = false
    /// While idle: the first reading of the load now above `on_watts`.
    private var aboveSince: Date?
    /// While running: the first reading of the rest now under way (bursts don't end it).
    private var restSince: Date?
    /// While resting: the first reading of the stretch at `zero_watts` or below.
    private var zeroSince: Date?
    /// While resting: the first reading of a load that may yet be a burst.
    private var loadSince: Date?
    /// Bursts in the rest under way.
    private var restBursts = 0
    /// When the last start or end really happened: the load's first reading, the rest's.
    private(set) var transitionAt: Date?
    /// The open cycle's longest rest followed by more of the cycle, in seconds.
    private(set) var longestRest: Double?
    /// When the last cycle ended, for telling its bursts from a new cycle.
    private var endedAt: Date?
    /// Bursts recognised after the last end (a dryer's anti-crease turns).
    private(set) var burstsAfterEnd = 0
    /// The last observation's states, read again at a deadline.
    private var lastRaw: [Role: String] = [:]
    private var lastUnits: [Role: String] = [:]

    init() {}

    private enum CodingKeys: String, CodingKey {
        case running, aboveSince, restSince, zeroSince, loadSince, restBursts, transitionAt, longestRest, endedAt
        case burstsAfterEnd, lastRaw, lastUnits
        case belowSince  // before version 0.6: the rest under way
    }

    /// Snapshots saved before rests and bursts were told apart decode too (`belowSince` is the rest).
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        running = try container.decodeIfPresent(Bool.self, forKey: .running) ?? false
        aboveSince = try container.decodeIfPresent(Date.self, forKey: .aboveSince)
        restSince = try container.decodeIfPresent(Date.self, forKey: .restSince)
            ?? container.decodeIfPresent(Date.self, forKey: .belowSince)
        zeroSince = try container.decodeIfPresent(Date.self, forKey: .zeroSince)
        loadSince = try container.decodeIfPresent(Date.self, forKey: .loadSince)
        restBursts = try container.decodeIfPresent(Int.self, forKey: .restBursts) ?? 0
        transitionAt = try container.decodeIfPresent(Date.self, forKey: .transitionAt)
        longestRest = try container.decodeIfPresent(Double.self, forKey: .longestRest)
        endedAt = try container.decodeIfPresent(Date.self, forKey: .endedAt)
        burstsAfterEnd = try container.decodeIfPresent(Int.self, forKey: .burstsAfterEnd) ?? 0
        lastRaw = try container.decodeIfPresent([Role: String].self, forKey: .lastRaw) ?? [:]
        lastUnits = try container.decodeIfPresent([Role: String].self, forKey: .lastUnits) ?? [:]
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(running, forKey: .running)
        try container.encodeIfPresent(aboveSince, forKey: .aboveSince)
        try container.encodeIfPresent(restSince, forKey: .restSince)
        try container.encodeIfPresent(zeroSince, forKey: .zeroSince)
        try container.encodeIfPresent(loadSince, forKey: .loadSince)
        try container.encode(restBursts, forKey: .restBursts)
        try container.encodeIfPresent(transitionAt, forKey: .transitionAt)
        try container.encodeIfPresent(longestRest, forKey: .longestRest)
        try container.encodeIfPresent(endedAt, forKey: .endedAt)
        try container.encode(burstsAfterEnd, forKey: .burstsAfterEnd)
        try container.encode(lastRaw, forKey: .lastRaw)
        try container.encode(lastUnits, forKey: .lastUnits)
    }

    /// When the reading changes without a new observation: a start or an end confirmed,
    /// or a load that outlasted a burst. `learnedRest`: the appliance's longest rest.
    func deadline(_ settings: PowerSettings, learnedRest: Double? = nil) -> Date? {
        guard running else { return aboveSince?.addingTimeInterval(startWait(settings)) }
        guard let restSince else { return nil }
        var due = [restSince.addingTimeInterval(settings.quietWait(learnedRest: learnedRest))]
        if let zeroSince { due.append(zeroSince.addingTimeInterval(settings.offSeconds)) }
        if restBursts > 0 { due.append(restSince.addingTimeInterval(settings.offSeconds)) }
        if let loadSince { due.append(loadSince.addingTimeInterval(settings.burstSeconds)) }
        return due.min()
    }

    /// `observation` with the operation state its power says. No power reading is
    /// "unavailable", as for a brand's state entity.
    mutating func read(_ observation: Observation, settings: PowerSettings, learnedRest: Double? = nil) -> Observation {
        lastRaw = observation.raw
        lastUnits = observation.units
        var read = observation
        guard let watts = observation.power else {
            // As for a state entity: what was under way doesn't carry over an outage.
            aboveSince = nil
            restSince = nil
            zeroSince = nil
            loadSince = nil
            restBursts = 0
            read.operation = .unavailable
            return read
        }
        let at = observation.at
        if running {
            rest(watts, at: at, settings: settings, learnedRest: learnedRest)
        } else if watts > settings.onWatts {
            let since = aboveSince ?? at
            aboveSince = since
            if at.timeIntervalSince(since) >= startWait(settings) { start(at: since) }
        } else {
            if aboveSince != nil, let endedAt, at.timeIntervalSince(endedAt) < settings.burstWindowSeconds {
                burstsAfterEnd += 1
            }
            aboveSince = nil
        }
        read.operation = .known(state)
        return read
    }

    /// The observation a deadline at `date` makes: the last states again, at `date`, with
    /// the start or the end confirmed. Nil when nothing is due by then, or when what fell
    /// due was only a load outlasting a burst (the cycle runs on).
    mutating func expire(at date: Date, settings: PowerSettings, learnedRest: Double? = nil) -> Observation? {
        guard let due = deadline(settings, learnedRest: learnedRest), due <= date else { return nil }
        if !running {
            start(at: aboveSince ?? due)
        } else if let loadSince, loadSince.addingTimeInterval(settings.burstSeconds) == due {
            resume(at: loadSince)
            return nil
        } else {
            end(at: endTime(settings, due: due))
        }
        var observation = Observation(at: date, raw: lastRaw, units: lastUnits, profile: .plug)
        observation.operation = .known(state)
        return observation
    }

    /// Idle is `inactive`: it ends a running cycle as finished and never starts one.
    private var state: OperationState { running ? .run : .inactive }

    /// Right after a cycle, a load must outlast a burst before it is a new cycle.
    private func startWait(_ settings: PowerSettings) -> Double {
        guard let endedAt, let aboveSince,
              aboveSince.timeIntervalSince(endedAt) < settings.burstWindowSeconds else { return settings.startSeconds }
        return max(settings.startSeconds, settings.burstSeconds)
    }

    /// A running cycle's reading: a rest begins, goes on or ends.
    private mutating func rest(_ watts: Double, at: Date, settings: PowerSettings, learnedRest: Double?) {
        guard restSince != nil else {
            if watts < settings.offWatts { startRest(watts, at: at, settings: settings) }
            return
        }
        if watts > settings.onWatts {
            let since = loadSince ?? at
            loadSince = since
            if at.timeIntervalSince(since) >= settings.burstSeconds { resume(at: since) }
            return
        }
        if let since = loadSince {
            loadSince = nil
            guard at.timeIntervalSince(since) < settings.burstSeconds else {
                resume(at: since)
                if watts < settings.offWatts { startRest(watts, at: at, settings: settings) }
                return
            }
            restBursts += 1
        }
        if watts <= settings.zeroWatts {
            if zeroSince == nil { zeroSince = at }
        } else if watts < settings.offWatts {
            zeroSince = nil
        }
        if let due = deadline(settings, learnedRest: learnedRest), due <= at {
            end(at: endTime(settings, due: due))
        }
    }

    private mutating func startRest(_ watts: Double, at: Date, settings: PowerSettings) {
        restSince = at
        zeroSince = watts <= settings.zeroWatts ? at : nil
        restBursts = 0
        loadSince = nil
    }

    /// When the cycle ended, for an end falling due at `due`: at the first reading of the
    /// rest when it had bursts or outlasted every rest the appliance knows, else at the
    /// first reading at zero.
    private func endTime(_ settings: PowerSettings, due: Date) -> Date {
        guard let restSince else { return due }
        if restBursts == 0, let zeroSince, zeroSince.addingTimeInterval(settings.offSeconds) <= due { return zeroSince }
        return restSince
    }

    /// A load outlasted a burst: the rest was part of the cycle.
    private mutating func resume(at loadStart: Date) {
        if let restSince { longestRest = max(longestRest ?? 0, loadStart.timeIntervalSince(restSince)) }
        restSince = nil
        zeroSince = nil
        loadSince = nil
        restBursts = 0
    }

    private mutating func start(at since: Date) {
        running = true
        transitionAt = since
        aboveSince = nil
        longestRest = nil
        endedAt = nil
        burstsAfterEnd = 0
        restSince = nil
        zeroSince = nil
        loadSince = nil
    }

    private mutating func end(at time: Date) {
        // A quiet stretch before the power fell to zero (a dishwasher's drying) was inside the cycle.
        if let restSince, time > restSince { longestRest = max(longestRest ?? 0, time.timeIntervalSince(restSince)) }
        running = false
        transitionAt = time
        endedAt = time
        burstsAfterEnd = restBursts
        aboveSince = nil
        restSince = nil
        zeroSince = nil
        loadSince = nil
        restBursts = 0
    }
}
