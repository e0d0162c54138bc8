import FoundationEssentials

/// A delayed start's wait on the lock screen (docs/PUSHES.md, "Delayed starts"): before the
/// appliance runs, the Live Activity shows "starts at 02:00" from the moment the wait left
/// plus the program's expected duration fits in one activity's life, so that the activity
/// never dies before the cycle ends. A value kept by the `ApplianceTracker` while it is idle
/// in `delayedstart`, and saved with it.
struct DelayedStart: Sendable, Codable, Equatable {
    /// How long an activity may show and still end before iOS ends it, with the margin the
    /// replacement keeps (`ActivityRenewal`): 7 h 45 min.
    static let fits: TimeInterval = ActivityRenewal.lifetime - ActivityRenewal.margin

    /// The start-in value the start was read from, as HA showed it: the start is worked out
    /// when that value changes, not at every poll that repeats it (a stored wait replays the same).
    var startInRaw: String?
    /// When the appliance starts, as the `start_in` role says; nil when it doesn't say.
    var startsAt: Date?
    /// When the cycle is expected to end; nil while unknown (nothing shows then).
    var expectedEnd: Date?
    /// The program, when the appliance says it during the wait.
    var program: String?
    /// When the wait went on the lock screen; nil until then.
    var shownAt: Date?
    /// The start the activity counts down to, and when it was last sent.
    var shownStart: Date?
    var lastCallAt: Date?
    /// The daily budget refused the wait's activity: it is not tried again, the run starts as usual.
    var refused = false
    /// Calls made for the wait; they count in the cycle's budget once it runs.
    var calls = 0

    init() {}

    /// The rule: the moment from which a cycle expected to end at `expectedEnd` fits in one
    /// activity's life; nil without an expected end.
    static func showAt(expectedEnd: Date?) -> Date? {
        expectedEnd?.addingTimeInterval(-fits)
    }

    /// When the wait goes on the lock screen (at once when this has passed); nil once shown,
    /// refused, or while its end is unknown.
    var showAt: Date? {
        shownAt == nil && !refused ? Self.showAt(expectedEnd: expectedEnd) : nil
    }

    /// The start plus the program's usual duration (`usual`, seconds); nil without either. A
    /// finish time reported during the wait is not taken: brands give the program's time
    /// left without the delay (Electrolux's time to end), so it would end too early.
    static func expectedEnd(startsAt: Date?, usual: Double?) -> Date? {
        guard let startsAt, let usual, usual > 0, usual.isFinite else { return nil }
        return startsAt.addingTimeInterval(usual)
    }

    /// Takes one observation of the wait; `usual` gives a program's usual duration in seconds.
    mutating func take(_ observation: Observation, usual: (String?) -> Double?) {
        if let program = observation.program { self.program = program }
        let raw = Observation.present(observation.raw[.startIn])
        if raw != startInRaw || startsAt == nil {
            startInRaw = raw
            startsAt = Self.startsAt(observation)
        }
        expectedEnd = Self.expectedEnd(startsAt: startsAt, usual: usual(program))
    }

    /// The start the `start_in` role gives: a timestamp as is, a duration (in its unit,
    /// minutes without one) from the observation's time; nil for anything else.
    static func startsAt(_ observation: Observation) -> Date? {
        guard let text = Observation.present(observation.raw[.startIn]) else { return nil }
        if let date = ISOTime.parse(text) { return date }
        guard let minutes = observation.minutes(.startIn), minutes >= 0 else { return nil }
        return observation.at.addingTimeInterval(minutes * 60)
    }

    /// What the wait's activity shows: the program, and the start its timer counts down to.
    var view: CycleView {
        var view = CycleView()
        view.program = program
        view.finishTime = startsAt
        return view
    }

    /// "Dishwasher starts at 02:00": the start in local time (a wait shows only with one).
    func message(settings: ApplianceSettings, clock: LocalClock) -> String {
        let time = startsAt.map { Self.clockTime($0, clock: clock) } ?? ""
        return Texts.render(settings.texts.startsAt, ["name": settings.name, "time": time])
    }

    /// "02:00": the local time of `date`, 24-hour.
    static func clockTime(_ date: Date, clock: LocalClock) -> String {
        let wall = clock.wall(date)
        let day = wall - (wall / 86_400).rounded(.down) * 86_400
        let minutes = Int((day / 60).rounded(.down))
        let hour = minutes / 60, minute = minutes % 60
        return (hour < 10 ? "0" : "") + "\(hour):" + (minute < 10 ? "0" : "") + "\(minute)"
    }

    /// The reasons of the wait's calls: its start, a moved start, and its clear when it ends without a run.
    static let startReason = "delayed start", movedReason = "delayed start moved"
    static let clearReason = "clear: delayed start ended"
    /// At most this many calls for a wait (its start and two moves), so that the run keeps its steps.
    static let maximumCalls = 3

    /// Whether `call` is one of a wait's (it counts in the cycle the run starts, if any).
    static func isWaitCall(_ call: SupernotifyCall) -> Bool {
        [startReason, movedReason, clearReason].contains(call.reason)
    }

    /// Whether the shown wait's start moved enough to be sent again at `now`: by the finish
    /// jitter or more, the settle time and the minimum gap after its last call passed, and
    /// within `maximumCalls`.
    func moved(at now: Date, settings: ApplianceSettings) -> Bool {
        guard let shownStart, let startsAt, let lastCallAt, calls < Self.maximumCalls else { return false }
        let gap = max(settings.settleSeconds, settings.minUpdateSeconds)
        return abs(startsAt.timeIntervalSince(shownStart)) >= settings.finishJitterSeconds
            && now >= lastCallAt.addingTimeInterval(gap)
    }

    /// A call of the wait's activity: its start (a `quiet` live call with an empty `alert`, so
    /// that the push-to-start chimes no more than a quiet update), or a moved start's update.
    mutating func call(at now: Date, moved: Bool, settings: ApplianceSettings, clock: LocalClock) -> SupernotifyCall {
        let body = SupernotifyBody.live(kind: .quiet, message: message(settings: settings, clock: clock), view: view,
                                        cycle: CycleInfo(startedAt: now), settings: settings)
        if shownAt == nil { shownAt = now }
        shownStart = startsAt
        lastCallAt = now
        calls += 1
        return SupernotifyCall(kind: .quiet, at: now, body: ActivityRenewal.withEmptyAlert(body),
                               reason: moved ? Self.movedReason : Self.startReason)
    }
}
