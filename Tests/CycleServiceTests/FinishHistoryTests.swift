import CycleCore
@testable import CycleHistory
@testable import CycleService
import Foundation
import HTTPStandIn
@testable import HomeAssistantAPI
import TestSupport
import Testing

/// The finish-time correction on a real SQLite history: the history read back as the
/// runner and `replay` read it, a stored cycle replayed to the same calls, and the store's
/// share of it (reminders, cycles recorded before the shown finish). The correction as
/// `stats` measures it is in CycleCommandsTests (FinishCorrectionStatsTests).
@Suite struct FinishHistoryTests {
    static let eco50 = "dishcare_dishwasher_program_eco_50"
    /// 2026-11-02T08:00:00Z.
    static let zero = Date(timeIntervalSince1970: 1_793_606_400)

    static func minute(_ minutes: Double) -> Date { zero.addingTimeInterval(minutes * 60) }

    @Test func theRunnerStartsFromTheStoresHistoryAndReplayOfTheStoredCycleAgrees() async throws {
        let files = try StoreFixture()
        let store = try files.store()
        // Three earlier Eco 50 cycles that each ran 8 minutes over their first estimate.
        for day in 1...3 {
            let began = Self.zero.addingTimeInterval(Double(-day) * 86_400)
            let id = try store.openCycle(applianceID: "dishwasher", program: Self.eco50, startedAt: began, source: .run)
            try store.updateCycle(id: id, program: nil, firstPredictedFinish: began.addingTimeInterval(3_600),
                                  lastPredictedFinish: nil, maxProgress: 100, energyStart: nil)
            try store.closeCycle(id: id, endedAt: began.addingTimeInterval(3_600 + 480), outcome: .finished, energyEnd: nil)
        }
        let standIn = try HomeAssistantStandIn()
        let script = ApplianceScript.dishwasher(start: Self.zero)
        let end = try #require(script.lines.last).at.addingTimeInterval(60)
        let clock = VirtualClock(start: Self.zero, stopAt: end) { now in script.show(at: now, on: standIn) }
        let gateway = HomeAssistantGateway(client: HomeAssistantClient(baseURL: standIn.baseURL, token: standIn.token, http: HTTPClient()))
        let runner = try Runner(appliances: [script.tracked], databasePath: files.path(), sourceName: .run,
                                options: .init(activePollSeconds: 10, idlePollSeconds: 30, dailyPushLimit: 400, rediscoverSeconds: nil),
                                source: gateway, sink: gateway, clock: clock, log: LogCapture().log)
        await runner.run()

        // The script's first estimate is 210 minutes after its run begins, two minutes in.
        let reported = try #require(NumberText.int(Self.zero.addingTimeInterval(120 + 210 * 60).timeIntervalSince1970))
        let start = try #require(standIn.notifyCalls.first)
        #expect(start.body.contains("\"when\":\(reported + 480)"))
        let cycle = try #require(try store.cycles(matching: CycleFilter(limit: 1)).first)
        #expect(cycle.firstShownFinish == cycle.firstPredictedFinish.map { $0.addingTimeInterval(480) })

        // Replaying the stored cycle with the history before it gives the very same calls.
        let history = try store.finishHistory(applianceID: "dishwasher", before: cycle.startedAt)
        let stored = try #require(try StoredCycleTrace.load(cycleID: cycle.id, from: store))
        let replayed = Replay.run(settings: script.tracked.settings, observations: stored.observations, history: history)
        #expect(replayed.calls.map { $0.bodyJSON() } == (try store.pushes(cycleID: cycle.id)).map(\.body))
    }

    @Test func aReminderIsAPushOfItsOwnKindCountedInTheDayWithoutACycle() throws {
        let files = try StoreFixture()
        let store = try files.store(appliance: "washer")
        let id = try store.recordPush(cycleID: nil, applianceID: "washer", at: Self.minute(90), kind: .reminder,
                                      reason: "unload reminder 1", body: "{}", status: .pending)
        #expect(try store.unfinishedPushes().map(\.kind) == [.reminder])
        #expect(try store.unfinishedPushes().first?.id == id)
        #expect(try store.pushesCounted(onUTCDayOf: Self.minute(90)) == 1)
    }

    @Test func theStoreKeepsCyclesRecordedBeforeTheShownFinishAndFiltersTheHistory() throws {
        let files = try StoreFixture()
        let store = try files.store()
        let id = try store.openCycle(applianceID: "dishwasher", program: Self.eco50, startedAt: Self.minute(0), source: .run)
        try store.updateCycle(id: id, program: nil, firstPredictedFinish: Self.minute(60), lastPredictedFinish: nil,
                              maxProgress: nil, energyStart: nil)
        try store.closeCycle(id: id, endedAt: Self.minute(65), outcome: .finished, energyEnd: nil)
        let aborted = try store.openCycle(applianceID: "dishwasher", program: Self.eco50, startedAt: Self.minute(100), source: .run)
        try store.updateCycle(id: aborted, program: nil, firstPredictedFinish: Self.minute(160), lastPredictedFinish: nil,
                              maxProgress: nil, energyStart: nil)
        try store.closeCycle(id: aborted, endedAt: Self.minute(120), outcome: .aborted, energyEnd: nil)
        #expect(try store.cycle(id: id)?.firstShownFinish == nil)
        // The error and the duration (for the anomaly notes) of the finished one only.
        #expect(try store.finishHistory(applianceID: "dishwasher")
            == FinishHistory(errors: [Self.eco50: [300]], durations: [Self.eco50: [65 * 60]]))
        #expect(try store.finishHistory(applianceID: "dishwasher", before: Self.minute(0)) == FinishHistory())
        #expect(try store.finishHistory(applianceID: "washer") == FinishHistory())
    }
}
