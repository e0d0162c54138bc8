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
        /// How long the runner gathers events after the first of a burst before it acts:
        /// HA sets an appliance's entities one by one, and a half-updated appliance is
        /// not a moment worth a push.
        public var eventSettleSeconds: Double = 0.25
        /// How long the runner waits after a registry change before discovery runs (HA
        /// sends several at once when a device is added).
        public var registryDebounceSeconds: Double = 5
        /// How long a write waits for another connection's lock on the database before it
        /// counts as failed (and is tried again later).
        public var storeBusyTimeoutMilliseconds: Int32 = 5_000
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

    private let options: Options
    private let store: HistoryStore
    private let recorder: CycleRecorder
    private let sender: PushSender
    private let publisher: HomeAssistantPublisher?
    private let source: any ApplianceStateSource
    private let events: (any ApplianceEventSource)?
    private let clock: any ServiceClock
    private let log: Log
    private let rediscover: (@Sendable () async -> [TrackedAppliance]?)?

    /// The appliances polled, with their entities.
    private var appliances: [String: TrackedAppliance] = [:]
    private var order: [String] = []
    private var household: Household
    private var pollBackoff = Backoff()
    private var outageSince: Date?
    /// While the store refuses writes, nothing is decided before this.
    private var storeRetryAt: Date?
    private var storeBackoff = Backoff(initial: 1, cap: 30)
    private var warned: Set<String> = []
    private var jitter = SystemRandomNumberGenerator()
    /// Polls made so far, for the benchmark and tests.
    public private(set) var polls = 0

    // Events mode.
    /// The live subscription, while there is one.
    private var subscription: SourceSubscription?
    private var subscribedEntities: [String] = []
    /// Numbers subscriptions, so that a reader of an old one can't end a newer one.
    private var generation = 0
    private var reader: Task<Void, Never>?
    /// Events delivered since the loop last looked, and when the first of them came.
    private var inbox: [SourceEvent] = []
    private var inboxSince: Date?
    /// What HA showed last, by entity: the full read at each (re)connect, then events.
    private var known: [String: EntityState?] = [:]
    /// When to try subscribing again; nil while subscribed (or in poll mode).
    private var nextSubscribe: Date?
    /// Polling stands in for events (they can't be had right now).
    private var pollingForEvents = false
    private var saidEventsUnavailable = false
    /// A change events brought could not be recorded: observe everything again once the store writes.
    private var resyncDue = false
    private var nextDiscovery: Date?
    /// The loop's sleep, cut short when an event arrives.
    private var sleeper: Task<Void, any Error>?
    private var woken = false

    /// - Parameters:
    ///   - databasePath: the SQLite file; created and migrated if needed.
    ///   - sourceName: kept with each cycle.
    public init(
        appliances: [TrackedAppliance],
        databasePath: String,
        sourceName: CycleSource,
        options: Options,
        source: any ApplianceStateSource,
        sink: any NotifySink,
        events: (any ApplianceEventSource)? = nil,
        surface: (any HomeAssistantSurface)? = nil,
        clock: any ServiceClock,
        log: Log,
        rediscover: (@Sendable () async -> [TrackedAppliance]?)? = nil
    ) throws(StoreError) {
        let store = try HistoryStore(path: databasePath, busyTimeoutMilliseconds: options.storeBusyTimeoutMilliseconds)
        self.store = store
        self.recorder = CycleRecorder(store: store, source: sourceName)
        self.sender = PushSender(store: store, sink: sink, clock: clock, log: log,
                                 staleAfterSeconds: options.resendPendingWithinSeconds)
        self.publisher = surface.map { HomeAssistantPublisher(surface: $0, log: log) }
        self.options = options
        self.source = source
        self.events = options.updates == .events ? events : nil
        self.clock = clock
        self.log = log
        self.rediscover = rediscover
        household = Household(dailyLimit: options.dailyPushLimit,
                              callsToday: (try store.pushesCounted(onUTCDayOf: clock.now()), clock.now()))
        for appliance in appliances {
            self.appliances[appliance.id] = appliance
            order.append(appliance.id)
            household.follow(Self.learning(appliance.settings, store: store, log: log),
                             restoring: try recorder.saved(appliance.id, log: log),
                             history: try store.finishHistory(applianceID: appliance.id))
        }
    }

    /// The settings with what the appliance's own finished cycles taught (a plug's learned
    /// durations, read once when it is followed); as given when the store can't say.
    private static func learning(_ settings: ApplianceSettings, store: HistoryStore, log: Log) -> ApplianceSettings {
        do {
            return try LearnedDurationsReader.learning(settings, store: store)
        } catch {
            log.error("store_read_failed", ["error": "\(error)", "effect": "no learned durations for \(settings.id)"])
            return settings
        }
    }

    /// Runs until the surrounding task is cancelled.
    public func run() async {
        for id in order {
            if let cycle = household.tracker(id)?.cycle {
                log.info("cycle_resumed", ["appliance": id, "started": ISOTime.format(cycle.startedAt)])
            }
        }
        recoverUnfinishedPushes()
        rememberLastCycles()
        await followUntrackedOpenCycles()
        await sender.sendWaiting()
        var nextPoll: Date? = clock.now()
        if events != nil {
            nextPoll = nil
            nextSubscribe = clock.now()
        }
        nextDiscovery = options.rediscoverSeconds.map { clock.now().addingTimeInterval(options.firstDiscoverySeconds ?? $0) }
        while !Task.isCancelled {
            let now = clock.now()
            if storeRetryAt.map({ $0 <= now }) ?? true {
                await drive(.tick(now))
                if let retry = sender.nextRetry, retry <= now { await sender.sendWaiting() }
                await takeEvents()
                if let due = nextSubscribe, now >= due {
                    nextPoll = await subscribe()
                } else if let due = nextPoll, now >= due {
                    nextPoll = await poll()
                }
                if subscription != nil { nextPoll = nil }
            }
            if let due = nextDiscovery, now >= due, let rediscover {
                let found = await rediscover()
                if let found { await adopt(found) }
                let wait = found == nil ? options.retryDiscoverySeconds : (options.rediscoverSeconds ?? 900)
                nextDiscovery = clock.now().addingTimeInterval(wait)
            }
            var wake = Date.distantFuture
            let settled = inboxSince.map { $0.addingTimeInterval(options.eventSettleSeconds) }
            for candidate in [nextPoll, nextSubscribe, household.nextDeadline, sender.nextRetry, nextDiscovery, settled] {
                if let candidate, candidate < wake { wake = candidate }
            }
            if let retry = storeRetryAt, retry > wake { wake = retry }
            guard await sleep(until: wake) else { break }
        }
        reader?.cancel()
        subscription?.close()
        log.info("stopped", ["open_cycles": String(household.openCycles), "calls_waiting": String(sender.waiting)])
    }

    /// Sleeps until `deadline` or until an event arrives; false when the service is to stop.
    private func sleep(until deadline: Date) async -> Bool {
        woken = false
        let clock = self.clock
        let task = Task { try await clock.sleep(until: deadline) }
        sleeper = task
        let result = await withTaskCancellationHandler { await task.result } onCancel: { task.cancel() }
        sleeper = nil
        if case .failure = result, !woken { return false }
        return !Task.isCancelled
    }

    // MARK: Events from Home Assistant

    /// Subscribes to HA's changes, then reads every state once (a change during the gap
    /// is never missed). When no subscription can be had but HA answers, polling stands
    /// in, said once, and events are tried again later. Returns the next poll, if polling.
    private func subscribe() async -> Date? {
        guard let events else { return nil }
        nextSubscribe = nil
        let entities = followedEntities()
        let opened: SourceSubscription
        do {
            opened = try await events.subscribe(entities)
        } catch {
            // Is HA there at all? The read says, and stands in for the events meanwhile.
            let next = await poll()
            if outageSince == nil {
                if !saidEventsUnavailable {
                    saidEventsUnavailable = true
                    log.warning("events_unavailable", [
                        "error": error.message,
                        "action": "polling every \(NumberText.plain(options.activePollSeconds)) s while a cycle runs, "
                            + "\(NumberText.plain(options.idlePollSeconds)) s otherwise; trying events again every "
                            + "\(NumberText.plain(options.retryEventsSeconds / 60)) min",
                    ])
                }
                pollingForEvents = true
                nextSubscribe = clock.now().addingTimeInterval(options.retryEventsSeconds)
            } else {
                nextSubscribe = next
            }
            return pollingForEvents ? next : nil
        }
        subscription = opened
        subscribedEntities = entities
        generation += 1
        let number = generation
        log.info("events_connected", ["entities": String(entities.count),
                                      "was": pollingForEvents ? "polling" : "starting"])
        pollingForEvents = false
        saidEventsUnavailable = false
        reader = Task { [weak self] in
            do {
                for try await event in opened.events { await self?.deliver(event) }
                await self?.subscriptionEnded(number, nil)
            } catch {
                await self?.subscriptionEnded(number, "\(error)")
            }
        }
        // The full read after subscribing: whatever changed before is seen now.
        if let failedUntil = await readAll() {
            // HA answered the subscription but not the read: start over after the backoff.
            subscription?.close()
            subscription = nil
            reader?.cancel()
            nextSubscribe = failedUntil
        }
        return nil
    }

    private func deliver(_ event: SourceEvent) {
        inbox.append(event)
        guard inboxSince == nil else { return }
        // The first of a burst: the loop wakes when the burst has settled.
        inboxSince = clock.now()
        woken = true
        sleeper?.cancel()
    }

    private func subscriptionEnded(_ number: Int, _ error: String?) {
        guard subscription != nil, number == generation else { return }
        subscription = nil
        reader = nil
        if let error {
            log.warning("events_lost", ["error": error, "action": "subscribing again"])
        }
        nextSubscribe = clock.now()
        woken = true
        sleeper?.cancel()
    }

    /// Applies the events that arrived: merges the states, and hands the appliances whose
    /// entities changed to the household as one observation each, at this moment.
    private func takeEvents() async {
        if let since = inboxSince, clock.now() < since.addingTimeInterval(options.eventSettleSeconds) { return }
        let arrived = inbox
        inbox = []
        inboxSince = nil
        var changed: Set<String> = []
        for event in arrived {
            switch event {
            case .states(let states):
                for (entity, state) in states {
                    if known[entity] != state { changed.insert(entity) }
                    known[entity] = state
                }
            case .registryChanged:
                if rediscover != nil {
                    let soon = clock.now().addingTimeInterval(options.registryDebounceSeconds)
                    if nextDiscovery.map({ $0 > soon }) ?? true { nextDiscovery = soon }
                }
            }
        }
        guard subscription != nil else { return }
        let at = clock.now()
        var observations: [(applianceID: String, observation: Observation)] = []
        for id in order {
            guard let appliance = appliances[id] else { continue }
            if resyncDue || appliance.entities.values.contains(where: changed.contains) {
                observations.append((id, observation(of: appliance, in: known, at: at)))
            }
        }
        guard !observations.isEmpty else { return }
        log.debug("changed", ["entities": String(changed.count), "appliances": String(observations.count)])
        resyncDue = !(await drive(.polled(observations)))
    }

    private func followedEntities() -> [String] {
        Array(Set(order.flatMap { appliances[$0].map { Array($0.entities.values) } ?? [] })).sorted()
    }

    /// The appliances followed now, in order.
    public func tracked() -> [TrackedAppliance] { order.compactMap { appliances[$0] } }

    // MARK: Events

    /// Hands `event` to a copy of the household, records what it decided, and only then
    /// keeps the copy and sends. False when the store refused (nothing changed).
    @discardableResult
    private func drive(_ event: HouseholdEvent) async -> Bool {
        var next = household
        let steps = next.handle(event)
        guard !steps.isEmpty else { return true }
        let recorded: CycleRecorder.Recorded
        do {
            recorded = try recorder.record(steps, into: &next, status: .pending)
        } catch {
            let wait = storeBackoff.next(jitter: Double.random(in: 0..<1, using: &jitter))
            storeRetryAt = clock.now().addingTimeInterval(wait)
            log.error("store_write_failed", [
                "appliances": Array(Set(steps.map(\.applianceID))).sorted().joined(separator: ","), "error": "\(error)",
                "action": "nothing decided or sent; the same change is taken up again once the store accepts writes",
            ])
            return false
        }
        if storeRetryAt != nil {
            log.info("store_back", [:])
            storeRetryAt = nil
            storeBackoff.reset()
        }
        household = next
        for step in steps { report(step) }
        for superseded in recorded.superseded {
            sender.supersede(applianceID: superseded.applianceID, through: superseded.through)
        }
        sender.enqueue(recorded.calls)
        await sender.sendWaiting()
        publisher?.take(steps, household: household)
        await publisher?.publish(household, at: clock.now())
        return true
    }

    private func report(_ step: Household.Step) {
        let id = step.applianceID
        for effect in step.effects {
            switch effect {
            case .cycleStarted(let at, let program):
                log.info("cycle_started", ["appliance": id, "at": ISOTime.format(at), "program": program ?? "-"])
            case .cycleEnded(let at, let outcome):
                log.info("cycle_ended", ["appliance": id, "at": ISOTime.format(at), "outcome": outcome.rawValue])
            case .heldBack(let kind, _, let reason):
                log.info("call_held_back", ["appliance": id, "kind": kind.rawValue, "reason": reason])
            case .warning(let message):
                // Once per appliance and text: an unknown state would otherwise fill the log every poll.
                if warned.insert(id + "\u{1F}" + message).inserted {
                    log.warning("appliance_warning", ["appliance": id, "message": message, "shown": "once"])
                }
            case .call:
                break
            }
        }
    }

    // MARK: Polling

    private func poll() async -> Date {
        if let failedUntil = await readAll() { return failedUntil }
        let running = household.openCycles > 0
        return clock.now().addingTimeInterval(running ? options.activePollSeconds : options.idlePollSeconds)
    }

    /// Reads every followed entity in one request and hands every appliance's
    /// observation to the household. Nil when HA answered; else when to try again.
    private func readAll() async -> Date? {
        var entities = followedEntities()
        // cycletrack's own entity is read too: gone means HA restarted and forgot it.
        if publisher != nil { entities.append(Self.ownEntity) }
        polls += 1
        let readings: [String: EntityState?]
        do {
            readings = try await source.read(entities)
        } catch {
            // The backoff counts from when the failed request ended: a hanging HA
            // must not be asked again the moment its timeout passes.
            return pollFailed(error, now: clock.now())
        }
        if let since = outageSince {
            log.info("ha_back", ["after_seconds": String(NumberText.int(clock.now().timeIntervalSince(since)) ?? 0)])
            outageSince = nil
            sender.saidUnauthorized = false
        }
        pollBackoff.reset()
        if let publisher, case nil? = readings[Self.ownEntity] { publisher.forgetPosted() }
        known = readings
        let at = clock.now()
        log.debug("polled", ["entities": String(entities.count)])
        var observations: [(applianceID: String, observation: Observation)] = []
        for id in order {
            guard let appliance = appliances[id] else { continue }
            observations.append((id, observation(of: appliance, in: readings, at: at)))
        }
        resyncDue = !(await drive(.polled(observations)))
        await publisher?.publish(household, at: clock.now())
        return nil
    }

    /// The entity cycletrack keeps in HA for the day's calls.
    static let ownEntity = "sensor.cycletrack_pushes_today"

    /// The last ended cycle of each appliance, for its entity's attributes.
    private func rememberLastCycles() {
        guard let publisher else { return }
        for id in household.order {
            do {
                if let cycle = try store.cycles(matching: CycleFilter(applianceID: id, limit: 5)).first(where: { $0.outcome != nil }) {
                    publisher.remember(cycle)
                }
            } catch {
                log.error("store_read_failed", ["error": "\(error)", "effect": "the last cycle is not shown in HA until the next ends"])
                return
            }
        }
    }

    private func observation(of appliance: TrackedAppliance, in readings: [String: EntityState?], at: Date) -> Observation {
        var raw: [Role: String] = [:]
        var units: [Role: String] = [:]
        for (role, entity) in appliance.entities {
            guard let found = readings[entity] else { continue }
            guard let reading = found else {
                if warned.insert("missing\u{1F}" + entity).inserted {
                    log.warning("entity_missing", ["appliance": appliance.id, "role": role.rawValue, "entity": entity,
                                                   "effect": "treated as unavailable; check the entity id"])
                }
                continue
            }
            raw[role] = reading.state
            if let unit = reading.unit { units[role] = unit }
        }
        return Observation(at: at, raw: raw, units: units)
    }

    private func pollFailed(_ failure: SourceFailure, now: Date) -> Date {
        if outageSince == nil {
            outageSince = now
            log.warning("ha_unreachable", ["error": failure.message, "action": "retrying with backoff; logged once per outage"])
        }
        if failure.isUnauthorized, !sender.saidUnauthorized {
            sender.saidUnauthorized = true
            log.error("ha_token_refused", ["error": failure.message,
                                           "action": "check the long-lived access token; retrying every few minutes"])
        }
        var wait = pollBackoff.next(jitter: Double.random(in: 0..<1, using: &jitter))
        if failure.isUnauthorized { wait = max(wait, 60) }
        return now.addingTimeInterval(wait)
    }

    // MARK: Restarts and discovery

    private func recoverUnfinishedPushes() {
        do {
            sender.recover(try store.unfinishedPushes())
        } catch {
            log.error("store_read_failed", ["error": "\(error)", "effect": "calls left from the last run are not taken up now"])
        }
    }

    /// A cycle left open by an appliance no longer followed (removed from the config,
    /// not discovered yet) is followed without entities: it shows as unavailable from
    /// now on, so it ends as lost after `lost_after_minutes` (its activity cleared if a
    /// start went out), unless the appliance is followed again before that.
    private func followUntrackedOpenCycles() async {
        let open: [CycleRecord]
        let names: [String: String]
        do {
            open = try store.openCycles().filter { !household.follows($0.applianceID) }
            names = open.isEmpty ? [:] : try store.applianceNames()
        } catch {
            log.error("store_read_failed", ["error": "\(error)"])
            return
        }
        let now = clock.now()
        for cycle in open where !household.follows(cycle.applianceID) {
            let settings = options.untrackedSettings(cycle.applianceID, names[cycle.applianceID])
            let saved: Household.Saved?
            do { saved = try recorder.saved(cycle.applianceID, log: log) } catch {
                log.error("store_read_failed", ["error": "\(error)"])
                continue
            }
            household.follow(settings, restoring: saved)
            log.warning("open_cycle_untracked", [
                "appliance": cycle.applianceID, "cycle": String(cycle.id), "started": ISOTime.format(cycle.startedAt),
                "effect": "ends as lost in \(NumberText.plain(settings.lostAfterMinutes)) min unless the appliance is followed again",
            ])
            await drive(.observed(cycle.applianceID, Observation(at: now, raw: [:])))
        }
    }

    private func adopt(_ found: [TrackedAppliance]) async {
        for appliance in found where appliances[appliance.id] == nil {
            log.info("appliance_discovered", ["appliance": appliance.id, "name": appliance.settings.name])
            order.append(appliance.id)
            if household.follows(appliance.id) {
                // An open cycle of an appliance that was not followed: it is back, with its settings.
                household.follow(Self.learning(appliance.settings, store: store, log: log))
            } else {
                let saved: Household.Saved?
                do { saved = try recorder.saved(appliance.id, log: log) } catch {
                    log.error("store_read_failed", ["error": "\(error)", "effect": "the appliance starts fresh"])
                    saved = nil
                }
                household.follow(Self.learning(appliance.settings, store: store, log: log), restoring: saved,
                                 history: recorder.finishHistory(appliance.id, log: log))
            }
        }
        for appliance in found { appliances[appliance.id] = appliance }
        if subscription != nil, followedEntities() != subscribedEntities {
            // New entities to follow: a fresh subscription (and full read) takes them in.
            subscription?.close()
            subscription = nil
            reader?.cancel()
            reader = nil
            nextSubscribe = clock.now()
        }
    }
}
