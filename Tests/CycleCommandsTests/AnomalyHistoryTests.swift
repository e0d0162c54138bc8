import CycleCore
@testable import CycleCommands
@testable import CycleHistory
@testable import CycleService
import Foundation
import TestSupport
import Testing

/// The anomaly notes on a real SQLite history (docs/PUSHES.md, "Anomalies"): the usual
/// durations come from the store's finished cycles, as `run` and `replay --db` read them,
/// and each note is a `pushes` row with its reason.
@Suite struct AnomalyHistoryTests {
    static let eco50 = FinishCorrectionStatsTests.eco50

    /// A cycle of `minutes` from `start` (minutes), its progress moving every 10 minutes.
    static func cycle(start: Double, minutes: Double) -> [Observation] {
        var observations: [Observation] = []
        for offset in stride(from: 0.0, to: minutes, by: 10) {
            observations.append(Observation(at: FinishCorrectionStatsTests.minute(start + offset), raw: [
                .operationState: "run", .program: eco50, .progress: String(NumberText.int(offset * 100 / minutes, .down) ?? 0),
            ]))
        }
        observations.append(Observation(at: FinishCorrectionStatsTests.minute(start + minutes),
                                        raw: [.operationState: "finished", .program: eco50]))
        return observations
    }

    @Test func theStoredCyclesAreTheHistoryAndTheNoteIsAPushWithItsReason() throws {
        let files = try StoreFixture()
        let store = try HistoryStore(path: files.path())
        let recorder = CycleRecorder(store: store, source: .replay)
        // Five hour-long cycles, each replayed on its own as a separate `replay --record` would.
        for index in 0..<5 {
            let result = try FinishCorrectionStatsTests.replay(Self.cycle(start: Double(index) * 120, minutes: 60),
                                                               into: store, recorder: recorder)
            #expect(!result.calls.contains { $0.reason.hasPrefix("anomaly") })
        }
        #expect(try store.finishHistory(applianceID: "dishwasher").durations[Self.eco50]?.count == 5)

        let late = try FinishCorrectionStatsTests.replay(Self.cycle(start: 600, minutes: 100), into: store, recorder: recorder)
        let notes = late.calls.filter { $0.reason.hasPrefix("anomaly") }.map(\.reason)
        #expect(notes == ["anomaly: longer than usual (10 min)", "anomaly: far longer than usual (30 min)"])

        let stored = try store.cycles(matching: CycleFilter(applianceID: "dishwasher"))
        let cycle = try #require(stored.first { $0.startedAt == late.cycles.first?.startedAt })
        let rows = try store.pushes(cycleID: cycle.id).filter { $0.reason.hasPrefix("anomaly") }
        #expect(rows.map(\.reason) == notes)
        #expect(rows.map(\.kind) == [.quiet, .progress])
    }
}
