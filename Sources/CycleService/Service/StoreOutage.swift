import FoundationEssentials

/// The history store refusing writes, as a value. Nothing is sent that was not recorded,
/// so while the store refuses, the loop decides nothing: it tries again after a backoff
/// (1 s, doubling up to 30 s, stretched by up to 25% at random), and the same change is
/// taken up then. What HA showed and could not be recorded is observed again in full
/// (every appliance and person) at the next observation: a resync.
///
///     writing ──refused──▶ refusing(until) ──recorded──▶ writing (store_back)
///                             │ refused: a longer wait
///                             ▼
///                          refusing(until)
///
/// The resync is its own flag: it stays due after the store is back, until an
/// observation is recorded.
struct StoreOutage: Sendable {
    private enum State: Sendable, Equatable {
        case writing
        case refusing(until: Date)
    }

    private var state = State.writing
    private var backoff = Backoff(initial: 1, cap: 30)
    /// An observation was not recorded: the next covers every appliance and person.
    private(set) var resyncDue = false

    /// When the store is tried again; nil while it writes.
    var retryAt: Date? {
        if case .refusing(let until) = state { return until }
        return nil
    }

    /// Whether the loop may decide at `now`: the store writes, or its retry is due.
    func allowsDeciding(at now: Date) -> Bool {
        retryAt.map { $0 <= now } ?? true
    }

    /// A write was refused at `now`: the store is tried again after the next wait
    /// (`jitter` in 0..<1 stretches it).
    mutating func refused(at now: Date, jitter: Double) {
        state = .refusing(until: now.addingTimeInterval(backoff.next(jitter: jitter)))
    }

    /// A write went through: `store_back` when the store was refusing.
    mutating func recorded() -> LogLine? {
        guard state != .writing else { return nil }
        state = .writing
        backoff.reset()
        return LogLine(.info, "store_back", [])
    }

    /// What an observation of HA's states became: recorded, or not (a resync is due).
    mutating func observed(recorded: Bool) {
        resyncDue = !recorded
    }
}
