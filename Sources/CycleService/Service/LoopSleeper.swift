import FoundationEssentials

/// The loop's sleep between turns, as a value: awake (taking a turn), asleep until a
/// deadline, or woken before it by something that arrived (a subscription's outcome, a
/// command, a burst that ends sooner). The runner sleeps in a task of its own; this holds
/// that task and says when to cut it short, and whether a sleep that ended early was cut
/// (the loop goes on) or cancelled (the service stops).
///
///     awake ──sleeping(until:)──▶ asleep(until) ──wake──▶ woken
///       ▲                           │ awoke                 │ awoke
///       └───────────────────────────┴───────────────────────┘
///
/// A wake while awake changes nothing: the loop looks at everything due before it
/// sleeps again.
struct LoopSleeper: Sendable {
    private enum State: Sendable {
        case awake
        case asleep(until: Date, Task<Void, any Error>)
        case woken
    }

    private var state = State.awake

    /// When the sleep under way ends unless something wakes it; nil while awake or woken.
    var sleepingUntil: Date? {
        if case .asleep(let until, _) = state { return until }
        return nil
    }

    /// The loop sleeps in `task` until `deadline`.
    mutating func sleeping(until deadline: Date, _ task: Task<Void, any Error>) {
        state = .asleep(until: deadline, task)
    }

    /// Something arrived that is due at `due` (now, when nil): the sleep to cut short, when
    /// the loop sleeps past it; nil when it is awake, already woken, or wakes in time.
    mutating func wake(for due: Date? = nil) -> Task<Void, any Error>? {
        guard case .asleep(let until, let task) = state, due.map({ $0 < until }) ?? true else { return nil }
        state = .woken
        return task
    }

    /// The sleep ended; true when it was cut short by ``wake(for:)`` (rather than ended by
    /// its deadline or cancelled).
    mutating func awoke() -> Bool {
        defer { state = .awake }
        if case .woken = state { return true }
        return false
    }
}
