import CycleHistory
import HomeAssistantAPI
import CycleCore
import FoundationEssentials

/// The service's loop: read the appliances' states, hand them to the `Household` (the
/// same core `replay` drives), record what it decided, then send the recorded calls.
/// Time comes from the `ServiceClock`; the core gets it only inside events.
///
/// Nothing is sent that was not recorded: the runner works on a copy of the household
/// and keeps it only when the recorder committed everything the copy decided. When the
/// store refuses, the household stays where it was, nothing goes out, and the same
/// transition happens at the next event the store takes.
///
/// Cancel the task running `run()` to stop: the call in flight finishes, everything is
/// committed, and `run()` returns.
public actor Runner {
    public struct Options: Sendable {
        public var activePollSeconds: Double
        public var idlePollSeconds: Double
        public var dailyPushLimit: Int
        /// How often discovery runs again to pick up new appliances; nil: never.
        public var rediscoverSeconds: Double?
        /// How soon discovery runs after it failed (HA not answering yet).
        public var retryDiscoverySeconds: Double = 30
        /// When the first rediscovery is due: soon when discovery failed at start-up.
        public var firstDiscoverySeconds: Double?
        /// A call planned but not sent when the service stopped is sent on restart only
        /// while younger than this (a clear is always sent).
        public var resendPendingWithinSeconds: Double = 300
        /// How the runner hears of changes: HA's WebSocket events (polling only while they
        /// can't be had), or polling alone.
        public var updates: Updates = .poll
        /// How soon, after falling back to polling, the runner tries events again.
        public var retryEventsSeconds: Double = 600
        /// The longest the runner gathers events after the first of a burst before it
        /// acts: HA sets an appliance's entities one by one, and a half-updated appliance
        /// is not a moment worth a push (see `EventBurst`).
        public var eventSettleSeconds: Double = 0.25
        /// A burst ends sooner when HA has been quiet this long since its last change.
        public var eventQuietSeconds: Double = 0.02
        /// A subscription lost sooner than this after it was made counts as a failure:
        /// subscribing again waits out a backoff starting at `resubscribeBackoffSeconds`.
        public var healthySubscriptionSeconds: Double = 30
        public var resubscribeBackoffSeconds: Double = 2
        /// How long the runner waits after a registry change before discovery runs (HA
        /// sends several at once when a device is added).
        public var registryDebounceSeconds: Double = 5
        /// How long a write waits for another connection's lock on the database before it
        /// counts as failed (and is tried again later).
        public var storeBusyTimeoutMilliseconds: Int32 = 5_000
        /// The local API's link (docs/API.md): snapshots and events out, commands in; nil: no API.
        public var link: ServiceLink?
        /// Quiet hours and the people whose `person.*` entities the runner follows.
        public var delivery = DeliverySettings()
        /// Settings for an appliance with an open cycle in the store that is no longer
        /// followed (removed from the config, not discovered): its cycle ends as lost
        /// after its `lostAfterMinutes` unless it is followed again.
        public var untrackedSettings: @Sendable (_ id: String, _ name: String?) -> ApplianceSettings = { id, name in
            ApplianceSettings(id: id, name: name ?? id)
        }

        public init(activePollSeconds: Double, idlePollSeconds: Double, dailyPushLimit: Int, rediscoverSeconds: Double?) {
            self.activePollSeconds = activePollSeconds
            self.idlePollSeconds = idlePollSeconds
            self.dailyPushLimit = dailyPushLimit
            self.rediscoverSeconds = rediscoverSeconds
        }
    }

    /// How the runner hears of changes.
    public enum Updates: String, Sendable, CaseIterable {
        /// Follow HA's WebSocket API; poll only while it can't be had.
        case events
        /// Poll HA's REST API at `poll.*` intervals.
        case poll
    }

    /// What the runner works with and never replaces: its options, the store and its
    /// recorder, the sender and the poster, where HA's states and events come from, the
    /// clock, the log, and how discovery runs again.
    let parts: RunnerParts
    /// The appliances followed, with their entities; their order is the household's.
    var appliances: [String: TrackedAppliance] = [:]
    /// The core: every appliance's tracker, the people, the day's calls.
    var household: Household
    /// How HA's states reach the runner: the update path, the subscription, what HA
    /// shows, the burst under way and what the subscription's tasks reported.
    var feed: HomeAssistantFeed
    /// When the loop does what: its sleep, the store's outage, the next discovery.
    var loop: LoopState
    /// The appliances' snapshots for the local API and the REST states.
    var snapshots = ApplianceSnapshots()
    /// Warnings said once, by appliance (or entity) and text.
    var warned: Set<String> = []
    /// Polls made so far (full reads, also those after subscribing), for the benchmark and tests.
    public var polls: Int { feed.shown.reads }
    /// How many times the states went to HA, for the tests: once per poll or burst that changed something.
    var publications: Int { parts.poster?.publications ?? 0 }
    /// - Parameters:
    ///   - databasePath: the SQLite file; created and migrated if needed.
    ///   - sourceName: kept with each cycle.
    public init(
        appliances: [TrackedAppliance],
        databasePath: String,
        sourceName: CycleSource,
        options: Options,
        source: any ApplianceStateSource,
        sink: any CallSink,
        events: (any ApplianceEventSource)? = nil,
        surface: (any HomeAssistantSurface)? = nil,
        clock: any ServiceClock,
        log: Log,
        rediscover: (@Sendable () async -> [TrackedAppliance]?)? = nil
    ) throws(StoreError) {
        let store = try HistoryStore(path: databasePath, busyTimeoutMilliseconds: options.storeBusyTimeoutMilliseconds,
                                     acceptEmptyFile: true)
        let poster: HomeAssistantPoster? = if let surface {
            try HomeAssistantPoster(surface: surface, store: store, log: log, appliances: appliances.map(\.id))
        } else {
            nil
        }
        let recorder = CycleRecorder(store: store, source: sourceName)
        parts = RunnerParts(
            options: options, store: store, recorder: recorder,
            sender: CallSender(store: store, sink: sink, clock: clock, log: log,
                               staleAfterSeconds: options.resendPendingWithinSeconds),
            poster: poster, source: source, events: options.updates == .events ? events : nil,
            clock: clock, log: log, rediscover: rediscover)
        feed = HomeAssistantFeed(options: options, events: parts.events != nil)
        loop = LoopState(options: options)
        household = Household(dailyLimit: options.dailyPushLimit,
                              callsToday: (try store.pushesCounted(onUTCDayOf: clock.now()), clock.now()),
                              delivery: Self.storedDelivery(options.delivery, store: store, log: log))
        for appliance in appliances {
            self.appliances[appliance.id] = appliance
            household.follow(Self.learning(appliance.settings, store: store, log: log),
                             restoring: try recorder.restore(appliance.id, log: log),
                             history: try store.finishHistory(applianceID: appliance.id))
        }
    }

    /// The settings with what the appliance's own finished cycles taught (a plug's learned
    /// durations, read once when it is followed); as given when the store can't say.
    static func learning(_ settings: ApplianceSettings, store: HistoryStore, log: Log) -> ApplianceSettings {
        do {
            // And the settings changed through the local API, over the configured ones.
            return Self.storedOverrides(settings.id, store: store, log: log)
                .applied(to: try LearnedDurationsReader.learning(settings, store: store))
        } catch {
            log.error("store_read_failed", ["error": "\(error)", "effect": "no learned durations for \(settings.id)"])
            return settings
        }
    }

    /// Runs until the surrounding task is cancelled.
    public func run() async {
        for id in household.order {
            if let cycle = household.tracker(id)?.cycle {
                parts.log.info("cycle_resumed", ["appliance": id, "started": ISOTime.format(cycle.startedAt)])
            }
        }
        recoverUnfinishedPushes()
        rememberLastCycles()
        await startCommands()
        await followUntrackedOpenCycles()
        await sendWaiting()
        await perform(feed.path.start(at: parts.clock.now()))
        loop.discovery.start(at: parts.clock.now(), firstSeconds: parts.options.firstDiscoverySeconds)
        while !Task.isCancelled {
            await turn(at: parts.clock.now())
            var wake = Date.distantFuture
            for candidate in [feed.path.nextWake, household.nextDeadline, parts.sender.nextRetry, loop.discovery.due, feed.burst.due] {
                if let candidate, candidate < wake { wake = candidate }
            }
            if parts.options.link?.hasCommands == true { wake = min(wake, parts.clock.now()) }
            if let retry = loop.outage.retryAt, retry > wake { wake = retry }
            // Something arrived during the turn: another turn at once.
            if !feed.arrivals.isEmpty { continue }
            guard await sleep(until: wake) else { break }
        }
        disconnect()
        parts.options.link?.close()
        parts.log.info("stopped", ["open_cycles": String(household.openCycles), "calls_waiting": String(parts.sender.waiting)])
    }

    /// One pass of the loop: whatever is due at `now`.
    func turn(at now: Date) async {
        if loop.outage.allowsDeciding(at: now) {
            await drive(.tick(now))
            if let retry = parts.sender.nextRetry, retry <= now { await sendWaiting() }
            await takeArrivals()
            await takeBurst(at: parts.clock.now())
            await takeUnloaded()
            await perform(feed.path.tick(at: parts.clock.now()))
            await takeCommands()
        }
        if loop.discovery.isDue(at: now), let rediscover = parts.rediscover {
            let found = await rediscover()
            if let found { await adopt(found) }
            loop.discovery.ran(found: found != nil, at: parts.clock.now())
        }
        MemoryPolicy.releaseFreedMemory()
    }

    /// Sends what waits, and tells the update path what HA said of the token.
    func sendWaiting() async {
        await parts.sender.sendWaiting()
        for accepted in parts.sender.takeTokenVerdicts() {
            if accepted { feed.path.callAccepted() } else { await perform(feed.path.callRefusedToken(at: parts.clock.now())) }
        }
    }

    /// Sleeps until `deadline` or until something arrives; false when the service is to stop.
    func sleep(until deadline: Date) async -> Bool {
        let clock = parts.clock
        let task = Task { try await clock.sleep(until: deadline) }
        loop.sleeper.sleeping(until: deadline, task)
        let result = await withTaskCancellationHandler { await task.result } onCancel: { task.cancel() }
        let woken = loop.sleeper.awoke()
        if case .failure = result, !woken { return false }
        return !Task.isCancelled
    }

    /// Cuts the loop's sleep short, when it sleeps past `due` (now, when nil).
    func wake(for due: Date? = nil) {
        loop.sleeper.wake(for: due)?.cancel()
    }

    /// The appliances followed now, in order.
    public func tracked() -> [TrackedAppliance] { household.order.compactMap { appliances[$0] } }

    // MARK: Events

    /// What became of the events handed to the household.
    enum Driven: Equatable {
        /// Nothing to record: the household stayed as it was.
        case unchanged
        /// Recorded, kept, sent and published.
        case recorded
        /// The store refused: nothing changed from that event on, and the same events are
        /// to be handed again later.
        case refused
    }

    /// Hands `events` to the household one by one, each recorded, kept and sent before
    /// the next (a call one releases goes out before the next can supersede it), up to
    /// one the store refuses; then publishes once what was kept.
    @discardableResult
    func drive(_ events: [HouseholdEvent]) async -> Driven {
        var kept: [Household.Step] = []
        var driven = Driven.unchanged
        for event in events {
            guard let steps = await take(event) else {
                driven = .refused
                break
            }
            if !steps.isEmpty { driven = .recorded }
            kept += steps
        }
        if !kept.isEmpty { await publish(kept) }
        return driven
    }

    @discardableResult
    func drive(_ event: HouseholdEvent) async -> Driven {
        await drive([event])
    }

    /// Hands `event` to a copy of the household, records what it decided, and only then
    /// keeps the copy and sends; returns the steps kept, nil when the store refused.
    private func take(_ event: HouseholdEvent) async -> [Household.Step]? {
        var next = household
        let steps = next.handle(event)
        // Nothing to record: only who is home may have changed, which is kept as it is.
        guard !steps.isEmpty else {
            household = next
            return []
        }
        let recorded: CycleRecorder.Recorded
        do {
            recorded = try parts.recorder.record(steps, of: next, status: .pending)
        } catch {
            loop.outage.refused(at: parts.clock.now(), jitter: Double.random(in: 0..<1))
            parts.log.error("store_write_failed", [
                "appliances": Array(Set(steps.map(\.applianceID))).sorted().joined(separator: ","), "error": "\(error)",
                "action": "nothing decided or sent; the same change is taken up again once the store accepts writes",
            ])
            return nil
        }
        if let back = loop.outage.recorded() { parts.log.write(back) }
        household = next
        for step in steps { report(step) }
        for superseded in recorded.superseded {
            parts.sender.supersede(applianceID: superseded.applianceID, through: superseded.through)
        }
        parts.sender.enqueue(recorded.calls)
        await sendWaiting()
        return steps
    }

    /// The runner's one call to publish, after the household changed (or a poll or burst
    /// decided nothing): `steps` as HA events, the states posted to HA, and the snapshots
    /// and events left for the local API.
    func publish(_ steps: [Household.Step]) async {
        snapshots.take(steps)
        parts.poster?.take(steps, household: household)
        await parts.poster?.publish(household, snapshots: snapshots, at: parts.clock.now())
        share(steps)
    }

    func report(_ step: Household.Step) {
        let id = step.applianceID
        for effect in step.effects {
            switch effect {
            case .cycleStarted(let at, let program):
                parts.log.info("cycle_started", ["appliance": id, "at": ISOTime.format(at), "program": program ?? "-"])
            case .cycleEnded(let at, let outcome):
                parts.log.info("cycle_ended", ["appliance": id, "at": ISOTime.format(at), "outcome": outcome.rawValue])
            case .heldBack(let kind, _, let reason):
                parts.log.info("call_held_back", ["appliance": id, "kind": kind.rawValue, "reason": reason])
            case .waiting(let kind, _, let reason):
                parts.log.info("call_waiting", ["appliance": id, "kind": kind.rawValue, "reason": reason])
            case .warning(let message):
                // Once per appliance and text: an unknown state would otherwise fill the log every poll.
                if warned.insert(id + "\u{1F}" + message).inserted {
                    parts.log.warning("appliance_warning", ["appliance": id, "message": message, "shown": "once"])
                }
            case .call, .unloaded:
                break
            }
        }
    }

}
