import CycleCore
@testable import CycleHistory
@testable import CycleService
import FoundationEssentials
import TestSupport
import Testing

/// A washer's reminders stopped by its dryer's start (docs/PUSHES.md, "Washer and dryer"),
/// as `run` records it: a `dropped` row in the washer's cycle, and a saved state from
/// which a restarted service reminds no more.
@Suite struct RecordedLaundryTests {
    static let washerCotton = "laundry_care_washer_program_cotton"
    static let dryerCotton = "laundry_care_dryer_program_cotton"
    /// 2026-11-02T08:00:00Z plus `minutes`.
    static func minute(_ minutes: Double) -> Date { Date(timeIntervalSince1970: 1_793_606_400 + minutes * 60) }

    /// A wash from 0 to 60 behind a door that stays closed, a line every 10 minutes to 100;
    /// the dryer ready, then running at 100, the last line: the service stops right after.
    static var entries: [TraceEntry] {
        var entries: [TraceEntry] = []
        entries.append(TraceEntry(observation: Observation(at: minute(0), raw: [
            .operationState: "run", .program: washerCotton, .progress: "0", .finishTime: ISOTime.format(minute(60)), .door: "locked",
        ])))
        entries.append(TraceEntry(appliance: "dryer", observation: Observation(at: minute(0), raw: [
            .operationState: "ready", .program: dryerCotton, .door: "closed",
        ])))
        for at in stride(from: 60.0, through: 100, by: 10) {
            entries.append(TraceEntry(observation: Observation(at: minute(at), raw: [
                .operationState: "finished", .program: washerCotton, .door: "closed",
            ])))
            guard at >= 100 else { continue }
            entries.append(TraceEntry(appliance: "dryer", observation: Observation(at: minute(at), raw: [
                .operationState: "run", .program: dryerCotton, .progress: "5", .finishTime: ISOTime.format(minute(190)), .door: "locked",
            ])))
        }
        return entries
    }

    @Test func theStopIsStoredAndARestartDoesNotRemindAgain() throws {
        let files = try StoreFixture()
        let store = try HistoryStore(path: files.path())
        let recorder = CycleRecorder(store: store, source: .replay)
        var failure: (any Error)?
        let washer = ApplianceSettings(id: "washer", name: "Washer")
        let dryer = ApplianceSettings(id: "dryer", name: "Dryer")
        let result = Replay.run(settings: washer, others: [dryer], entries: Self.entries) { steps, household in
            do { _ = try recorder.record(steps, of: household, status: .replayed) } catch { failure = error }
        }
        if let failure { throw failure }
        #expect(result.calls.filter { $0.kind == .reminder }.map(\.at) == [Self.minute(90)])

        let cycle = try #require(try store.cycles(matching: CycleFilter(applianceID: "washer")).first)
        let dropped = try store.pushes(cycleID: cycle.id).filter { $0.status == .dropped }
        #expect(dropped.map(\.reason) == ["unload reminder 2: dropped, the dryer started"])
        #expect(dropped.map(\.at) == [Self.minute(100)])

        // The service restarted from what was saved: no reminder at 120 or after.
        let json = try #require(try store.trackerState(applianceID: "washer"))
        let saved = try JSONDecoder().decode(CycleRecorder.SavedAppliance.self, from: Data(json.utf8))
        var household = Household(dailyLimit: 400)
        household.follow(washer, restoring: saved.tracker)
        household.follow(dryer)
        let later = household.handle(.tick(Self.minute(300))).flatMap(\.effects)
        #expect(!later.contains { if case .call = $0 { true } else { false } })
    }
}
