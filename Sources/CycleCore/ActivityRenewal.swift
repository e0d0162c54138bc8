import FoundationEssentials

/// iOS ends a Live Activity 8 hours after it started, whatever is sent to it; a cycle
/// that runs longer gets a fresh activity with the same state before then (docs/PUSHES.md,
/// "Cycles longer than a Live Activity"). A value kept by the `PushPlanner` for the
/// activity the phone shows now.
struct ActivityRenewal: Sendable, Codable, Equatable {
    /// How long iOS lets a Live Activity live (ActivityKit; the HA app's token expires then too).
    static let lifetime: TimeInterval = 8 * 3600
    /// The replacement goes out at the latest this long before the activity would end.
    static let margin: TimeInterval = 15 * 60
    /// Nor earlier than this into the activity's life (half of it): a replacement moved
    /// out of quiet hours further back than this goes out at the latest moment instead.
    static let earliestAge: TimeInterval = 4 * 3600
    /// Calls one replacement takes: the clear of the old activity and the quiet start of the new.
    static let calls = 2
    /// How long before its moment a replacement keeps its two calls from news that is not a
    /// step, when the cycle reports no finish time to tell whether it needs one.
    static let reserveLead: TimeInterval = 2 * 3600

    /// When the activity the phone shows was started (the cycle's start or the last replacement).
    var activityStartedAt: Date
    /// Replacements sent so far in this cycle.
    var count = 0
    /// The replacement was held back (no budget): this activity is left to end, not tried again.
    var givenUp = false
    /// When this activity is replaced (`due(window:clock:)`), planned again at every update
    /// with the quiet hours of that moment.
    private(set) var dueAt: Date

    init(activityStartedAt: Date, window: QuietHours?, clock: LocalClock) {
        self.activityStartedAt = activityStartedAt
        dueAt = activityStartedAt
        plan(window: window, clock: clock)
    }

    mutating func plan(window: QuietHours?, clock: LocalClock) {
        dueAt = due(window: window, clock: clock)
    }

    /// When this activity is replaced: the latest moment up to `lifetime - margin` into
    /// its life that is outside `window`; when that moment is in the window, the last
    /// minute before the window began, if that is at least `earliestAge` into its life;
    /// else (a window longer than the activity's life left) the latest moment, in the window.
    func due(window: QuietHours?, clock: LocalClock) -> Date {
        let latest = activityStartedAt.addingTimeInterval(Self.lifetime - Self.margin)
        guard let window, window.contains(latest, clock: clock) else { return latest }
        let before = window.start(before: latest, clock: clock).addingTimeInterval(-60)
        let earliest = activityStartedAt.addingTimeInterval(Self.earliestAge)
        if before >= earliest, !window.contains(before, clock: clock) { return before }
        return latest
    }

    /// Whether the cycle keeps two calls for the replacement: its shown finish time is
    /// after the replacement's moment, or it shows none and that moment is near.
    func needsReserve(finishTime: Date?, at now: Date) -> Bool {
        let due = dueAt
        if givenUp { return false }
        if let finishTime { return finishTime > due }
        return now >= due.addingTimeInterval(-Self.reserveLead)
    }

    /// The clear that ends the old activity: `SupernotifyBody.clearNow` with an empty
    /// `alert`, so that the iOS activity's end carries no alert text of its own.
    static func clearBody(settings: ApplianceSettings) -> JSONObject {
        withEmptyAlert(SupernotifyBody.clearNow(settings: settings))
    }

    /// The start of the new activity: a `quiet` live call showing `view` with an empty
    /// `alert`, which the push relay puts in place of the alert it gives every push-to-start.
    static func startBody(view: CycleView, cycle: CycleInfo, settings: ApplianceSettings) -> JSONObject {
        let message = SupernotifyBody.quietMessage(view: view, settings: settings)
        return withEmptyAlert(SupernotifyBody.live(kind: .quiet, message: message, view: view, cycle: cycle,
                                                   settings: settings))
    }

    /// `body` with an empty `alert` in its `extra_data`.
    static func withEmptyAlert(_ body: JSONObject) -> JSONObject {
        guard case .object(var extra)? = body["extra_data"] else { return body }
        var body = body
        extra["alert"] = .object(JSONObject([("title", .string(""))]))
        body["extra_data"] = .object(extra)
        return body
    }
}

extension QuietHours {
    /// When the window that holds `date` began; `date` itself when it is outside.
    func start(before date: Date, clock: LocalClock) -> Date {
        guard contains(date, clock: clock) else { return date }
        let wall = clock.wall(date)
        let midnight = (wall / 86_400).rounded(.down) * 86_400
        var startWall = midnight + Double(start) * 60
        if startWall > wall { startWall -= 86_400 }
        let instant = clock.instant(wall: startWall)
        return instant <= date ? instant : date
    }
}
