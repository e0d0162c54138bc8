import FoundationEssentials

/// Whether a running cycle is going, paused, waiting for the user, or in error (an
/// `error` that may still clear, docs/CYCLES.md "Errors").
enum PauseState: String, Sendable, Codable, Equatable {
    case running, paused, actionRequired, error
}

/// What a running cycle currently looks like: the values a live call shows.
struct CycleView: Sendable, Codable, Equatable {
    /// The last progress reported during the cycle, kept when the sensor goes
    /// unavailable so the bar doesn't vanish; nil until some progress (0 included)
    /// was reported.
    var progress: Int?
    /// The finish time to show: the one currently reported, shifted by the finish-time
    /// correction when there is one; nil when the sensor has none.
    var finishTime: Date?
    /// The finish time currently reported, as it was when `finishTime` was worked out.
    var reportedFinish: Date?
    /// The latest program key known during the cycle.
    var program: String?
    /// The latest temperature known during the cycle.
    var temperature: Double?
    var temperatureUnit: String?
    /// The brand's latest phase (rinse, spin, drying) during the cycle.
    var phase: String?
    var pause: PauseState = .running
    /// False while the operation state is unavailable or unknown.
    var available = true
}
