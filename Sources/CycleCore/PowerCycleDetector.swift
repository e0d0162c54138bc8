import FoundationEssentials

/// Reads a smart plug's power readings as an operation state (docs/CYCLES.md, "Smart
/// plugs"): a cycle runs once the power has stayed above `on_watts` for `start_seconds`,
/// and ends once it has stayed below `off_watts` for `off_seconds`. A value, with time
/// only from the observations and the deadlines it is asked about, so that `replay` and
/// `run` see the same cycles. Between the thresholds nothing changes: a soak pause or a
/// silent drying phase shorter than `off_seconds` keeps the cycle running.
struct PowerCycleDetector: Sendable, Codable, Equatable {
    /// Whether the plug's appliance is in a cycle.
    private(set) var running = false
    /// While idle: when the power rose above `on_watts` (nil when it is not above).
    private var aboveSince: Date?
    /// While running: when the power fell below `off_watts` (nil when it is not below).
    private var belowSince: Date?
    /// The last observation's states, read again at a deadline.
    private var lastRaw: [Role: String] = [:]
    private var lastUnits: [Role: String] = [:]

    /// When the reading changes without a new observation: the start or the end confirmed.
    func deadline(_ settings: PowerSettings) -> Date? {
        if running { return belowSince?.addingTimeInterval(settings.offSeconds) }
        return aboveSince?.addingTimeInterval(settings.startSeconds)
    }

    /// `observation` with the operation state its power says. No power reading is
    /// "unavailable", as for a brand's state entity.
    mutating func read(_ observation: Observation, settings: PowerSettings) -> Observation {
        lastRaw = observation.raw
        lastUnits = observation.units
        var read = observation
        guard let watts = observation.power else {
            aboveSince = nil
            belowSince = nil
            read.operation = .unavailable
            return read
        }
        let at = observation.at
        if running {
            if watts < settings.offWatts {
                let since = belowSince ?? at
                belowSince = since
                if at.timeIntervalSince(since) >= settings.offSeconds { end() }
            } else {
                belowSince = nil
            }
        } else if watts > settings.onWatts {
            let since = aboveSince ?? at
            aboveSince = since
            if at.timeIntervalSince(since) >= settings.startSeconds { start() }
        } else {
            aboveSince = nil
        }
        read.operation = .known(state)
        return read
    }

    /// The observation a deadline at `date` makes: the last states again, at `date`, with
    /// the start or the end confirmed. Nil when nothing is due by then.
    mutating func expire(at date: Date, settings: PowerSettings) -> Observation? {
        guard let due = deadline(settings), due <= date else { return nil }
        if running { end() } else { start() }
        var observation = Observation(at: date, raw: lastRaw, units: lastUnits, profile: .plug)
        observation.operation = .known(state)
        return observation
    }

    /// Idle is `inactive`: it ends a running cycle as finished and never starts one.
    private var state: OperationState { running ? .run : .inactive }

    private mutating func start() {
        running = true
        aboveSince = nil
        belowSince = nil
    }

    private mutating func end() {
        running = false
        aboveSince = nil
        belowSince = nil
    }
}
