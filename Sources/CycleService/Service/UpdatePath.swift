import CycleCore
import FoundationEssentials

/// How the runner hears of Home Assistant's changes, as a value: the WebSocket
/// subscription with its full read, polling (in `poll` mode, or while events can't be
/// had), outages and their backoff, and what is said about them, once each
/// (docs/CYCLES.md, "Where the state comes from").
///
/// A mutating func per event (the runner's `start`, timers, the subscription's and the
/// reads' outcomes), each returning what the runner does next; time comes in with the
/// event, and so does the jitter of a backoff. No I/O and no clock: tested as tables.
///
///     start ─▶ connect ─▶ connected ─▶ read(afterSubscribing) ─▶ answered ─▶ live
///                 │                                                 lost ◀─┘
///                 └▶ connectFailed ─▶ read(probe) ─▶ answered: poll, try events later
///                                                 └▶ failed: outage, back off
///
/// - A subscription lost after it lived `healthySeconds` (HA restarting, most likely: HA
///   cancels every WebSocket connection on `homeassistant_stop`) is made again at once,
///   and for `quickRetryWindowSeconds` a failed attempt is tried again every
///   `quickRetrySeconds`: HA is found within a second of answering again.
/// - One lost sooner counts as a failure: subscribing again waits out a backoff, and
///   polling stands in meanwhile. `events_lost` is said once until one lives long enough.
///   Except once: HA said it was stopping (its normal close) — a restart soon after the
///   last — and that loss is taken as a healthy one's; a second such loss before a
///   subscription lives `healthySeconds` is a failure again (a peer that closes every
///   subscription at once still gets the backoff).
/// - A refused token is said once until HA accepts it again (a read, a subscription, or
///   a call), whichever path refused it.
struct UpdatePath: Sendable {
    struct Settings: Sendable {
        var updates: Runner.Updates
        var activePollSeconds: Double
        var idlePollSeconds: Double
        /// How soon, after falling back to polling, events are tried again.
        var retryEventsSeconds: Double = 600
        /// A subscription lost sooner than this after it was made counts as a failure.
        var healthySeconds: Double = 30
        /// The waits after a subscription was lost too soon: 2 s, doubling up to 2 min.
        var resubscribeBackoff = Backoff(initial: 2, cap: 120)
        /// After a healthy subscription was lost: how often HA is tried, and for how long.
        var quickRetrySeconds: Double = 0.5
        var quickRetryWindowSeconds: Double = 120
    }

    /// Why a full read is asked for; its answer (``answered(at:cycleRunning:)`` or
    /// ``readFailed(_:at:jitter:)``) means something different for each.
    enum Read: Sendable, Equatable {
        /// Right after subscribing: whatever changed before is seen now.
        case afterSubscribing
        /// A poll (`poll` mode, or standing in for events).
        case poll
        /// Subscribing failed: does HA answer at all?
        case probe
    }

    enum Action: Sendable, Equatable {
        /// Subscribe in the background; its outcome comes back as ``connected(entities:at:)``
        /// or ``connectFailed(_:at:)``, while everything else goes on.
        case connect
        /// Close the subscription, or give up the attempt under way.
        case disconnect
        /// Read every followed entity now; answer with its outcome.
        case read(Read)
        case log(LogLine)
    }

    private enum State: Equatable {
        case idle
        /// No subscription: polling, or waiting out an outage, as the timers say.
        case disconnected
        case connecting
        /// Subscribed since then; the full read is under way.
        case subscribed(since: Date)
        case live(since: Date)
    }

    /// What `events_connected` says came before.
    private enum Before: String {
        case starting, polling, lost, unreachable
        case followingMore = "following_more"
    }

    private enum Said: Hashable { case eventsUnavailable, eventsLost, haUnreachable, tokenRefused }

    let settings: Settings
    private var state = State.idle
    private var reading: Read?
    private var nextPoll: Date?
    private var nextConnect: Date?
    /// Until when a failed attempt is tried again quickly (HA restarting).
    private var quickUntil: Date?
    /// A young subscription's loss was taken as a restart since the last healthy one.
    private var youngStopTaken = false
    private var outageSince: Date?
    private var reachBackoff = Backoff()
    private var resubscribeBackoff: Backoff
    /// In the quick window: the waits after a probe HA answered (its WebSocket failed).
    private var answeredProbeBackoff: Backoff
    private var said: Set<Said> = []
    private var before = Before.starting
    /// Why subscribing failed last, for `events_unavailable`.
    private var connectError = ""

    init(settings: Settings) {
        self.settings = settings
        resubscribeBackoff = settings.resubscribeBackoff
        answeredProbeBackoff = Backoff(initial: settings.quickRetrySeconds, cap: settings.resubscribeBackoff.cap)
    }

    /// Subscribed and read: changes come as events.
    var isLive: Bool {
        if case .live = state { return true }
        return false
    }

    /// HA answers (no outage since its last answer).
    var reachable: Bool { outageSince == nil }

    /// When ``tick(at:)`` has something to do; nil while nothing is due on time.
    var nextWake: Date? {
        guard reading == nil else { return nil }
        switch state {
        case .disconnected: return [nextPoll, nextConnect].compactMap { $0 }.min()
        case .connecting: return nextPoll
        default: return nil
        }
    }

    // MARK: Events

    mutating func start(at now: Date) -> [Action] {
        state = .disconnected
        if settings.updates == .events { nextConnect = now } else { nextPoll = now }
        return tick(at: now)
    }

    /// Time passed: a poll or an attempt to subscribe may be due.
    mutating func tick(at now: Date) -> [Action] {
        guard reading == nil else { return [] }
        if state == .disconnected, let due = nextConnect, due <= now {
            state = .connecting
            nextConnect = nil
            return [.connect]
        }
        guard state == .disconnected || state == .connecting, let due = nextPoll, due <= now else { return [] }
        nextPoll = nil
        return ask(.poll)
    }

    /// The subscription is made: HA accepted the token and confirmed every subscription.
    mutating func connected(entities: Int, at now: Date) -> [Action] {
        // Not waiting for one (the runner closes a stale subscription itself).
        guard state == .connecting else { return [] }
        state = .subscribed(since: now)
        nextPoll = nil
        said.remove(.tokenRefused)
        said.remove(.eventsUnavailable)
        let line = LogLine(.info, "events_connected", [("entities", String(entities)), ("was", before.rawValue)])
        return [.log(line)] + ask(.afterSubscribing)
    }

    mutating func connectFailed(_ failure: SourceFailure, at now: Date) -> [Action] {
        guard state == .connecting else { return [] }
        state = .disconnected
        connectError = failure.message
        return tokenRefused(failure) + ask(.probe)
    }

    /// The subscription ended: HA closed it, the connection broke, or it stopped answering;
    /// `stopping`: HA said it was stopping (see ``SourceFailure/isStopping``).
    mutating func lost(error: String?, at now: Date, stopping: Bool = false, jitter: Double = 0) -> [Action] {
        let since: Date
        switch state {
        case .live(let start), .subscribed(let start): since = start
        default: return []
        }
        state = .disconnected
        before = .lost
        var action = "subscribing again"
        let healthy = now.timeIntervalSince(since) >= settings.healthySeconds
        if healthy || (stopping && !youngStopTaken) {
            if healthy {
                resubscribeBackoff.reset()
                answeredProbeBackoff.reset()
                said.remove(.eventsLost)
                youngStopTaken = false
            } else {
                youngStopTaken = true
            }
            quickUntil = now.addingTimeInterval(settings.quickRetryWindowSeconds)
            nextConnect = now
        } else {
            let wait = resubscribeBackoff.next(jitter: jitter)
            nextConnect = now.addingTimeInterval(wait)
            nextPoll = now.addingTimeInterval(settings.activePollSeconds)
            action = "lost \(NumberText.plain(now.timeIntervalSince(since))) s after subscribing: polling every "
                + "\(NumberText.plain(settings.activePollSeconds)) s, subscribing again in \(NumberText.int(wait) ?? 0) s; "
                + "said once until a subscription lasts \(NumberText.plain(settings.healthySeconds)) s"
        }
        var actions: [Action] = []
        if let error, said.insert(.eventsLost).inserted {
            actions.append(.log(LogLine(.warning, "events_lost", [("error", error), ("action", action)])))
        }
        return actions + tick(at: now)
    }

    /// The read asked for was answered.
    mutating func answered(at now: Date, cycleRunning: Bool) -> [Action] {
        guard let read = reading else { return [] }
        reading = nil
        var actions: [Action] = []
        if let since = outageSince {
            actions.append(.log(LogLine(.info, "ha_back", [("after_seconds", String(NumberText.int(now.timeIntervalSince(since)) ?? 0))])))
            outageSince = nil
            said.remove(.haUnreachable)
        }
        said.remove(.tokenRefused)
        reachBackoff.reset()
        let poll = now.addingTimeInterval(cycleRunning ? settings.activePollSeconds : settings.idlePollSeconds)
        switch read {
        case .afterSubscribing:
            if case .subscribed(let since) = state { state = .live(since: since) }
        case .poll:
            nextPoll = poll
        case .probe:
            // HA answers, its WebSocket API doesn't: polling stands in.
            nextPoll = poll
            if let quick = quickUntil, now < quick {
                nextConnect = now.addingTimeInterval(answeredProbeBackoff.next(jitter: 0))
            } else {
                nextConnect = now.addingTimeInterval(settings.retryEventsSeconds)
                before = .polling
                if said.insert(.eventsUnavailable).inserted { actions.append(.log(eventsUnavailable)) }
            }
        }
        return actions
    }

    /// The read asked for failed: HA is unreachable, or refused the token.
    mutating func readFailed(_ failure: SourceFailure, at now: Date, jitter: Double = 0) -> [Action] {
        guard let read = reading else { return [] }
        reading = nil
        var actions: [Action] = []
        if outageSince == nil { outageSince = now }
        if said.insert(.haUnreachable).inserted {
            actions.append(.log(LogLine(.warning, "ha_unreachable", [("error", failure.message),
                                                                      ("action", "retrying with backoff; logged once per outage")])))
        }
        actions += tokenRefused(failure)
        var wait = quickUntil.map { now < $0 } == true ? settings.quickRetrySeconds : reachBackoff.next(jitter: jitter)
        if failure.isUnauthorized { wait = max(wait, 60) }
        let retry = now.addingTimeInterval(wait)
        switch read {
        case .afterSubscribing:
            // HA answered the subscription but not the read: start over after the wait.
            state = .disconnected
            before = .unreachable
            actions.append(.disconnect)
            nextConnect = retry
        case .poll:
            nextPoll = retry
        case .probe:
            before = .unreachable
            nextPoll = nil
            nextConnect = retry
        }
        return actions
    }

    /// The followed entities changed: a fresh subscription (and full read) takes them in.
    mutating func entitiesChanged(at now: Date) -> [Action] {
        switch state {
        case .connecting, .subscribed, .live:
            state = .disconnected
            before = .followingMore
            nextConnect = now
            return [.disconnect] + tick(at: now)
        case .idle, .disconnected:
            return []
        }
    }

    /// A call was refused for the token (HTTP 401).
    mutating func callRefusedToken(at now: Date) -> [Action] {
        guard said.insert(.tokenRefused).inserted else { return [] }
        return [.log(LogLine(.error, "ha_token_refused", [("status", "401"), ("action", "check the long-lived access token")]))]
    }

    /// A call was accepted: the token is good again.
    mutating func callAccepted() {
        said.remove(.tokenRefused)
    }

    // MARK: Steps

    private mutating func ask(_ read: Read) -> [Action] {
        reading = read
        return [.read(read)]
    }

    private mutating func tokenRefused(_ failure: SourceFailure) -> [Action] {
        guard failure.isUnauthorized, said.insert(.tokenRefused).inserted else { return [] }
        return [.log(LogLine(.error, "ha_token_refused", [
            ("error", failure.message), ("action", "check the long-lived access token; retrying every few minutes"),
        ]))]
    }

    private var eventsUnavailable: LogLine {
        LogLine(.warning, "events_unavailable", [
            ("error", connectError),
            ("action", "polling every \(NumberText.plain(settings.activePollSeconds)) s while a cycle runs, "
                + "\(NumberText.plain(settings.idlePollSeconds)) s otherwise; trying events again every "
                + "\(NumberText.plain(settings.retryEventsSeconds / 60)) min"),
        ])
    }
}
