import FoundationEssentials

/// What an appliance's open cycle looks like now, read-only: what Home Assistant's
/// entity for it and the history page show.
public struct ApplianceStatus: Sendable, Equatable {
    public enum Phase: String, Sendable {
        /// No cycle open.
        case idle
        case running, paused
        case actionRequired = "action_required"
        /// A cycle is open but the appliance doesn't report (it ends as lost if that lasts).
        case unavailable
    }

    public var phase: Phase
    public var progress: Int?
    public var finishTime: Date?
    /// The program key, as HA shows it.
    public var program: String?

    public init(phase: Phase, progress: Int? = nil, finishTime: Date? = nil, program: String? = nil) {
        self.phase = phase
        self.progress = progress
        self.finishTime = finishTime
        self.program = program
    }
}
