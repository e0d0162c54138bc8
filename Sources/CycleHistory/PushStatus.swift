/// Where a Supernotify call stands. The raw values are what the `pushes.status` column holds.
public enum PushStatus: String, Sendable, CaseIterable {
    /// Recorded, not yet handed to Home Assistant.
    case pending
    /// The HTTP call is in flight. Left like this by a crash, it may or may not have reached phones.
    case sending
    /// Home Assistant accepted the call.
    case sent
    /// The call failed (HTTP error, timeout); see `error` and `httpStatus`.
    case failed
    /// Given up on: in flight at a crash (alerting calls go out at most once), or
    /// planned but stale at a restart.
    case abandoned
    /// Not sent because the appliance's next cycle started first.
    case superseded
    /// Held back (budget): never called, and not counted against any budget.
    case notSent = "not_sent"
    /// Planned by `replay --record`: a replay never calls Home Assistant.
    case replayed
    /// An end notification or reminder waiting (quiet hours, nobody home): not a call; the
    /// reason says until when. The call it becomes is a row of its own.
    case held
    /// An end notification or reminder given up on after waiting (the door opened, a new
    /// cycle started, nobody came home in time): never called.
    case dropped

    /// Whether the call has reached its final state, so `finished_at` is set.
    public var isFinal: Bool {
        switch self {
        case .pending, .sending: false
        case .sent, .failed, .abandoned, .superseded, .notSent, .replayed, .held, .dropped: true
        }
    }

    /// Whether the row is a call made or to be made: it counts in the cycle's pushes and,
    /// unless replayed, in the daily budget. Not: held back, held, dropped.
    public var isCall: Bool {
        switch self {
        case .notSent, .held, .dropped: false
        default: true
        }
    }
}
