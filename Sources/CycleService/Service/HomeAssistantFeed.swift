import FoundationEssentials

/// How HA's states reach a ``Runner``, as values: the ``UpdatePath`` (subscribing,
/// reading, polling and their backoff), the subscription or the attempt to make one,
/// what HA shows now by entity, the burst of events under way, and what the
/// subscription's tasks reported since the loop's last turn, in order.
struct HomeAssistantFeed {
    var path: UpdatePath
    var slot = SubscriptionSlot()
    var shown = ShownStates()
    var burst: EventBurst
    var arrivals: [Runner.Arrival] = []
    /// The appliances whose *Unloaded* button was tapped, for the next turn (`UnloadedAction`).
    var unloaded: [String] = []

    /// Events mode when `events` (a source of HA's events is at hand and asked for), else polling.
    init(options: Runner.Options, events: Bool) {
        path = UpdatePath(settings: UpdatePath.Settings(
            updates: events ? .events : .poll, activePollSeconds: options.activePollSeconds,
            idlePollSeconds: options.idlePollSeconds, retryEventsSeconds: options.retryEventsSeconds,
            healthySeconds: options.healthySubscriptionSeconds,
            resubscribeBackoff: Backoff(initial: options.resubscribeBackoffSeconds, cap: 120)))
        burst = EventBurst(quietSeconds: options.eventQuietSeconds, capSeconds: options.eventSettleSeconds)
    }
}
