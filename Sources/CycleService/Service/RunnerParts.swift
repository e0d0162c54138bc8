import CycleHistory
import FoundationEssentials

/// What a ``Runner`` works with and never replaces, made once when it starts: its
/// options, the store with the recorder that writes the household's decisions to it,
/// the sender of the recorded calls and the poster of HA's states and events, where
/// HA's states and events come from, the clock, the log, and how discovery runs again.
struct RunnerParts {
    let options: Runner.Options
    let store: HistoryStore
    let recorder: CycleRecorder
    let sender: CallSender
    /// Posts to HA's REST API (states, events); nil without a surface (`entities` off).
    let poster: HomeAssistantPoster?
    let source: any ApplianceStateSource
    /// HA's events; nil in poll mode.
    let events: (any ApplianceEventSource)?
    let clock: any ServiceClock
    let log: Log
    let rediscover: (@Sendable () async -> [TrackedAppliance]?)?
}
