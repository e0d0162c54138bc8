import CycleHistory
import HomeAssistantAPI
import CycleCore
import FoundationEssentials

/// The only clock the service reads: real time for `run`, accelerated time for `demo`.
/// The core never sees it; it receives times inside events.
public protocol ServiceClock: Sendable {
    func now() -> Date
    /// Sleeps until `deadline` (returns at once if it has passed). Throws when the task is cancelled.
    func sleep(until deadline: Date) async throws
}
