import Foundation
import Testing
@testable import CycleCore

/// A cycle longer than iOS lets a Live Activity live (8 hours) gets a fresh activity
/// before then: when, how it goes out and what it costs (docs/PUSHES.md, "Cycles longer
/// than a Live Activity"). Time zero is 08:00 UTC; the local clock is UTC.
@Suite struct ActivityRenewalTests {
    static let hotAir = "cooking_oven_program_heating_mode_hot_air"
    static let oven = ApplianceSettings(id: "oven", name: "Oven")
    /// Running, its finish time ten hours after time zero.
    static let slowCook: [Role: String] = states("run", finish: ISOTime.format(minute(600)), program: hotAir)

    static func audience(_ window: String?) -> Audience {
        var delivery = DeliverySettings()
        delivery.quietHours = window.flatMap(QuietHours.init)
        return Audience(delivery: delivery)
    }

    struct Row: Sendable, CustomTestStringConvertible {
        var name: String
        var quietHours: String?
        /// Minutes after the activity's start (time zero) when it is replaced.
        var replacedAt: Double
        var testDescription: String { name }
    }

    static let rows: [Row] = [
        Row(name: "no quiet hours: 7 h 45 min into the activity", quietHours: nil, replacedAt: 465),
        Row(name: "quiet hours elsewhere in the day change nothing", quietHours: "22:00-07:00", replacedAt: 465),
        Row(name: "quiet from 15:00: the minute before they begin", quietHours: "15:00-16:00", replacedAt: 419),
        Row(name: "quiet from 13:00: still more than 4 hours in", quietHours: "13:00-17:00", replacedAt: 299),
        Row(name: "quiet from 09:00 for 11 hours: no moment outside, so the latest, quietly", quietHours: "09:00-20:00",
            replacedAt: 465),
    ]

    @Test(arguments: rows)
    func theReplacementFallsDueOutsideQuietHours(row: Row) throws {
        let audience = Self.audience(row.quietHours)
        var tracker = ApplianceTracker(settings: Self.oven)
        let started = tracker.observe(Observation(at: zero, raw: Self.slowCook), budget: DailyBudget(openCycles: 1),
                                      audience: audience)
        #expect(started.kinds == [.start])
        #expect(tracker.nextDeadline == .init(source: .renewal, at: minute(row.replacedAt)))

        #expect(tracker.advance(to: minute(row.replacedAt - 1), budget: DailyBudget(openCycles: 1), audience: audience)
            .isEmpty)
        let effects = tracker.advance(to: minute(row.replacedAt), budget: DailyBudget(openCycles: 1), audience: audience)
        #expect(effects.calls.map { "\($0.kind.rawValue) \($0.reason)" } == ["clear clear: replace", "quiet replace"])
        for call in effects.calls {
            #expect(call.at == minute(row.replacedAt))
            #expect(call.extra["alert"] == .object(JSONObject([("title", .string(""))])))
            #expect(call.extra["mobile_push_notification_tag"] == .string("appliance_oven"))
        }
        let start = try #require(effects.calls.last)
        #expect(start.extra["live_update"] == .bool(true))
        #expect(start.extra["silent"] == .bool(true))
        #expect(start.when == Int(minute(600).timeIntervalSince1970))
        #expect(tracker.cycle?.calls == 3)
        // The fresh activity is replaced in its turn, counted from its own start.
        let next = try #require(tracker.nextDeadline)
        #expect(next.source == .renewal)
        #expect(next.at > minute(row.replacedAt + 240))
    }

    @Test func theWholeTenHourCycleMakesOneReplacementWithinItsBudget() {
        var tracker = ApplianceTracker(settings: Self.oven)
        var effects: [TrackerEffect] = []
        for minutes in stride(from: 0.0, through: 590, by: 10) {
            effects += tracker.observe(Observation(at: minute(minutes), raw: Self.slowCook), budget: DailyBudget(openCycles: 1))
        }
        effects += tracker.observe(Observation(at: minute(600), raw: states("finished", program: Self.hotAir)),
                                   budget: DailyBudget(openCycles: 1))
        #expect(effects.calls.map(\.reason) == ["start", "clear: replace", "replace", "clear: finished", "end: finished"])
        #expect(effects.calls[1].at == minute(465))
        #expect(tracker.lastEndedCycle?.calls == 5)
    }

    @Test func aCycleEndingBeforeTheLimitIsNeverReplaced() {
        var tracker = ApplianceTracker(settings: Self.oven)
        _ = tracker.observe(Observation(at: zero, raw: Self.slowCook), budget: DailyBudget(openCycles: 1))
        let ended = tracker.observe(Observation(at: minute(300), raw: states("finished", program: Self.hotAir)),
                                    budget: DailyBudget(openCycles: 1))
        #expect(ended.calls.map(\.reason) == ["clear: finished", "end: finished"])
        #expect(tracker.nextDeadline?.source != .renewal)
    }

    @Test func withoutTwoFreeCallsTheReplacementIsHeldBackOnce() {
        var settings = Self.oven
        settings.cyclePushLimit = 4
        var tracker = ApplianceTracker(settings: settings)
        _ = tracker.observe(Observation(at: zero, raw: Self.slowCook), budget: DailyBudget(openCycles: 1))
        let effects = tracker.advance(to: minute(465), budget: DailyBudget(openCycles: 1))
        #expect(effects.calls.isEmpty)
        #expect(effects.heldBack == ["quiet replace"])
        #expect(tracker.nextDeadline == nil)
    }

    @Test func aCycleWithoutAFinishTimeKeepsTwoCallsForItsReplacement() {
        // No finish time: a heartbeat every 25 minutes, until 2 hours before the replacement.
        var tracker = ApplianceTracker(settings: Self.oven)
        var effects = tracker.observe(Observation(at: zero, raw: states("run", program: Self.hotAir)),
                                      budget: DailyBudget(openCycles: 1))
        effects += tracker.advance(to: minute(599), budget: DailyBudget(openCycles: 1))
        let reasons = effects.calls.map(\.reason)
        #expect(reasons.filter { $0 == "heartbeat" }.count == 13)
        #expect(reasons.suffix(2) == ["clear: replace", "replace"])
        #expect(tracker.cycle?.calls == 16)  // the start, 13 heartbeats, the replacement: the clear and end still fit
    }

    @Test func theDayBudgetRefusingAQuietCallHoldsItBack() {
        var tracker = ApplianceTracker(settings: Self.oven)
        _ = tracker.observe(Observation(at: zero, raw: Self.slowCook), budget: DailyBudget(openCycles: 1))
        var tight = DailyBudget(openCycles: 1)
        tight.usedToday = tight.limit - 10
        let effects = tracker.advance(to: minute(465), budget: tight)
        #expect(effects.heldBack == ["quiet replace"])
    }

    @Test func aSnapshotKeepsTheActivitysAge() throws {
        var tracker = ApplianceTracker(settings: Self.oven)
        _ = tracker.observe(Observation(at: zero, raw: Self.slowCook), budget: DailyBudget(openCycles: 1))
        let data = try JSONEncoder().encode(tracker.snapshot)
        let restored = ApplianceTracker(settings: Self.oven,
                                        restoring: try JSONDecoder().decode(ApplianceTracker.Snapshot.self, from: data))
        #expect(restored.nextDeadline == .init(source: .renewal, at: minute(465)))
    }

    @Test func aSnapshotFromBeforeReplacementsCountsTheActivityFromTheCyclesStart() throws {
        var tracker = ApplianceTracker(settings: Self.oven)
        _ = tracker.observe(Observation(at: zero, raw: Self.slowCook), budget: DailyBudget(openCycles: 1))
        var json = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(tracker.snapshot)) as? [String: Any])
        var planner = try #require(json["planner"] as? [String: Any])
        #expect(planner.removeValue(forKey: "renewal") != nil)
        json["planner"] = planner
        let old = try JSONDecoder().decode(ApplianceTracker.Snapshot.self, from: JSONSerialization.data(withJSONObject: json))
        var restored = ApplianceTracker(settings: Self.oven, restoring: old)
        #expect(restored.nextDeadline == nil)
        _ = restored.observe(Observation(at: minute(10), raw: Self.slowCook), budget: DailyBudget(openCycles: 1))
        #expect(restored.nextDeadline == .init(source: .renewal, at: minute(465)))
    }

    @Test func theWindowStartIsFoundAcrossMidnight() throws {
        let window = try #require(QuietHours("22:00-07:00"))
        #expect(window.start(before: minute(20 * 60 + 30), clock: .utc) == minute(14 * 60))  // 04:30 → 22:00 the day before
        #expect(window.start(before: minute(4 * 60), clock: .utc) == minute(4 * 60))  // 12:00 is outside
    }
}
