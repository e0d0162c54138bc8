import Foundation
import Testing
@testable import CycleCore

/// A delayed start's wait shows on the lock screen once the whole cycle fits in one Live
/// Activity's life (docs/PUSHES.md, "Delayed starts"). Time zero is 08:00 UTC, when the
/// wait begins; the local clock is UTC.
@Suite struct DelayedStartTests {
    static let dishwasher = ApplianceSettings.dishwasher()

    /// A tracker that knows how long Eco 50 usually takes (five finished cycles), or not.
    static func tracker(programMinutes: Double?, settings: ApplianceSettings = dishwasher) -> ApplianceTracker {
        var tracker = ApplianceTracker(settings: settings)
        if let programMinutes {
            tracker.history = FinishHistory(durations: [eco50: Array(repeating: programMinutes * 60, count: 5)])
        }
        return tracker
    }

    /// The wait as Home Connect shows it: `delayedstart`, the program, and the start-in in seconds.
    static func waiting(_ time: Date, startsAt: Date?, finish: Date? = nil) -> Observation {
        var raw = states("delayedstart", finish: finish.map(ISOTime.format))
        raw[.startIn] = startsAt.map { String(Int($0.timeIntervalSince(time))) }
        return Observation(at: time, raw: raw, units: [.startIn: "s"])
    }

    /// Observes the wait every 10 minutes up to (not including) `until`; returns every effect.
    static func wait(_ tracker: inout ApplianceTracker, from start: Date = zero, until end: Date, startsAt: Date?,
                     finish: Date? = nil, budget: DailyBudget = DailyBudget(),
                     audience: Audience = Audience()) -> [TrackerEffect] {
        var effects: [TrackerEffect] = []
        var time = start
        while time < end {
            effects += tracker.observe(waiting(time, startsAt: startsAt, finish: finish), budget: budget, audience: audience)
            time = time.addingTimeInterval(600)
        }
        return effects
    }

    static func calls(_ effects: [TrackerEffect]) -> [SupernotifyCall] {
        effects.compactMap { if case .call(let call) = $0 { call } else { nil } }
    }

    struct Row: Sendable, CustomTestStringConvertible {
        var name: String
        var delayMinutes: Double
        /// The program's usual duration; nil: no history.
        var programMinutes: Double?
        /// A finish time the brand reports during the wait, minutes after time zero.
        var reportedFinishMinutes: Double?
        /// The appliance says no start-in.
        var withoutStartIn = false
        /// Minutes after time zero when the wait shows; nil: not during the wait.
        var shownAt: Double?
        var testDescription: String { name }
    }

    static let rows: [Row] = [
        Row(name: "6 h of a 3 h 45 min program: once 2 h passed", delayMinutes: 360, programMinutes: 225, shownAt: 120),
        Row(name: "2 h of a 3 h program: at once", delayMinutes: 120, programMinutes: 180, shownAt: 0),
        Row(name: "4 h of a 3 h 45 min program: exactly fits, at once", delayMinutes: 240, programMinutes: 225, shownAt: 0),
        Row(name: "9 h of a 3 h program: 4 h 15 min into the wait", delayMinutes: 540, programMinutes: 180, shownAt: 255),
        Row(name: "a program longer than an activity: not before the run", delayMinutes: 60, programMinutes: 540,
            shownAt: nil),
        Row(name: "no history of the program: not before the run", delayMinutes: 120, programMinutes: nil, shownAt: nil),
        Row(name: "no start-in, a finish reported during the wait (time left without the delay): not before the run",
            delayMinutes: 120, programMinutes: 180, reportedFinishMinutes: 200, withoutStartIn: true, shownAt: nil),
    ]

    @Test(arguments: rows)
    func theWaitShowsOnceTheWholeCycleFits(row: Row) {
        var tracker = Self.tracker(programMinutes: row.programMinutes)
        let startsAt = minute(row.delayMinutes)
        let finish = row.reportedFinishMinutes.map(minute)
        var effects = Self.wait(&tracker, until: startsAt, startsAt: row.withoutStartIn ? nil : startsAt, finish: finish)
        effects += tracker.observe(Observation(at: startsAt, raw: states("run", progress: 0)), budget: DailyBudget())
        let waits = Self.calls(effects).filter { $0.reason == DelayedStart.startReason }
        #expect(waits.map(\.at) == [row.shownAt.map(minute)].compactMap(\.self))
        // The run's start follows either way; a shown wait's call counts in the cycle.
        #expect(Self.calls(effects).filter { $0.reason == "start" }.count == 1)
        #expect(tracker.cycle?.calls == waits.count + 1)
    }

    @Test func theWaitIsAQuietStartWithAnEmptyAlertCountingDownToTheStart() throws {
        var tracker = Self.tracker(programMinutes: 225)
        let effects = Self.wait(&tracker, until: minute(130), startsAt: minute(360))
        let call = try #require(Self.calls(effects).first)
        #expect(call.kind == .quiet)
        #expect(call.message == "Dishwasher starts at 14:00")
        #expect(call.when == Int(minute(360).timeIntervalSince1970))
        #expect(call.extra["live_update"] == .bool(true))
        #expect(call.extra["alert"] == .object(JSONObject([("title", .string(""))])))
        #expect(call.extra["progress"] == nil)
    }

    @Test func theMomentIsADeadlineBetweenObservations() {
        var tracker = Self.tracker(programMinutes: 225)
        _ = tracker.observe(Self.waiting(zero, startsAt: minute(360)), budget: DailyBudget())
        #expect(tracker.nextDeadline == .init(source: .delayedStart, at: minute(120)))
        let effects = tracker.advance(to: minute(120), budget: DailyBudget())
        #expect(Self.calls(effects).map(\.at) == [minute(120)])
        #expect(tracker.nextDeadline == nil)
    }

    @Test func theRunUpdatesTheWaitsActivityWhoseLifeCountsFromTheWait() throws {
        // Without anomaly notes, whose progress watch would fall due first.
        var tracker = Self.tracker(programMinutes: 225, settings: .dishwasher { $0.anomalyNotes = false })
        _ = Self.wait(&tracker, until: minute(360), startsAt: minute(360))
        let finish = ISOTime.format(minute(585))
        let effects = tracker.observe(Observation(at: minute(360), raw: states("run", progress: 0, finish: finish)),
                                      budget: DailyBudget())
        let start = try #require(Self.calls(effects).first)
        #expect(start.reason == "start")
        #expect(start.message == "Dishwasher started: Eco 50°C")
        // Shown at 2 h, its replacement would be due 7 h 45 min later: when the cycle ends.
        #expect(tracker.nextDeadline == .init(source: .renewal, at: minute(120 + 465)))
    }

    @Test func aWaitThatEndsWithoutARunTakesItsActivityAway() {
        var shown = Self.tracker(programMinutes: 225)
        _ = Self.wait(&shown, until: minute(200), startsAt: minute(360))
        let cleared = Self.calls(shown.observe(Observation(at: minute(200), raw: states("ready")), budget: DailyBudget()))
        #expect(cleared.map(\.reason) == [DelayedStart.clearReason])
        #expect(cleared.first?.kind == .clear)

        var hidden = Self.tracker(programMinutes: 225)
        _ = Self.wait(&hidden, until: minute(60), startsAt: minute(360))
        #expect(Self.calls(hidden.observe(Observation(at: minute(60), raw: states("ready")), budget: DailyBudget())).isEmpty)
        #expect(hidden.nextDeadline == nil)
    }

    @Test func switchingTheLiveActivityOffClearsAShownWait() {
        var tracker = Self.tracker(programMinutes: 225)
        _ = Self.wait(&tracker, until: minute(200), startsAt: minute(360))
        let off = Self.calls(tracker.retune(.dishwasher { $0.liveActivity = false }, at: minute(200), budget: DailyBudget()))
        #expect(off.map(\.reason) == [DelayedStart.clearReason])
        #expect(Self.calls(Self.wait(&tracker, from: minute(200), until: minute(300), startsAt: minute(360))).isEmpty)
    }

    @Test func aRestartKeepsTheWaitAndItsMoment() throws {
        var tracker = Self.tracker(programMinutes: 225)
        _ = tracker.observe(Self.waiting(zero, startsAt: minute(360)), budget: DailyBudget())
        let saved = try JSONDecoder().decode(ApplianceTracker.Snapshot.self, from: JSONEncoder().encode(tracker.snapshot))
        var restored = ApplianceTracker(settings: Self.dishwasher, restoring: saved)
        #expect(restored.nextDeadline == .init(source: .delayedStart, at: minute(120)))
        _ = restored.advance(to: minute(120), budget: DailyBudget())

        // Shown before the restart: the wait is not shown again, and the run updates it.
        let again = try JSONDecoder().decode(ApplianceTracker.Snapshot.self, from: JSONEncoder().encode(restored.snapshot))
        var second = ApplianceTracker(settings: Self.dishwasher, restoring: again)
        var effects = Self.wait(&second, from: minute(130), until: minute(360), startsAt: minute(360))
        effects += second.observe(Observation(at: minute(360), raw: states("run", progress: 0)), budget: DailyBudget())
        #expect(Self.calls(effects).map(\.reason) == ["start"])
        #expect(second.cycle?.calls == 2)
    }

    @Test func aWaitRefusedByTheDaysBudgetIsSaidOnceAndNotTriedAgain() {
        var tracker = Self.tracker(programMinutes: 225)
        let spent = DailyBudget(limit: 400, usedToday: 400)
        let effects = Self.wait(&tracker, until: minute(200), startsAt: minute(360), budget: spent)
        #expect(Self.calls(effects).isEmpty)
        let held = effects.filter { if case .heldBack(.quiet, _, DelayedStart.startReason) = $0 { true } else { false } }
        #expect(held.count == 1)
        #expect(tracker.nextDeadline == nil)
    }

    @Test func inQuietHoursTheWaitStillShowsQuietly() throws {
        var delivery = DeliverySettings()
        delivery.quietHours = QuietHours("09:00-12:00")
        var tracker = Self.tracker(programMinutes: 225)
        let effects = Self.wait(&tracker, until: minute(200), startsAt: minute(360), audience: Audience(delivery: delivery))
        let call = try #require(Self.calls(effects).first)
        #expect(call.at == minute(120))
        #expect(call.kind == .quiet)
    }

    @Test func withoutALiveActivityNothingShows() {
        var tracker = Self.tracker(programMinutes: 225, settings: .dishwasher { $0.liveActivity = false })
        #expect(Self.calls(Self.wait(&tracker, until: minute(200), startsAt: minute(360))).isEmpty)
        #expect(tracker.nextDeadline == nil)
    }

    @Test func aStartMovedOnTheApplianceIsShownAgainAndJitterIsNot() {
        var tracker = Self.tracker(programMinutes: 225)
        var effects = Self.wait(&tracker, until: minute(150), startsAt: minute(360))
        // The start-in read a minute off: within the finish jitter, nothing.
        effects += Self.wait(&tracker, from: minute(150), until: minute(160), startsAt: minute(361))
        // Delayed by an hour on the appliance: one update with the new start.
        effects += Self.wait(&tracker, from: minute(160), until: minute(200), startsAt: minute(420))
        let calls = Self.calls(effects)
        #expect(calls.map(\.reason) == [DelayedStart.startReason, DelayedStart.movedReason])
        #expect(calls.last?.at == minute(160))
        #expect(calls.last?.message == "Dishwasher starts at 15:00")
        #expect(calls.last?.when == Int(minute(420).timeIntervalSince1970))
    }

    /// Miele says the wait as `waiting_to_start` and its "Start in" sensor (`start_time`) in
    /// minutes that HA shows in hours, as the real washing machine of HA core's tests has it
    /// (`sensor.washing_machine_start_in`, unit h, 0.0 when no start is programmed).
    @Test func aMieleWaitShowsFromItsStartInInHours() throws {
        var settings = ApplianceSettings(id: "washer", name: "Washer")
        settings.profile = .miele
        var tracker = Self.tracker(programMinutes: 180, settings: settings)
        var raw = states("waiting_to_start")
        raw[.startIn] = "2.5"
        let effects = tracker.observe(Observation(at: zero, raw: raw, units: [.startIn: "h"]), budget: DailyBudget(),
                                      audience: Audience())
        let call = try #require(Self.calls(effects).first, "a 2.5 h wait of a 3 h program shows at once")
        #expect(call.message == "Washer starts at 10:30")
        #expect(call.when == Int(minute(150).timeIntervalSince1970))
        var none = DelayedStart()
        none.take(Observation(at: zero, raw: [.startIn: "0.0"], units: [.startIn: "h"]), usual: { _ in nil })
        #expect(none.startsAt == zero, "0.0 h: the start is now")
    }

    @Test func aStartInThatDoesNotCountDownKeepsTheStartItFirstGave() {
        var wait = DelayedStart()
        let first = Self.waiting(zero, startsAt: minute(360))
        wait.take(first, usual: { _ in 225 * 60 })
        var later = first
        later.at = minute(30)
        wait.take(later, usual: { _ in 225 * 60 })
        #expect(wait.startsAt == minute(360))
        #expect(wait.showAt == minute(120))
    }
}
