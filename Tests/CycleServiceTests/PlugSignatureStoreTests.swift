@testable import CycleCore
@testable import CycleHistory
@testable import CycleService
import Foundation
@testable import HomeAssistantAPI
import TestSupport
import Testing

/// What a plug learns of itself is saved with its tracker and read back: by `run` at a
/// restart (the snapshot) and by `cycletrack check` (docs/PLUGS.md).
@Suite struct PlugSignatureStoreTests {
    @Test func aPlugsLearnedStandbyIntervalAndRestAreSavedAndReadBack() throws {
        let files = try StoreFixture()
        let store = try HistoryStore(path: files.path())
        let recorder = CycleRecorder(store: store, source: .replay)
        var settings = ApplianceSettings(id: "washer", name: "Washer")
        settings.profile = .plug
        // 20 minutes at 1.5 W standby, a wash with a 4-minute soak, standby again.
        var readings: [(Double, Double)] = stride(from: 0.0, to: 1200, by: 20).map { ($0, 1.5) }
        readings += stride(from: 1200.0, to: 2400, by: 20).map { ($0, 400) }
        readings += stride(from: 2400.0, to: 2640, by: 20).map { ($0, 3) }
        readings += stride(from: 2640.0, to: 3600, by: 20).map { ($0, 400) }
        readings += stride(from: 3600.0, to: 6000, by: 20).map { ($0, 1.5) }
        let observations = readings.map { Observation(at: Date(timeIntervalSince1970: 1_800_000_000 + $0.0), raw: [.power: String($0.1)]) }
        var failure: (any Error)?
        let result = Replay.run(settings: settings, observations: observations) { steps, household in
            do { _ = try recorder.record(steps, of: household, status: .notSent) } catch { failure = error }
        }
        if let failure { throw failure }
        #expect(result.cycles.count == 1)
        let learned = try #require(try CycleRecorder.savedPlugSignature(store, applianceID: "washer"))
        #expect(learned.cycles == 1)
        #expect(learned.intervalSeconds == 20)
        #expect(learned.longestRest == 240)
        #expect(learned.standbyWatts.map { abs($0 - 1.5) < 0.01 } == true)
        // The snapshot `run` restores carries it.
        let restored = try #require(try recorder.restore("washer", log: Log(level: .error, write: { _ in })))
        #expect(restored.plugSignature == learned)
    }
}
