import FoundationEssentials
import Testing
@testable import CycleCore

/// `ApplianceTracker.nextDeadline`: which of its six sources falls due next and when,
/// what firing it does, and what falls due after. The audience (quiet hours, the people)
/// is handed in with each event, as the household does.
@Suite struct TrackerDeadlineTests {
    typealias Deadline = ApplianceTracker.Deadline

    struct Row: Sendable, CustomTestStringConvertible {
        var name: String
        var settings: ApplianceSettings = .washer()
        var lines: [(Date, [Role: String])]
        var audience = Audience()
        /// The deadline after the lines, and the effects of a tick at its moment, in short.
        var deadline: Deadline?
        var fired: [String] = []
        /// The deadline after that tick.
        var then: Deadline?

        var testDescription: String { name }
    }

    static let running: [Role: String] = [.operationState: "run", .program: cotton, .door: "locked"]
    static let finished: [Role: String] = [.operationState: "finished", .program: cotton, .door: "closed"]
    /// Quiet from 09:00 to 10:00 UTC: minutes 60 to 120 of the scripts.
    static let quietNineToTen: Audience = {
        var delivery = DeliverySettings()
        delivery.quietHours = QuietHours(start: 9 * 60, end: 10 * 60)
        return Audience(delivery: delivery)
    }()

    /// A washer on a smart plug.
    static let plug: ApplianceSettings = {
        var settings = ApplianceSettings.washer()
        settings.profile = .plug
        return settings
    }()

    static let rows: [Row] = [
        Row(name: "idle: nothing waits", lines: [], deadline: nil),
        Row(name: "a progress change settles before it goes out", settings: .dishwasher(),
            lines: [(zero, states("run", progress: 0, finish: finishA)), (at(10), states("run", progress: 10, finish: finishA))],
            deadline: Deadline(source: .update, at: at(30)), fired: ["call quiet step 10"],
            then: Deadline(source: .renewal, at: minute(465))),  // the Live Activity's replacement
        Row(name: "a heartbeat without a finish time", settings: .dishwasher { $0.steps = .at([10, 50]) },
            lines: [(zero, states("run", progress: 0))],
            deadline: Deadline(source: .update, at: minute(25)), fired: ["call quiet heartbeat"],
            then: Deadline(source: .update, at: minute(50))),
        Row(name: "unavailable for lost_after_minutes ends the cycle as lost",
            settings: .dishwasher { $0.lostAfterMinutes = 60 },
            lines: [(zero, states("run", progress: 30, finish: finishA)), (minute(10), [:])],
            deadline: Deadline(source: .lost, at: minute(70)), fired: ["call clear clear: lost", "ended lost"], then: nil),
        Row(name: "a plug's load held for start_seconds starts the cycle without a new reading", settings: plug,
            lines: [(zero, [.power: "0.3"]), (at(60), [.power: "1500"])],
            deadline: Deadline(source: .plug, at: at(60 + PowerSettings().startSeconds)), fired: ["started", "call start start"],
            then: Deadline(source: .update, at: at(120 + 25 * 60))),  // its heartbeat, 25 minutes after the start
        Row(name: "an unload reminder goes out at its time",
            lines: [(zero, running), (minute(60), finished)],
            deadline: Deadline(source: .reminder, at: minute(90)), fired: ["call reminder unload reminder 1"],
            then: Deadline(source: .reminder, at: minute(120))),
        Row(name: "in quiet hours the reminder waits as a notice until they end",
            lines: [(zero, running), (minute(50), finished)], audience: quietNineToTen,
            deadline: Deadline(source: .reminder, at: minute(80)), fired: ["waiting reminder"],
            then: Deadline(source: .heldNotice, at: minute(120))),
    ]

    @Test(arguments: rows)
    func theNextDeadlineFiresOnce(row: Row) {
        var tracker = ApplianceTracker(settings: row.settings)
        var budget = DailyBudget()
        for (at, raw) in row.lines {
            budget.usedToday += tracker.observe(Observation(at: at, raw: raw), budget: Self.open(budget, tracker),
                                                audience: row.audience).calls.count
        }
        #expect(tracker.nextDeadline == row.deadline)
        guard let deadline = row.deadline else { return }
        let effects = tracker.advance(to: deadline.at, budget: Self.open(budget, tracker), audience: row.audience)
        #expect(effects.map(Self.short) == row.fired)
        #expect(tracker.nextDeadline == row.then)
    }

    @Test func theWaitingNoticeGoesOutWhenQuietHoursEnd() throws {
        var tracker = ApplianceTracker(settings: .washer())
        let quiet = Self.quietNineToTen
        _ = tracker.observe(Observation(at: zero, raw: Self.running), budget: DailyBudget(openCycles: 1), audience: quiet)
        _ = tracker.observe(Observation(at: minute(50), raw: Self.finished), budget: DailyBudget(openCycles: 1), audience: quiet)
        _ = tracker.advance(to: minute(80), budget: DailyBudget(), audience: quiet)
        let notice = try #require(tracker.nextDeadline)
        #expect(notice == Deadline(source: .heldNotice, at: minute(120)))
        let effects = tracker.advance(to: notice.at, budget: DailyBudget(), audience: quiet)
        #expect(effects.map(Self.short) == ["call reminder unload reminder 1 (due 2026-11-02T09:20:00Z)"])
        #expect(tracker.nextDeadline == Deadline(source: .reminder, at: minute(150)))
    }

    @Test func aTickBeforeTheDeadlineDoesNothing() {
        var tracker = ApplianceTracker(settings: .washer())
        _ = tracker.observe(Observation(at: zero, raw: Self.running), budget: DailyBudget(openCycles: 1))
        _ = tracker.observe(Observation(at: minute(60), raw: Self.finished), budget: DailyBudget(openCycles: 1))
        #expect(tracker.advance(to: minute(89), budget: DailyBudget()).isEmpty)
        #expect(tracker.nextDeadline == Deadline(source: .reminder, at: minute(90)))
    }

    /// The budget as the household hands it in: an open cycle counted.
    static func open(_ budget: DailyBudget, _ tracker: ApplianceTracker) -> DailyBudget {
        var budget = budget
        budget.openCycles = tracker.cycle == nil ? 0 : 1
        return budget
    }

    static func short(_ effect: TrackerEffect) -> String {
        switch effect {
        case .call(let call): "call \(call.kind.rawValue) \(call.reason)"
        case .heldBack(let kind, _, _): "held back \(kind.rawValue)"
        case .waiting(let kind, _, _): "waiting \(kind.rawValue)"
        case .cycleStarted: "started"
        case .cycleEnded(_, let outcome): "ended \(outcome.rawValue)"
        case .warning(let text): "warning \(text)"
        case .unloaded: "unloaded"
        }
    }
}
