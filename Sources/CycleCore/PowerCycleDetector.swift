import FoundationEssentials

/// Reads a smart plug's power readings as an operation state (docs/PLUGS.md). A value,
/// with time only from the observations and the deadlines it is asked about, so that
/// `replay` and `run` see the same cycles. The levels are the plug's own (`PlugLevels`:
/// from its standby, learned between cycles, and its settings).
///
/// - A cycle starts once a stretch of readings above `active` has lasted `start_seconds`
///   with a reading at `work` in it (a motor, a pump, a heater: never a display or the
///   wait of a delayed start); it started at the stretch's first reading.
/// - While it runs, readings below `rest` for longer than a reading gap (`tolerance`, so
///   a drum's turns with a reading at 2 W between them are one load) begin a rest.
/// - In a rest, a load shorter than `burst_seconds` is a burst: a dryer's anti-crease
///   turn, a dishwasher's pump-out. A longer one is more of the cycle.
/// - A rest ends the cycle by the appliance's kind (`PlugKind`): after `off_seconds` at
///   standby, or once it has lasted longer than any rest the plug is known to take inside
///   a cycle; a dishwasher's at a pump-out after a silent drying; a dryer's once its
///   rest with anti-crease bursts has lasted `off_seconds`.
struct PowerCycleDetector: Sendable, Codable, Equatable {
    /// Whether the plug's appliance is in a cycle.
    var running = false
    /// When the last start or end really happened: the load's first reading, the rest's.
    var transitionAt: Date?
    /// The open cycle's longest rest followed by more of the cycle, in seconds.
    var longestRest: Double?
    /// Bursts recognised after the last end (a dryer's anti-crease turns).
    var burstsAfterEnd = 0
    /// What the plug has shown of itself: its standby, reporting interval and rests.
    var signature = PlugSignature()
    /// The last reading: when, and its watts.
    var lastAt: Date?
    var lastWatts: Double?
    /// While idle: the first reading of the stretch now above `active`, and whether a reading
    /// of it was at `work`.
    var chainSince: Date?
    var chainWorked = false
    /// While idle: the first reading of a dip below `active` in a stretch that has worked.
    var chainDipSince: Date?
    /// When the last cycle ended, for telling its bursts from a new cycle.
    var endedAt: Date?
    /// While running: the first reading of the stretch now below `rest`.
    var lowSince: Date?
    /// The rest under way (from `lowSince`, once it outlasted a reading gap).
    var restSince: Date?
    /// In a rest: when it was last quiet since (the rest's start, or a burst's end).
    var quietSince: Date?
    /// While running: the first reading of the stretch now at standby.
    var idleSince: Date?
    /// In a rest: the first reading of a load that may yet be a burst, and the first
    /// reading below `rest` after it.
    var loadSince: Date?
    var loadQuietSince: Date?
    /// Seconds the load in a rest was at `rest` or above (its turns, not the gaps between them).
    var loadHeld: Double = 0
    /// While running: the last reading at a heater's draw (`heatWatts`).
    var lastHeatAt: Date?
    /// Bursts in the rest under way; whether one was a pump-out after a silent rest.
    var restBursts = 0
    var pumpedOut = false
    /// The last observation's states, read again at a deadline.
    var lastRaw: [Role: String] = [:]
    var lastUnits: [Role: String] = [:]

    init() {}

    /// A draw at least this high is a heater: a washer doesn't end on its heating, so a rest
    /// right after it is a soak in hot water (docs/PLUGS.md).
    static let heatWatts: Double = 1000


    /// How the plug and its history are read: the settings, its kind, its longest rest
    /// learned from the store (nil: none).
    struct Context {
        var settings: PowerSettings
        var kind: PlugKind
        var learnedRest: Double?

        /// A load in a rest shorter than this is a burst; a dishwasher's pump-out may take 3 minutes.
        var burstSeconds: Double { kind == .dishwasher ? settings.burstSeconds * 2 : settings.burstSeconds }
        /// A load in a rest held for less than this is a flicker (the display, a relay), not a burst (15 s).
        var flickerSeconds: Double { settings.startSeconds / 4 }
        /// A silent rest at least this long before a short load makes it a pump-out (10 minutes).
        var pumpOutQuiet: Double { settings.offSeconds * 2 }
        /// How long a pump-out is followed by standby before the end is sure (3 minutes).
        var pumpOutSettle: Double { settings.offSeconds * 0.6 }
    }

    /// When the reading changes without a new observation: a start or an end confirmed,
    /// a load that outlasted a burst, a burst over.
    func deadline(_ context: Context) -> Date? {
        let levels = PlugLevels(context.settings, signature)
        guard running else {
            guard let chainSince, chainWorked, let lastWatts, lastWatts > levels.active else { return nil }
            return chainSince.addingTimeInterval(startWait(context.settings))
        }
        guard let rest = restSince ?? lowSince else { return nil }
        if let loadSince {
            return loadQuietSince.map { $0.addingTimeInterval(tolerance(context.settings)) }
                ?? loadSince.addingTimeInterval(context.burstSeconds)
        }
        return endDue(rest: rest, context).due
    }

    /// `observation` with the operation state its power says. No power reading is
    /// "unavailable", as for a brand's state entity.
    mutating func read(_ observation: Observation, _ context: Context) -> Observation {
        lastRaw = observation.raw
        lastUnits = observation.units
        var read = observation
        guard let watts = observation.power else {
            // As for a state entity: what was under way doesn't carry over an outage.
            chainSince = nil
            chainWorked = false
            chainDipSince = nil
            lowSince = nil
            restSince = nil
            loadSince = nil
            loadQuietSince = nil
            lastWatts = nil
            read.operation = .unavailable
            return read
        }
        let at = observation.at
        let levels = PlugLevels(context.settings, signature)
        if let lastAt, let lastWatts {
            let gap = at.timeIntervalSince(lastAt)
            if !running, chainSince == nil, lastWatts < levels.rest { signature.idle(lastWatts, for: gap) }
            if running || chainSince != nil { signature.gap(gap) }
            if running, loadSince != nil, lastWatts >= levels.rest { loadHeld += gap }
            // A heater's reading holds until the next one: the heating lasted until now.
            if running, lastWatts >= Self.heatWatts { lastHeatAt = at }
        }
        lastAt = at
        lastWatts = watts
        if running {
            runningRead(watts, at: at, levels: levels, context)
        } else {
            idleRead(watts, at: at, levels: levels, context.settings)
        }
        read.operation = .known(state)
        return read
    }

    /// The observation a deadline at `date` makes: the last states again, at `date`, with
    /// the start or the end confirmed. Nil when nothing is due by then, or when what fell
    /// due changed nothing the phone sees (a load outlasting a burst, a burst over).
    mutating func expire(at date: Date, _ context: Context) -> Observation? {
        guard let due = deadline(context), due <= date else { return nil }
        if !running {
            start(at: chainSince ?? due)
        } else {
            if restSince == nil, let lowSince { beginRest(at: lowSince) }
            if let loadSince {
                guard let quiet = loadQuietSince else {
                    resume(at: loadSince, context)
                    return nil
                }
                burstOver(quietAt: quiet, context)
                return nil
            }
            guard let rest = restSince else { return nil }
            end(at: endDue(rest: rest, context).endedAt, context.kind)
        }
        var observation = Observation(at: date, raw: lastRaw, units: lastUnits, profile: .plug)
        observation.operation = .known(state)
        return observation
    }

    /// Idle is `inactive`: it ends a running cycle as finished and never starts one.
    var state: OperationState { running ? .run : .inactive }

    /// A gap between readings that is still one load (a drum's turn, a pump's pause).
    /// One low reading between two loads is still the load; two in a row (40 s at least:
    /// two thirds of `start_seconds`) are a pause.
    func tolerance(_ settings: PowerSettings) -> Double {
        max(settings.startSeconds * 2 / 3, 1.5 * (signature.intervalSeconds ?? 0))
    }

    /// Right after a cycle, a load must outlast a burst before it is a new cycle.
    private func startWait(_ settings: PowerSettings) -> Double {
        guard let endedAt, let chainSince,
              chainSince.timeIntervalSince(endedAt) < settings.burstWindowSeconds else { return settings.startSeconds }
        return max(settings.startSeconds, settings.burstSeconds)
    }

    /// An idle reading: a stretch above `active` grows (a drum's pause shorter than a reading
    /// gap doesn't break it once it has worked) or breaks; it starts the cycle once long enough.
    private mutating func idleRead(_ watts: Double, at: Date, levels: PlugLevels, _ settings: PowerSettings) {
        let afterEnd = endedAt.map { at.timeIntervalSince($0) < settings.burstWindowSeconds } ?? false
        guard watts > levels.active else {
            // A load that stops right after a cycle's end was a burst (a dryer's anti-crease turn).
            if chainSince != nil, chainDipSince == nil, afterEnd { burstsAfterEnd += 1 }
            if chainWorked, chainSince != nil {
                let dip = chainDipSince ?? at
                chainDipSince = dip
                if at.timeIntervalSince(dip) < tolerance(settings) { return }
            }
            chainSince = nil
            chainWorked = false
            chainDipSince = nil
            return
        }
        if let dip = chainDipSince {
            if at.timeIntervalSince(dip) >= tolerance(settings) {
                chainSince = nil
                chainWorked = false
            } else if afterEnd {
                burstsAfterEnd -= 1  // only a pause in the load
            }
        }
        chainDipSince = nil
        let since = chainSince ?? at
        chainSince = since
        if watts >= levels.work { chainWorked = true }
        if at.timeIntervalSince(since) >= startWait(settings), chainWorked { start(at: since) }
    }

    /// A running cycle's reading: a rest begins, a load in it starts or ends, the cycle ends.
    private mutating func runningRead(_ watts: Double, at: Date, levels: PlugLevels, _ context: Context) {
        if watts >= Self.heatWatts { lastHeatAt = at }
        if watts <= levels.standby {
            if idleSince == nil { idleSince = at }
        } else {
            idleSince = nil
        }
        if restSince == nil, let since = lowSince, at.timeIntervalSince(since) >= tolerance(context.settings) { beginRest(at: since) }
        guard restSince != nil else {
            lowSince = watts >= levels.rest ? nil : (lowSince ?? at)
            return
        }
        if watts >= levels.rest {
            if let quiet = loadQuietSince, at.timeIntervalSince(quiet) >= tolerance(context.settings) { burstOver(quietAt: quiet, context) }
            if loadSince == nil { loadHeld = 0 }
            let since = loadSince ?? at
            loadSince = since
            loadQuietSince = nil
            if at.timeIntervalSince(since) >= context.burstSeconds { resume(at: since, context) }
            return
        }
        if loadSince != nil {
            let quiet = loadQuietSince ?? at
            loadQuietSince = quiet
            guard at.timeIntervalSince(quiet) >= tolerance(context.settings) else { return }
            burstOver(quietAt: quiet, context)
        }
        if let rest = restSince {
            let due = endDue(rest: rest, context)
            if due.due <= at { end(at: due.endedAt, context.kind) }
        }
    }
}

extension PowerCycleDetector {
    private enum LegacyKeys: String, CodingKey {
        case aboveSince  // before version 0.7: the stretch above `on_watts`
        case belowSince  // before version 0.6: the rest under way
    }

    /// Snapshots saved by earlier versions decode too (`aboveSince` is the stretch above,
    /// `belowSince` the rest); what they didn't have starts afresh.
    init(from decoder: any Decoder) throws {
        self.init()
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let legacy = try decoder.container(keyedBy: LegacyKeys.self)
        running = try container.decodeIfPresent(Bool.self, forKey: .running) ?? false
        transitionAt = try container.decodeIfPresent(Date.self, forKey: .transitionAt)
        longestRest = try container.decodeIfPresent(Double.self, forKey: .longestRest)
        burstsAfterEnd = try container.decodeIfPresent(Int.self, forKey: .burstsAfterEnd) ?? 0
        signature = try container.decodeIfPresent(PlugSignature.self, forKey: .signature) ?? PlugSignature()
        lastAt = try container.decodeIfPresent(Date.self, forKey: .lastAt)
        lastWatts = try container.decodeIfPresent(Double.self, forKey: .lastWatts)
        chainSince = try container.decodeIfPresent(Date.self, forKey: .chainSince)
            ?? legacy.decodeIfPresent(Date.self, forKey: .aboveSince)
        chainWorked = try container.decodeIfPresent(Bool.self, forKey: .chainWorked) ?? (chainSince != nil)
        chainDipSince = try container.decodeIfPresent(Date.self, forKey: .chainDipSince)
        endedAt = try container.decodeIfPresent(Date.self, forKey: .endedAt)
        lowSince = try container.decodeIfPresent(Date.self, forKey: .lowSince)
        restSince = try container.decodeIfPresent(Date.self, forKey: .restSince)
            ?? legacy.decodeIfPresent(Date.self, forKey: .belowSince)
        quietSince = try container.decodeIfPresent(Date.self, forKey: .quietSince) ?? restSince
        idleSince = try container.decodeIfPresent(Date.self, forKey: .idleSince)
        loadSince = try container.decodeIfPresent(Date.self, forKey: .loadSince)
        loadQuietSince = try container.decodeIfPresent(Date.self, forKey: .loadQuietSince)
        restBursts = try container.decodeIfPresent(Int.self, forKey: .restBursts) ?? 0
        pumpedOut = try container.decodeIfPresent(Bool.self, forKey: .pumpedOut) ?? false
        loadHeld = try container.decodeIfPresent(Double.self, forKey: .loadHeld) ?? 0
        lastHeatAt = try container.decodeIfPresent(Date.self, forKey: .lastHeatAt)
        lastRaw = try container.decodeIfPresent([Role: String].self, forKey: .lastRaw) ?? [:]
        lastUnits = try container.decodeIfPresent([Role: String].self, forKey: .lastUnits) ?? [:]
    }
}
