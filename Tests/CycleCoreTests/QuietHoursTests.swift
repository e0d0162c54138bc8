import FoundationEssentials
import Testing
@testable import CycleCore

/// 2026-11-02T00:00:00Z, and a UTC time that day (hours may run past 24).
func day(_ hours: Double) -> Date { Date(timeIntervalSince1970: 1_793_577_600 + hours * 3600) }

/// A Berlin-like clock without zone files: CET, CEST from 2026-03-29T01:00Z to 2026-10-25T01:00Z.
let berlin = LocalClock { date in
    let seconds = date.timeIntervalSince1970
    return seconds >= 1_774_746_000 && seconds < 1_792_890_000 ? 7200 : 3600
}

func night(_ text: String = "22:00-07:00") -> QuietHours { QuietHours(text)! }

/// Quiet hours on `clock`, no people.
func quiet(_ window: String = "22:00-07:00", clock: LocalClock = .utc) -> DeliverySettings {
    var delivery = DeliverySettings()
    delivery.quietHours = night(window)
    delivery.clock = clock
    return delivery
}

/// A cycle from `start` to `end` (dates), its door closed, then an idle line every 30
/// minutes until `until`; `extra(date)` adds states to any line (the door, people).
func cycleTrace(start: Date, end: Date, until: Date, program: String = eco50,
                extra: (Date) -> [String: String] = { _ in [:] }) -> [String] {
    let finish = ISOTime.format(end)
    func line(_ date: Date, _ states: [String: String]) -> String {
        traceLine(date, states.merging(extra(date)) { _, new in new })
    }
    var lines = [line(start, ["operation_state": "run", "program": program, "progress": "0", "finish_time": finish, "door": "locked"])]
    lines.append(line(end, ["operation_state": "finished", "program": program, "door": "closed"]))
    var time = end.addingTimeInterval(1800)
    while time <= until {
        lines.append(line(time, ["operation_state": "finished", "program": program, "door": "closed"]))
        time = time.addingTimeInterval(1800)
    }
    return lines
}

extension Array where Element == TrackerEffect {
    var waiting: [String] {
        compactMap { if case .waiting(let kind, _, let reason) = $0 { "\(kind.rawValue) \(reason)" } else { nil } }
    }
}

/// docs/PUSHES.md, "Quiet hours": the window, then replayed traces across midnight and DST.
@Suite struct QuietHoursTests {
    @Test(arguments: [
        ("22:00-07:00", 22.0, true), ("22:00-07:00", 23.5, true), ("22:00-07:00", 24 + 6.99, true),
        ("22:00-07:00", 24 + 7.0, false), ("22:00-07:00", 21.99, false), ("22:00-07:00", 12.0, false),
        ("13:00-15:00", 13.0, true), ("13:00-15:00", 15.0, false), ("13:00-15:00", 12.99, false),
    ])
    func theWindow(window: String, hour: Double, inside: Bool) {
        #expect(night(window).contains(day(hour), clock: .utc) == inside)
    }

    @Test(arguments: [
        // Across midnight, on UTC and on Berlin in winter (+1) and on both DST nights.
        ("22:00-07:00", LocalClock.utc, day(23.5), day(24 + 7)),
        ("22:00-07:00", LocalClock.utc, day(3), day(7)),
        ("22:00-07:00", berlin, day(22.5), day(24 + 6)),
        ("13:00-15:00", LocalClock.utc, day(14), day(15)),
        // 2026-10-24 23:30 CEST (21:30Z): 07:00 CET on the 25th is 06:00Z, nine and a half hours on.
        ("22:00-07:00", berlin, Date(timeIntervalSince1970: 1_792_877_400), Date(timeIntervalSince1970: 1_792_908_000)),
        // 2026-03-28 23:30 CET (22:30Z): 07:00 CEST on the 29th is 05:00Z, six and a half hours on.
        ("22:00-07:00", berlin, Date(timeIntervalSince1970: 1_774_737_000), Date(timeIntervalSince1970: 1_774_760_400)),
        // Ending in the spring-forward gap (02:30 does not exist): read before the change, 03:30 CEST.
        ("22:00-02:30", berlin, Date(timeIntervalSince1970: 1_774_737_000), Date(timeIntervalSince1970: 1_774_747_800)),
    ])
    func theWindowEnds(window: String, clock: LocalClock, inside: Date, end: Date) {
        #expect(night(window).end(after: inside, clock: clock) == end)
    }

    @Test(arguments: ["", "22-07", "22:00", "22:00-22:00", "24:00-07:00", "22:60-07:00", "2:00-07:00", "22:00-07:00-08:00"])
    func badWindowsAreRefused(text: String) {
        #expect(QuietHours(text) == nil)
    }

    @Test func anEndAt2330SendsTheClearAtOnceAndTheEndNotificationAt0700() throws {
        let lines = cycleTrace(start: day(22), end: day(23.5), until: day(24 + 8))
        let result = try Replay.run(settings: .dishwasher(), lines: numbered(lines), delivery: quiet())
        #expect(result.calls.map(\.kind) == [.start, .clear, .end])
        let clear = try #require(result.calls.first { $0.kind == .clear })
        #expect(clear.at == day(23.5))
        #expect(clear.extra["alert"] == .object(JSONObject([("title", .string(""))])), "the iOS activity ends without an alert")
        let end = try #require(result.calls.last)
        #expect(end.at == day(24 + 7))
        #expect(end.message == "Eco 50°C done in 1 h 30 min", "the summary is the cycle's, not the wait's")
        #expect(end.reason == "end: finished (due 2026-11-02T23:30:00Z)")
        #expect(result.effects.waiting == ["end end: finished: quiet hours, waiting until 2026-11-03T07:00:00Z"])
        // The start was the user's: it alerts even at 22:00.
        #expect(result.calls.first?.kind == .start)
    }

    @Test func theDoorOpeningAt0630DropsIt() throws {
        let lines = cycleTrace(start: day(22), end: day(23.5), until: day(24 + 8)) { date in
            date >= day(24 + 6.5) ? ["door": "open"] : [:]
        }
        let result = try Replay.run(settings: .dishwasher(), lines: numbered(lines), delivery: quiet())
        #expect(result.calls.map(\.kind) == [.start, .clear])
        #expect(result.effects.waiting.last == "end end: finished: dropped, the door opened")
    }

    @Test func aNewCycleStartingMeanwhileDropsIt() throws {
        var lines = cycleTrace(start: day(22), end: day(23.5), until: day(24 + 4))
        lines += cycleTrace(start: day(24 + 5), end: day(24 + 6), until: day(24 + 8))
        let result = try Replay.run(settings: .dishwasher(), lines: numbered(lines), delivery: quiet())
        #expect(result.effects.waiting.contains("end end: finished: dropped, a new cycle started"))
        let ends = result.calls.filter { $0.kind == .end }
        #expect(ends.map(\.at) == [day(24 + 7)], "only the second cycle's, held in its turn")
    }

    @Test(arguments: [
        // Berlin, autumn: 23:30 CEST is 21:30Z, 07:00 CET 06:00Z.
        (1_792_877_400.0, 1_792_908_000.0),
        // Berlin, spring: 23:30 CET is 22:30Z, 07:00 CEST 05:00Z.
        (1_774_737_000.0, 1_774_760_400.0),
    ])
    func acrossDSTTheEndNotificationWaitsForLocalSeven(end: Double, seven: Double) throws {
        let ended = Date(timeIntervalSince1970: end)
        let lines = cycleTrace(start: ended.addingTimeInterval(-5400), end: ended,
                               until: Date(timeIntervalSince1970: seven + 3600))
        let result = try Replay.run(settings: .dishwasher(), lines: numbered(lines), delivery: quiet(clock: berlin))
        #expect(result.calls.filter { $0.kind == .clear }.map(\.at) == [ended])
        #expect(result.calls.filter { $0.kind == .end }.map(\.at) == [Date(timeIntervalSince1970: seven)])
    }

    @Test func remindersWaitTheSameWayAndCountOnFromWhenTheyWentOut() throws {
        // The washer ends at 21:50: the end goes out at once, the reminder due 22:20 waits until 07:00.
        let lines = cycleTrace(start: day(20.5), end: day(21 + 50.0 / 60), until: day(24 + 9), program: cotton)
        let result = try Replay.run(settings: .washer(), lines: numbered(lines), delivery: quiet())
        #expect(result.calls.filter { $0.kind == .end }.map(\.at) == [day(21 + 50.0 / 60)])
        let reminders = result.calls.filter { $0.kind == .reminder }
        #expect(reminders.map(\.at) == [day(24 + 7), day(24 + 7.5), day(24 + 8)])
        #expect(reminders.first?.message == "Washer: Cotton finished 550 min ago")
    }

    @Test func remindersWaitBehindAWaitingEndNotification() throws {
        let lines = cycleTrace(start: day(22), end: day(23.5), until: day(24 + 9), program: cotton)
        let result = try Replay.run(settings: .washer(), lines: numbered(lines), delivery: quiet())
        #expect(result.calls.filter { $0.kind == .end }.map(\.at) == [day(24 + 7)])
        #expect(result.calls.filter { $0.kind == .reminder }.map(\.at) == [day(24 + 7.5), day(24 + 8), day(24 + 8.5)])
    }

    @Test func aReminderWaitingForTheMorningIsDroppedWhenTheDoorOpens() throws {
        let lines = cycleTrace(start: day(20.5), end: day(21 + 50.0 / 60), until: day(24 + 9), program: cotton) { date in
            date >= day(24 + 6.5) ? ["door": "open"] : [:]
        }
        let result = try Replay.run(settings: .washer(), lines: numbered(lines), delivery: quiet())
        #expect(!result.calls.contains { $0.kind == .reminder })
        #expect(result.effects.waiting.last == "reminder unload reminder 1: dropped, the door opened")
    }

    @Test func stepsInTheWindowGoOutQuietlyAndAClearByDayHasNoAlert() throws {
        let finish = ["finish_time": "2026-11-03T01:00:00+00:00"]
        var lines = [traceLine(day(21.5), finish.merging(["operation_state": "run", "program": eco50, "progress": "0"]) { $1 })]
        lines.append(traceLine(day(21.75), finish.merging(["operation_state": "run", "program": eco50, "progress": "10"]) { $1 }))
        lines.append(traceLine(day(22.5), finish.merging(["operation_state": "run", "program": eco50, "progress": "20"]) { $1 }))
        let settings = ApplianceSettings.dishwasher { $0.notifyProgress = true }
        let result = try Replay.run(settings: settings, lines: numbered(lines), delivery: quiet())
        #expect(result.calls.map(\.kind) == [.start, .progress, .quiet])
        #expect(result.calls.last?.message == "Eco 50°C")

        let byDay = try Replay.run(settings: .dishwasher(), lines: numbered(cycleTrace(start: day(9), end: day(10), until: day(11))),
                                   delivery: quiet())
        #expect(byDay.calls.map(\.kind) == [.start, .clear, .end])
        #expect(byDay.calls.first { $0.kind == .clear }?.extra["alert"] == nil)
        #expect(byDay.effects.waiting.isEmpty)
    }

    @Test func aDelayedStartInTheWindowStartsQuietly() throws {
        let lines = [
            traceLine(day(21), ["operation_state": "delayedstart", "program": eco50]),
            traceLine(day(24 + 1), ["operation_state": "run", "program": eco50, "progress": "0"]),
        ]
        let result = try Replay.run(settings: .dishwasher(), lines: numbered(lines), delivery: quiet())
        #expect(result.calls.map(\.kind) == [.quiet])
        #expect(result.calls.first?.message == "Dishwasher started: Eco 50°C")
    }

    @Test func theApplianceMayHaveItsOwnWindowOrNone() throws {
        let lines = cycleTrace(start: day(22), end: day(23.5), until: day(24 + 8))
        let off = try Replay.run(settings: .dishwasher { $0.quietHours = .off }, lines: numbered(lines), delivery: quiet())
        #expect(off.calls.map(\.at) == [day(22), day(23.5), day(23.5)])
        let own = try Replay.run(settings: .dishwasher { $0.quietHours = .window(night("23:00-06:00")) },
                                 lines: numbered(lines))
        #expect(own.calls.last?.at == day(24 + 6))
    }

    @Test func theWaitingEndKeepsItsReserveAndARestartSendsItOnce() throws {
        var household = Household(dailyLimit: 400, delivery: quiet())
        household.follow(.dishwasher())
        let observations = try Replay.observations(lines: numbered(cycleTrace(start: day(22), end: day(23.5), until: day(23.5)))).observations
        for observation in observations { _ = household.handle(.observed("dishwasher", observation)) }
        #expect(household.openCycles == 0)
        #expect(household.budget(at: day(23.5)).reserve == 1, "the waiting end keeps its call")
        #expect(household.nextDeadline == day(24 + 7))

        let saved = try #require(household.saved("dishwasher"))
        let decoded = try JSONDecoder().decode(ApplianceTracker.Snapshot.self, from: JSONEncoder().encode(saved))
        var restarted = Household(dailyLimit: 400, delivery: quiet())
        restarted.follow(.dishwasher(), restoring: decoded)
        let steps = restarted.handle(.tick(day(24 + 7)))
        #expect(steps.flatMap(\.effects).kinds == [.end])
        #expect(restarted.handle(.tick(day(24 + 8))).flatMap(\.effects).kinds.isEmpty)
        #expect(restarted.budget(at: day(24 + 8)).reserve == 0)
    }
}
