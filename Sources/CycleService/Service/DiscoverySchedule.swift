import FoundationEssentials

/// When discovery runs again to pick up new appliances, as a value: never (rediscovery
/// off and no registry change yet), or due at a moment.
///
///     start ─▶ due(first) ──ran(found)──▶ due(+ every)
///                  │      └─ran(failed)─▶ due(+ retry)
///                  └─registryChanged─▶ due(now + debounce), when that is sooner
///
/// - The first run is due `firstSeconds` after the start (soon when discovery failed at
///   start-up), else `everySeconds`; with rediscovery off, none is.
/// - After a run that found the appliances, the next is `everySeconds` later (15 min when
///   only a registry change made it run); after one HA didn't answer, `retrySeconds`.
/// - A registry change makes it due `debounceSeconds` from now (HA sends several when a
///   device is added), unless it is due sooner already.
struct DiscoverySchedule: Sendable {
    /// How often discovery runs again; nil: only after a registry change.
    let everySeconds: Double?
    let retrySeconds: Double
    let debounceSeconds: Double
    /// When discovery runs next; nil: not planned.
    private(set) var due: Date?

    init(everySeconds: Double?, retrySeconds: Double, debounceSeconds: Double) {
        self.everySeconds = everySeconds
        self.retrySeconds = retrySeconds
        self.debounceSeconds = debounceSeconds
    }

    /// The runner starts at `now`; the first run is due `firstSeconds` later, when given.
    mutating func start(at now: Date, firstSeconds: Double?) {
        due = everySeconds.map { now.addingTimeInterval(firstSeconds ?? $0) }
    }

    func isDue(at now: Date) -> Bool {
        due.map { now >= $0 } ?? false
    }

    /// Discovery ran, and ended at `now`: it `found` the appliances, or HA didn't answer.
    mutating func ran(found: Bool, at now: Date) {
        due = now.addingTimeInterval(found ? everySeconds ?? 900 : retrySeconds)
    }

    /// HA's registries changed at `now`.
    mutating func registryChanged(at now: Date) {
        let soon = now.addingTimeInterval(debounceSeconds)
        if due.map({ $0 > soon }) ?? true { due = soon }
    }
}
