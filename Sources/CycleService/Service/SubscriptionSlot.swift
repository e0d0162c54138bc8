/// The runner's one subscription to HA's events, as a value: none, an attempt to
/// subscribe under way in the background, or a subscription open with the task reading
/// it. ``UpdatePath`` decides when to subscribe and when to close; this holds what came
/// of it, so that an outcome that comes late (an attempt given up, a subscription closed)
/// can't be taken for the current one.
///
///     idle ──connect──▶ connecting(n) ──opened(n)──▶ open(n)
///      ▲                    │ failed(n)                  │ lost(n)
///      ├────────────────────┘                            │
///      └─────────────────────────────────────────────────┘
///     close: from any state to idle, handing back what it held, for the runner to end
///
/// Every attempt has a number of its own; an outcome carrying another is stale: nothing
/// changes (and a subscription it brought is the runner's to close).
struct SubscriptionSlot: Sendable {
    /// An attempt to subscribe under way: its number, the entities it asked for, its task.
    struct Attempt: Sendable {
        let number: Int
        let entities: [String]
        let task: Task<Void, Never>
    }

    /// A subscription made: the attempt's number and entities, and the task reading it.
    struct Open: Sendable {
        let number: Int
        let entities: [String]
        let subscription: SourceSubscription
        let reader: Task<Void, Never>
    }

    enum State: Sendable {
        case idle
        case connecting(Attempt)
        case open(Open)

        /// Gives up what the state holds: an attempt's task is cancelled, a subscription
        /// closed and its reader cancelled.
        func end() {
            switch self {
            case .idle: break
            case .connecting(let attempt): attempt.task.cancel()
            case .open(let open):
                open.subscription.close()
                open.reader.cancel()
            }
        }
    }

    private(set) var state = State.idle
    /// The last attempt's number.
    private var attempts = 0

    /// The entities followed by the attempt under way or the subscription open; nil when idle.
    var entities: [String]? {
        switch state {
        case .idle: nil
        case .connecting(let attempt): attempt.entities
        case .open(let open): open.entities
        }
    }

    /// Starts an attempt numbered anew (`start` is given its number and returns its task);
    /// returns what the slot held before, for the runner to end.
    mutating func connect(_ entities: [String], start: (Int) -> Task<Void, Never>) -> State {
        let before = state
        attempts += 1
        state = .connecting(Attempt(number: attempts, entities: entities, task: start(attempts)))
        return before
    }

    /// Attempt `number` subscribed: true when it is the one under way, now open (`listen`
    /// is given the number and returns the reader's task); false when stale.
    mutating func opened(_ number: Int, _ subscription: SourceSubscription, listen: (Int) -> Task<Void, Never>) -> Bool {
        guard case .connecting(let attempt) = state, attempt.number == number else { return false }
        state = .open(Open(number: number, entities: attempt.entities, subscription: subscription, reader: listen(number)))
        return true
    }

    /// Attempt `number` failed: true when it is the one under way, now idle; false when stale.
    mutating func failed(_ number: Int) -> Bool {
        guard case .connecting(let attempt) = state, attempt.number == number else { return false }
        state = .idle
        return true
    }

    /// Subscription `number` ended: true when it is the one open, now idle; false when stale.
    mutating func lost(_ number: Int) -> Bool {
        guard case .open(let open) = state, open.number == number else { return false }
        state = .idle
        return true
    }

    /// Lets go of whatever the slot holds; returns it, for the runner to end.
    mutating func close() -> State {
        defer { state = .idle }
        return state
    }
}
