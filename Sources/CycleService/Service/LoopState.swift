import FoundationEssentials

/// When a ``Runner``'s loop does what, as values: its sleep (cut short when something
/// arrives), the store refusing writes (when deciding may resume, and whether a resync
/// is due after), and when discovery runs again to pick up new appliances.
struct LoopState {
    var sleeper = LoopSleeper()
    var outage = StoreOutage()
    var discovery: DiscoverySchedule

    init(options: Runner.Options) {
        discovery = DiscoverySchedule(everySeconds: options.rediscoverSeconds, retrySeconds: options.retryDiscoverySeconds,
                                      debounceSeconds: options.registryDebounceSeconds)
    }
}
