import FoundationEssentials

/// What kind of appliance a smart plug follows, read from its name as the icon is
/// (docs/PLUGS.md, "The kinds"): it chooses how a rest inside a cycle is told from the end.
public enum PlugKind: String, Sendable, Codable, CaseIterable {
    case washer
    case dryer
    case dishwasher
    case washerDryer = "washer_dryer"
    /// Anything else (a kettle, an oven): the washer's rules.
    case other

    /// From the appliance's id and name (`dishwasherWords`, `washerWords`, `dryerWords`);
    /// `other` when neither says.
    public static func of(id: String, name: String) -> PlugKind {
        let text = (id + " " + name).lowercased()
        let has: ([String]) -> Bool = { words in words.contains { text.contains($0) } }
        if has(dishwasherWords) { return .dishwasher }
        let washes = has(washerWords)
        let dries = has(dryerWords)
        if washes && dries { return .washerDryer }
        if washes { return .washer }
        if dries { return .dryer }
        return .other
    }

    /// Words of a dishwasher's name (English, German, Dutch, French, Italian, Swedish).
    public static let dishwasherWords = ["dish", "geschirr", "spül", "vaatwas", "vaisselle", "lavastovigl", "diskmaskin"]
    /// Words of a washer's name.
    public static let washerWords = ["wash", "wasch", "wasmachine", "lave-linge", "lavatrice", "tvätt"]
    /// Words of a dryer's name.
    public static let dryerWords = ["dry", "dries", "trockn", "droger", "sèche", "seche", "asciug", "tork"]

    /// How long a rest above standby (a soak, a pause, drying) may last inside a cycle of a
    /// plug that has learned no rest of its own yet, for `off_seconds` `off` (300 s: the
    /// times in docs/PLUGS.md).
    func restWait(off: Double) -> Double {
        switch self {
        case .dishwasher: off * 8  // 40 min: drying, silent or at 0.5-1 W, up to 35 minutes
        case .dryer: off  // 5 min: a dryer doesn't rest, cooling down is a load
        case .washer, .washerDryer, .other: off * 1.8  // 9 min: soaks of up to 7 minutes
        }
    }

    /// A learned rest waits this many times its length, and a minute more: the longest of the
    /// last 10 cycles is already the most the appliance rested.
    static let learnedRestMargin = 1.1

    /// The least a rest above standby may last inside a cycle, whatever was learned.
    func shortestRestWait(off: Double) -> Double { self == .dishwasher ? off * 2 : restWait(off: off) }
}

/// What a smart plug has shown of itself (docs/PLUGS.md, "What cycletrack learns"):
/// its standby level from the readings between cycles, how often it reports, and the
/// rests inside its finished cycles. Learned as readings come (it is part of the
/// appliance's saved state, so it survives a restart) and shown by `cycletrack check`.
public struct PlugSignature: Sendable, Codable, Equatable {
    /// The mean power between cycles, in watts (time-weighted, over about the last half hour
    /// of idle readings); nil before the first idle reading.
    public internal(set) var standbyWatts: Double?
    /// Seconds between two readings, as the plug reports while something happens.
    public internal(set) var intervalSeconds: Double?
    /// Finished cycles seen.
    public internal(set) var cycles = 0
    /// The longest rest followed by more of the cycle, in each of the latest cycles (newest last).
    public internal(set) var rests: [Double] = []
    /// Whether the latest finished cycle ended with a pump-out after a silent rest (a dishwasher).
    public internal(set) var pumpOut: Bool?

    public init() {}

    /// How many cycles' rests count.
    static let keptRests = 10
    /// How fast the standby level follows the idle readings.
    static let standbySeconds: Double = 1800

    /// The longest rest of the latest cycles, if one was seen.
    public var longestRest: Double? { rests.max() }

    /// Takes one idle reading's mean level `watts`, held for `seconds`.
    mutating func idle(_ watts: Double, for seconds: Double) {
        guard let standby = standbyWatts else {
            standbyWatts = watts
            return
        }
        let held = max(0, seconds)
        let weight = held / (held + Self.standbySeconds)
        standbyWatts = standby + (watts - standby) * weight
    }

    /// Takes the time since the previous reading. Only gaps of up to 90 s count: a plug that
    /// reports on change says nothing while the power holds, which is no interval.
    mutating func gap(_ seconds: Double) {
        guard seconds > 0, seconds <= 90 else { return }
        // Quick to follow a plug reporting faster, slow to follow a pause.
        intervalSeconds = intervalSeconds.map { $0 + (seconds - $0) * (seconds < $0 ? 0.5 : 0.1) } ?? seconds
    }

    /// A cycle finished with `rest` its longest rest followed by more of it.
    mutating func finished(rest: Double?, pumpOut: Bool) {
        cycles += 1
        if let rest, rest > 0 { rests = Array((rests + [rest]).suffix(Self.keptRests)) }
        self.pumpOut = pumpOut
    }
}

/// The power levels a plug's readings are read against, from its settings and signature.
struct PlugLevels: Equatable {
    /// At or below: the appliance is at standby (off, or its display only).
    var standby: Double
    /// Above: the appliance draws something (a start may be under way).
    var active: Double
    /// A mean below: the appliance rests; a reading at or above: a load.
    var rest: Double
    /// A reading at or above: the appliance works (a motor, a pump, a heater).
    var work: Double
    /// Seconds of readings the mean is taken over.
    var window: Double

    init(_ settings: PowerSettings, _ signature: PlugSignature) {
        let level = signature.standbyWatts ?? 0
        standby = max(settings.zeroWatts, level * 1.5 + 0.3)
        active = max(settings.onWatts, standby + 2)
        rest = max(settings.offWatts * 5, standby + 5)
        work = max(settings.onWatts * 6, rest * 2)
        window = min(180, max(60, 3 * (signature.intervalSeconds ?? 20)))
    }
}

extension PlugSignature {
    /// One line saying what was learned, for `cycletrack check`: the standby level, the
    /// reporting interval, the finished cycles and their longest rest.
    public func summary(kind: PlugKind) -> String {
        var parts = ["kind \(kind.rawValue)"]
        parts.append(standbyWatts.map { "standby \(NumberText.fixed($0, decimals: 1)) W" } ?? "standby not seen yet")
        parts.append(intervalSeconds.map { "a reading every \(NumberText.fixed($0, decimals: 0)) s" } ?? "reporting interval not seen yet")
        parts.append("\(cycles) cycle\(cycles == 1 ? "" : "s") seen")
        if let longestRest { parts.append("longest rest \(NumberText.fixed(longestRest / 60, decimals: 1)) min") }
        if let pumpOut { parts.append(pumpOut ? "ends with a pump-out" : "ends without a pump-out") }
        return parts.joined(separator: ", ")
    }
}
