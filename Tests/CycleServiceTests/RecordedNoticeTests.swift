import CycleCore
@testable import CycleHistory
@testable import CycleService
import FoundationEssentials
import TestSupport
import Testing

/// An end notification that waits out quiet hours, and one dropped meanwhile, leave rows
/// of their own in `pushes` (`held`, `dropped`) in the cycle they end; the end released
/// in the morning is in that cycle too (docs/PUSHES.md, "Quiet hours").
@Suite struct RecordedNoticeTests {
    static let eco50 = "dishcare_dishwasher_program_eco_50"
    /// 2026-11-02T00:00:00Z plus `hours`.
    static func day(_ hours: Double) -> Date { Date(timeIntervalSince1970: 1_793_577_600 + hours * 3600) }

    /// A cycle from 22:00 to 23:30 with quiet hours 22:00-07:00, then a line every 30
    /// minutes until 08:00 the next day; `extra` changes any line.
    static func night(extra: (Date, inout [Role: String]) -> Void = { _, _ in }) -> [Observation] {
        var lines: [Observation] = []
        func add(_ at: Date, _ raw: [Role: String]) {
            var raw = raw
            extra(at, &raw)
            lines.append(Observation(at: at, raw: raw))
        }
        add(day(22), [.operationState: "run", .program: eco50, .progress: "0", .finishTime: ISOTime.format(day(23.5)), .door: "locked"])
        var at = day(23.5)
        while at <= day(24 + 8) {
            add(at, [.operationState: "finished", .program: eco50, .door: "closed"])
            at = at.addingTimeInterval(1800)
        }
        return lines
    }

    /// Replays `observations` as `replay --record` does, into a fresh store.
    static func record(_ observations: [Observation]) throws -> HistoryStore {
        let files = try StoreFixture()
        let store = try HistoryStore(path: files.path())
        let recorder = CycleRecorder(store: store, source: .replay)
        var delivery = DeliverySettings()
        delivery.quietHours = QuietHours("22:00-07:00")
        var failure: (any Error)?
        _ = Replay.run(settings: ApplianceSettings(id: "dishwasher", name: "Dishwasher"), observations: observations,
                       delivery: delivery) { steps, household in
            do { _ = try recorder.record(steps, of: household, status: .replayed) } catch { failure = error }
        }
        if let failure { throw failure }
        return store
    }

    @Test func theEndWaitsHeldAndGoesAtSevenInItsCycle() throws {
        let store = try Self.record(Self.night())
        let cycle = try #require(try store.cycles(matching: CycleFilter(applianceID: "dishwasher")).first)
        let pushes = try store.pushes(cycleID: cycle.id)
        let held = try #require(pushes.first { $0.status == .held })
        #expect(held.kind == .end)
        #expect(held.at == Self.day(23.5))
        #expect(held.reason.contains("quiet hours, waiting until"))
        let end = try #require(pushes.first { $0.kind == .end && $0.status == .replayed }, "the released end carries its cycle")
        #expect(end.at == Self.day(24 + 7))
        #expect(cycle.pushes == pushes.filter(\.status.isCall).count, "a held notice is not a call")
    }

    @Test func theDoorOpeningDropsItAndSaysSo() throws {
        let store = try Self.record(Self.night { at, raw in if at >= Self.day(24 + 6.5) { raw[.door] = "open" } })
        let cycle = try #require(try store.cycles(matching: CycleFilter(applianceID: "dishwasher")).first)
        let pushes = try store.pushes(cycleID: cycle.id)
        let dropped = try #require(pushes.first { $0.status == .dropped })
        #expect(dropped.kind == .end)
        #expect(dropped.reason.hasSuffix("dropped, the door opened"))
        #expect(!pushes.contains { $0.kind == .end && $0.status.isCall })
    }

    @Test func aNewCycleDropsItInTheCycleItEnded() throws {
        var observations = Self.night().filter { $0.at < Self.day(24 + 5) }
        observations.append(Observation(at: Self.day(24 + 5), raw: [
            .operationState: "run", .program: Self.eco50, .progress: "0", .finishTime: ISOTime.format(Self.day(24 + 6)), .door: "locked",
        ]))
        let store = try Self.record(observations)
        let cycles = try store.cycles(matching: CycleFilter(applianceID: "dishwasher")).sorted { $0.startedAt < $1.startedAt }
        #expect(cycles.count == 2)
        let first = try store.pushes(cycleID: cycles[0].id)
        #expect(first.contains { $0.status == .dropped && $0.reason.hasSuffix("dropped, a new cycle started") })
        #expect(!(try store.pushes(cycleID: cycles[1].id)).contains { $0.status == .dropped })
    }

    @Test func heldAndDroppedCountNeitherInTheDayNorTheCycle() throws {
        let store = try Self.record(Self.night { at, raw in if at >= Self.day(24 + 6.5) { raw[.door] = "open" } })
        let cycle = try #require(try store.cycles(matching: CycleFilter(applianceID: "dishwasher")).first)
        let pushes = try store.pushes(cycleID: cycle.id)
        #expect(pushes.contains { $0.status == .held } && pushes.contains { $0.status == .dropped })
        #expect(cycle.pushes == pushes.filter(\.status.isCall).count)
    }
}
