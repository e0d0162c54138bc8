import CycleCore
import FoundationEssentials

/// The service's loop: poll the appliances' states, feed them to each appliance's
/// `ApplianceTracker` (the same core `replay` uses), record what it decides, and send
/// the calls, strictly in order. Time comes from the `ServiceClock`; the core gets it
/// only inside events. Cancel the task running `run()` to stop: the call in flight
/// finishes, everything is committed, and `run()` returns.
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

        public init(activePollSeconds: Double, idlePollSeconds: Double, dailyPushLimit: Int, rediscoverSeconds: Double?) {
            self.activePollSeconds = activePollSeconds
            self.idlePollSeconds = idlePollSeconds
            self.dailyPushLimit = dailyPushLimit
            self.rediscoverSeconds = rediscoverSeconds
        }
    }

    private let options: Options
    private let store: HistoryStore
    private let recorder: CycleRecorder
    private let source: any ApplianceStateSource
    private let sink: any NotifySink
    private let clock: any ServiceClock
    private let log: Log
    private let rediscover: (@Sendable () async -> [TrackedAppliance]?)?

    private var appliances: [String: TrackedAppliance] = [:]
    private var order: [String] = []
    private var trackers: [String: ApplianceTracker] = [:]
    private var clearRetries: [PendingClear] = []
    private var clearBackoff = Backoff(initial: 5, cap: 300)
    private var nextClearRetry: Date?
    private var pollBackoff = Backoff()
    private var outageSince: Date?
    private var warnedMissing: Set<String> = []
    private var saidSupernotifyMissing = false
    private var saidUnauthorized = false
    private var jitter = SystemRandomNumberGenerator()
    /// Calls counted in the current UTC day (day number, count): read from the store once
    /// a day and kept up to date as calls are recorded.
    private var countedToday: (day: Int, count: Int)?
    /// Polls made so far, for the benchmark and tests.
    public private(set) var polls = 0

    private struct PendingClear {
        var pushID: Int64
        var applianceID: String
        var kind: String
        var body: String
    }

    /// - Parameters:
    ///   - databasePath: the SQLite file; created and migrated if needed.
    ///   - sourceName: "run" or "demo", kept with each cycle.
    public init(
        appliances: [TrackedAppliance],
        databasePath: String,
        sourceName: String,
        options: Options,
        source: any ApplianceStateSource,
        sink: any NotifySink,
        clock: any ServiceClock,
        log: Log,
        rediscover: (@Sendable () async -> [TrackedAppliance]?)? = nil
    ) throws {
        let store = try HistoryStore(path: databasePath)
        self.store = store
        self.recorder = CycleRecorder(store: store, source: sourceName)
        self.options = options
        self.source = source
        self.sink = sink
        self.clock = clock
        self.log = log
        self.rediscover = rediscover
        for appliance in appliances {
            self.appliances[appliance.id] = appliance
            self.order.append(appliance.id)
            self.trackers[appliance.id] = try recorder.restoreTracker(settings: appliance.settings, log: log)
        }
    }

    /// Runs until the surrounding task is cancelled.
    public func run() async {
        for id in order {
            if let cycle = trackers[id]?.cycle {
                log.info("cycle_resumed", ["appliance": id, "started": ISOTime.format(cycle.startedAt)])
            }
        }
        reportUntrackedOpenCycles()
        await recoverUnfinishedPushes()
        var nextPoll = clock.now()
        var nextDiscovery = options.rediscoverSeconds.map { clock.now().addingTimeInterval(options.firstDiscoverySeconds ?? $0) }
        while !Task.isCancelled {
            let now = clock.now()
            await fireDeadlines(now: now)
            if let retryAt = nextClearRetry, retryAt <= now { await retryClears() }
            if now >= nextPoll {
                nextPoll = await poll(now: now)
            }
            if let due = nextDiscovery, now >= due, let rediscover {
                let found = await rediscover()
                if let found { adopt(found) }
                let wait = found == nil ? options.retryDiscoverySeconds : (options.rediscoverSeconds ?? 900)
                nextDiscovery = clock.now().addingTimeInterval(wait)
            }
            var wake = nextPoll
            for tracker in trackers.values { if let deadline = tracker.nextDeadline, deadline < wake { wake = deadline } }
            if let retryAt = nextClearRetry, retryAt < wake { wake = retryAt }
            if let due = nextDiscovery, due < wake { wake = due }
            do { try await clock.sleep(until: wake) } catch { break }
        }
        log.info("stopped", ["open_cycles": String(trackers.values.filter { $0.cycle != nil }.count)])
    }

    /// The appliances followed now, in order.
    public func tracked() -> [TrackedAppliance] { order.compactMap { appliances[$0] } }

    // MARK: Polling

    private func poll(now: Date) async -> Date {
        let entities = Array(Set(order.flatMap { appliances[$0].map { Array($0.entities.values) } ?? [] })).sorted()
        polls += 1
        let readings: [String: EntityState?]
        do {
            readings = try await source.read(entities)
        } catch {
            return pollFailed(error, now: now)
        }
        if let since = outageSince {
            log.info("ha_back", ["after_seconds": String(Int(clock.now().timeIntervalSince(since)))])
            outageSince = nil
            saidUnauthorized = false
        }
        pollBackoff.reset()
        let at = clock.now()
        log.debug("polled", ["entities": String(entities.count)])
        var batches: [CycleRecorder.Batch] = []
        for id in order {
            guard let appliance = appliances[id] else { continue }
            var raw: [Role: String] = [:]
            var units: [Role: String] = [:]
            for (role, entity) in appliance.entities {
                guard let found = readings[entity] else { continue }
                guard let reading = found else {
                    if warnedMissing.insert(entity).inserted {
                        log.warning("entity_missing", ["appliance": id, "role": role.rawValue, "entity": entity,
                                                       "effect": "treated as unavailable; check the entity id"])
                    }
                    continue
                }
                raw[role] = reading.state
                if let unit = reading.unit { units[role] = unit }
            }
            let observation = Observation(at: at, raw: raw, units: units)
            guard var tracker = trackers[id] else { continue }
            let effects = tracker.observe(observation, budget: budget(at))
            trackers[id] = tracker
            count(effects, at: at)
            batches.append(CycleRecorder.Batch(appliance: appliance.settings, observation: observation, effects: effects, tracker: tracker))
        }
        await perform(batches)
        let running = trackers.values.contains { $0.cycle != nil }
        return at.addingTimeInterval(running ? options.activePollSeconds : options.idlePollSeconds)
    }

    private func pollFailed(_ failure: SourceFailure, now: Date) -> Date {
        if outageSince == nil {
            outageSince = now
            log.warning("ha_unreachable", ["error": failure.message, "action": "retrying with backoff; logged once per outage"])
        }
        if failure.isUnauthorized, !saidUnauthorized {
            saidUnauthorized = true
            log.error("ha_token_refused", ["error": failure.message,
                                           "action": "check the long-lived access token; retrying every few minutes"])
        }
        var wait = pollBackoff.next(jitter: Double.random(in: 0..<1, using: &jitter))
        if failure.isUnauthorized { wait = max(wait, 60) }
        return now.addingTimeInterval(wait)
    }

    private func fireDeadlines(now: Date) async {
        var batches: [CycleRecorder.Batch] = []
        for id in order {
            guard var tracker = trackers[id], let deadline = tracker.nextDeadline, deadline <= now,
                  let appliance = appliances[id] else { continue }
            let effects = tracker.advance(to: now, budget: budget(now))
            trackers[id] = tracker
            count(effects, at: now)
            batches.append(CycleRecorder.Batch(appliance: appliance.settings, observation: nil, effects: effects, tracker: tracker))
        }
        if !batches.isEmpty { await perform(batches) }
    }

    /// Counts the calls a tracker just planned into today's total, so that the next
    /// appliance's budget sees them.
    private func count(_ effects: [TrackerEffect], at now: Date) {
        let calls = effects.filter { if case .call = $0 { true } else { false } }.count
        guard calls > 0 else { return }
        let today = callsToday(now)
        if let counted = countedToday { countedToday = (counted.day, today + calls) }
    }

    private func budget(_ now: Date) -> DailyBudget {
        DailyBudget(limit: options.dailyPushLimit, usedToday: callsToday(now),
                    openCycles: trackers.values.filter { $0.cycle != nil }.count)
    }

    private func callsToday(_ now: Date) -> Int {
        let day = Int((now.timeIntervalSince1970 / 86_400).rounded(.down))
        if let counted = countedToday, counted.day == day { return counted.count }
        do {
            let count = try store.pushesCounted(onUTCDayOf: now)
            countedToday = (day, count)
            return count
        } catch {
            log.error("budget_unreadable", ["error": "\(error)", "using": "the whole daily limit as used"])
            return options.dailyPushLimit
        }
    }

    // MARK: Effects

    /// Records a poll's (or a tick's) batches in one transaction, then logs and sends
    /// each appliance's calls in order.
    private func perform(_ batches: [CycleRecorder.Batch]) async {
        let planned: [[(pushID: Int64, call: SupernotifyCall)]]
        do {
            planned = try recorder.record(batches, status: .pending)
        } catch {
            // Without a record a call must not go out: it could never be accounted for.
            log.error("store_write_failed", ["appliances": batches.map(\.appliance.id).joined(separator: ","),
                                             "error": "\(error)", "action": "calls of this poll not sent"])
            return
        }
        for (batch, calls) in zip(batches, planned) {
            let id = batch.appliance.id
            for effect in batch.effects {
                switch effect {
                case .cycleStarted(let at, let program):
                    log.info("cycle_started", ["appliance": id, "at": ISOTime.format(at), "program": program ?? "-"])
                case .cycleEnded(let at, let outcome):
                    log.info("cycle_ended", ["appliance": id, "at": ISOTime.format(at), "outcome": outcome.rawValue])
                case .heldBack(let kind, _, let reason):
                    log.info("call_held_back", ["appliance": id, "kind": kind.rawValue, "reason": reason])
                case .warning(let message):
                    log.warning("appliance_warning", ["appliance": id, "message": message])
                case .call:
                    break
                }
            }
            for (pushID, call) in calls {
                if Task.isCancelled {
                    log.info("call_deferred", ["appliance": id, "kind": call.kind.rawValue,
                                               "reason": "shutting down; kept as pending for the next start"])
                    continue
                }
                await send(pushID: pushID, applianceID: id, kind: call.kind.rawValue, reason: call.reason,
                           body: call.bodyJSON(), line: CallLine.jsonl(call))
            }
        }
    }

    private func send(pushID: Int64, applianceID: String, kind: String, reason: String, body: String, line: String?) async {
        mark(pushID, .sending, nil, nil, nil)
        if let line, log.enabled(.debug) { log.debug("call_body", ["json": line]) }
        let result = await sink.notify(NotifyRequest(applianceID: applianceID, kind: kind, body: body))
        if result.succeeded {
            mark(pushID, .sent, result.status, nil, result.latencyMs)
            log.info("call", ["appliance": applianceID, "kind": kind, "reason": reason,
                              "status": String(result.status ?? 0), "latency_ms": String(Int(result.latencyMs))])
            return
        }
        let error = result.error?.description ?? "HTTP \(result.status.map(String.init) ?? "-")"
        explain(result)
        if kind == CallKind.clear.rawValue {
            // A clear goes out at least once: kept pending and retried until HA accepts it.
            mark(pushID, .pending, result.status, error, result.latencyMs)
            if !clearRetries.contains(where: { $0.pushID == pushID }) {
                clearRetries.append(PendingClear(pushID: pushID, applianceID: applianceID, kind: kind, body: body))
            }
            if nextClearRetry == nil {
                nextClearRetry = clock.now().addingTimeInterval(clearBackoff.next(jitter: Double.random(in: 0..<1, using: &jitter)))
            }
            log.warning("call_failed", ["appliance": applianceID, "kind": kind, "error": error, "action": "will retry"])
        } else {
            // Alerting calls go out at most once; a lost quiet update is replaced by the next.
            mark(pushID, .failed, result.status, error, result.latencyMs)
            log.warning("call_failed", ["appliance": applianceID, "kind": kind, "error": error, "action": "not retried"])
        }
    }

    private func explain(_ result: ServiceCallOutcome) {
        if result.status == 400, !saidSupernotifyMissing {
            saidSupernotifyMissing = true
            log.error("supernotify_refused", [
                "status": "400",
                "meaning": "supernotify.notify is missing or too old, or refused the data: install Supernotify 2.3+ and check HA's log",
            ])
        } else if result.status == 401, !saidUnauthorized {
            saidUnauthorized = true
            log.error("ha_token_refused", ["status": "401", "action": "check the long-lived access token"])
        }
    }

    private func retryClears() async {
        nextClearRetry = nil
        let retrying = clearRetries
        clearRetries = []
        for clear in retrying {
            if Task.isCancelled { clearRetries.append(clear); continue }
            await send(pushID: clear.pushID, applianceID: clear.applianceID, kind: clear.kind, reason: "retry", body: clear.body, line: nil)
        }
        if clearRetries.isEmpty { clearBackoff.reset() }
    }

    private func mark(_ pushID: Int64, _ status: PushStatus, _ http: Int?, _ error: String?, _ latency: Double?) {
        do {
            try store.markPush(id: pushID, status: status, httpStatus: http, error: error, latencyMs: latency, at: clock.now())
        } catch {
            log.error("store_write_failed", ["push": String(pushID), "error": "\(error)"])
        }
    }

    // MARK: Restarts and discovery

    /// Calls recorded but not known to be sent when the service last stopped: clears are
    /// sent again (at least once); alerting calls that may have gone out are not (at most
    /// once); calls never attempted go out if still fresh.
    private func recoverUnfinishedPushes() async {
        let unfinished: [PushRecord]
        do { unfinished = try store.unfinishedPushes() } catch {
            log.error("store_read_failed", ["error": "\(error)"])
            return
        }
        let now = clock.now()
        for push in unfinished {
            let isClear = push.kind == CallKind.clear.rawValue
            let fresh = push.status == .pending && now.timeIntervalSince(push.at) <= options.resendPendingWithinSeconds
            if isClear || fresh {
                log.info("call_recovered", ["appliance": push.applianceID, "kind": push.kind, "was": push.status.rawValue])
                await send(pushID: push.id, applianceID: push.applianceID, kind: push.kind, reason: "recovered",
                           body: push.body, line: nil)
            } else {
                let why = push.status == .sending
                    ? "in flight when the service stopped; not sent again (alerting calls go out at most once)"
                    : "planned but stale when the service restarted"
                mark(push.id, .abandoned, nil, why, nil)
                log.info("call_abandoned", ["appliance": push.applianceID, "kind": push.kind, "reason": why])
            }
        }
    }

    /// A cycle left open by an appliance no longer followed (removed from the config, or
    /// not discovered yet) stays open in the history: say so, once, at start.
    private func reportUntrackedOpenCycles() {
        do {
            for cycle in try store.openCycles() where appliances[cycle.applianceID] == nil {
                log.warning("open_cycle_untracked", [
                    "appliance": cycle.applianceID, "cycle": String(cycle.id), "started": ISOTime.format(cycle.startedAt),
                    "effect": "stays open until the appliance is tracked again",
                ])
            }
        } catch {
            log.error("store_read_failed", ["error": "\(error)"])
        }
    }

    private func adopt(_ found: [TrackedAppliance]) {
        for appliance in found {
            if appliances[appliance.id] == nil {
                log.info("appliance_discovered", ["appliance": appliance.id, "name": appliance.settings.name])
                order.append(appliance.id)
                do {
                    trackers[appliance.id] = try recorder.restoreTracker(settings: appliance.settings, log: log)
                } catch {
                    trackers[appliance.id] = ApplianceTracker(settings: appliance.settings)
                }
            }
            appliances[appliance.id] = appliance
        }
    }
}
