import CycleCore
@testable import CycleCommands
@testable import CycleHistory
@testable import CycleService
import Foundation
import TestSupport
import Testing

/// The finish-time correction on a real SQLite history as `stats` shows it: cycles
/// recorded as `replay --record` records them, each estimate corrected from the history
/// before it, and `stats` replaying the correction over the stored cycles.
@Suite struct FinishCorrectionStatsTests {
    static let eco50 = "dishcare_dishwasher_program_eco_50"
    static let intensive = "dishcare_dishwasher_program_intensiv_70"
    /// 2026-11-02T08:00:00Z.
    static let zero = Date(timeIntervalSince1970: 1_793_606_400)

    static func minute(_ minutes: Double) -> Date { zero.addingTimeInterval(minutes * 60) }

    /// A cycle starting at `start` minutes that the appliance says takes 60 minutes and
    /// that ends `over` minutes after that.
    static func cycle(start: Double, over: Double, program: String = eco50) -> [Observation] {
        var observations: [Observation] = []
        for offset in stride(from: 0.0, through: 50, by: 10) {
            observations.append(Observation(at: minute(start + offset), raw: [
                .operationState: "run", .program: program, .progress: String(NumberText.int(offset * 100 / 60, .down) ?? 0),
                .finishTime: ISOTime.format(minute(start + 60).addingTimeInterval(offset / 10)),
            ]))
        }
        observations.append(Observation(at: minute(start + 60 + over), raw: [.operationState: "finished", .program: program]))
        return observations
    }

    /// Replays `observations` with what the store knew before them, recording as `replay --record` does.
    static func replay(_ observations: [Observation], into store: HistoryStore, recorder: CycleRecorder) throws -> ReplayResult {
        let history = try store.finishHistory(applianceID: "dishwasher", before: observations.first?.at)
        var failure: (any Error)?
        let result = Replay.run(settings: ApplianceSettings(id: "dishwasher", name: "Dishwasher"), observations: observations,
                                history: history) { steps, household in
            do { _ = try recorder.record(steps, of: household, status: .notSent) } catch { failure = error }
        }
        if let failure { throw failure }
        return result
    }

    static func when(_ date: Date) -> Int? { NumberText.int(date.timeIntervalSince1970, .down) }

    /// `stats --by program --format json`, as rows.
    static func stats(_ path: String) throws -> [[String: Any]] {
        let text = try StatsCommand(arguments: ["--db", path, "--by", "program", "--format", "json", "--since", "2026-01-01"],
                                    environment: [:]).run(now: minute(7 * 24 * 60))
        return try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]] ?? []
    }


    @Test func eightMinutesOverThreeTimesIsShownEightMinutesLaterAndStatsShowTheErrorDropping() throws {
        let files = try StoreFixture()
        let store = try HistoryStore(path: files.path())
        let recorder = CycleRecorder(store: store, source: .replay)
        for index in 0..<3 {
            let result = try Self.replay(Self.cycle(start: Double(index) * 120, over: 8), into: store, recorder: recorder)
            #expect(result.calls.first?.when == Self.when(Self.minute(Double(index) * 120 + 60)), "no correction yet")
        }
        #expect(try store.finishHistory(applianceID: "dishwasher").errors == [Self.eco50: [480, 480, 480]])

        let fourth = try Self.replay(Self.cycle(start: 360, over: 8), into: store, recorder: recorder)
        #expect(fourth.calls.first?.when == Self.when(Self.minute(360 + 68)))
        let stored = try #require(try store.cycles(matching: CycleFilter(limit: 1)).first)
        #expect(stored.firstPredictedFinish == Self.minute(420))
        #expect(stored.firstShownFinish == Self.minute(428))
        #expect(stored.lastShownFinish.map { $0 > stored.lastPredictedFinish ?? .distantFuture } == true)

        // Every cycle was 8 minutes off; corrected from the three others, none is.
        let rows = try Self.stats(files.path())
        #expect(rows.count == 1)
        #expect(rows.first?["median_abs_estimate_error_seconds"] as? Int == 480)
        #expect(rows.first?["median_abs_corrected_error_seconds"] as? Int == 0)
    }

    @Test func aProgramWithoutEnoughHistoryIsUnchanged() throws {
        let files = try StoreFixture()
        let store = try HistoryStore(path: files.path())
        let recorder = CycleRecorder(store: store, source: .replay)
        for index in 0..<3 { _ = try Self.replay(Self.cycle(start: Double(index) * 120, over: 8), into: store, recorder: recorder) }
        for index in 3..<5 {
            _ = try Self.replay(Self.cycle(start: Double(index) * 120, over: 8, program: Self.intensive), into: store, recorder: recorder)
        }
        // Two cycles of Intensive 70 are too few, and Eco 50's don't count for it.
        let third = try Self.replay(Self.cycle(start: 600, over: 8, program: Self.intensive), into: store, recorder: recorder)
        #expect(third.calls.first?.when == Self.when(Self.minute(660)))
        let stored = try #require(try store.cycles(matching: CycleFilter(limit: 1)).first)
        #expect(stored.firstShownFinish == stored.firstPredictedFinish)

        // In stats, each of the three Intensive 70 cycles has two others: uncorrected.
        let intensive = try Self.stats(files.path()).first { $0["program"] as? String == Self.intensive }
        #expect(intensive?["median_abs_estimate_error_seconds"] as? Int == 480)
        #expect(intensive?["median_abs_corrected_error_seconds"] as? Int == 480)
    }

    @Test func aWildOutlierDoesNotSwingTheCorrection() throws {
        let files = try StoreFixture()
        let store = try HistoryStore(path: files.path())
        let recorder = CycleRecorder(store: store, source: .replay)
        for (index, over) in [8.0, 8, 120, 8].enumerated() {
            _ = try Self.replay(Self.cycle(start: Double(index) * 300, over: over), into: store, recorder: recorder)
        }
        let next = try Self.replay(Self.cycle(start: 1_500, over: 8), into: store, recorder: recorder)
        #expect(next.calls.first?.when == Self.when(Self.minute(1_500 + 68)), "the median of 8, 8, 120, 8 is 8")

        // Four cycles 8 minutes over are corrected to 0; the outlier stays as far off, less
        // the 8 minutes learned: the median either way drops from 8 to 0.
        let rows = try Self.stats(files.path())
        #expect(rows.first?["median_abs_estimate_error_seconds"] as? Int == 480)
        #expect(rows.first?["median_abs_corrected_error_seconds"] as? Int == 0)
    }

}

extension SupernotifyCall {
    /// `extra_data.when`: the finish time the phone counts down to.
    fileprivate var when: Int? {
        guard case .object(let extra)? = body["extra_data"], case .int(let value)? = extra["when"] else { return nil }
        return value
    }
}

/// The example history the README's measured gain comes from: a household whose
/// programs run over or under their first estimate by a typical amount, with scatter and
/// now and then a wild cycle (a door opened mid-cycle, a reload), 30 cycles each over
/// 90 days, from a fixed seed.
struct ExampleHistory {
    /// Appliance, program, the first estimate's minutes, typical minutes over, scatter
    /// (±, uniform), and every how many cycles one runs 40 minutes longer.
    static let programs: [(String, String, Double, Double, Double, Int)] = [
        ("dishwasher", "dishcare_dishwasher_program_eco_50", 195, 6, 3, 10),
        ("dishwasher", "dishcare_dishwasher_program_auto_2", 120, -9, 4, 12),
        ("washer", "laundry_care_washer_program_cotton", 150, -4, 2, 15),
        ("washer", "laundry_care_washer_program_mix", 60, 3, 2, 0),
        ("dryer", "laundry_care_dryer_program_cotton", 90, 12, 6, 8),
    ]

    static func write(to path: String, start: Date) throws {
        let store = try HistoryStore(path: path)
        var seed: UInt64 = 14
        func random() -> Double {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(seed >> 11) / Double(1 << 53)
        }
        for (appliance, _, _, _, _, _) in programs { try store.upsertAppliance(id: appliance, name: appliance, at: start) }
        for (index, program) in programs.enumerated() {
            let (appliance, key, minutes, over, scatter, wildEvery) = program
            for cycle in 0..<30 {
                let began = start.addingTimeInterval(Double(cycle) * 3 * 86_400 + Double(index) * 4 * 3_600)
                var ran = minutes + over + (random() * 2 - 1) * scatter
                if wildEvery > 0, cycle % wildEvery == wildEvery - 1 { ran += 40 }
                let id = try store.openCycle(applianceID: appliance, program: key, startedAt: began, source: .run)
                try store.updateCycle(id: id, program: nil, firstPredictedFinish: began.addingTimeInterval(minutes * 60),
                                      lastPredictedFinish: nil, maxProgress: 100, energyStart: nil)
                try store.closeCycle(id: id, endedAt: began.addingTimeInterval(ran * 60), outcome: .finished, energyEnd: nil)
            }
        }
    }
}

@Suite struct ExampleHistoryTests {
    @Test func theCorrectionHalvesTheErrorOnTheExampleHistory() throws {
        let files = try StoreFixture()
        try ExampleHistory.write(to: files.path(), start: FinishCorrectionStatsTests.zero)
        let table = try StatsCommand(arguments: ["--db", files.path(), "--by", "program", "--since", "2026-01-01"],
                                     environment: [:]).run(now: FinishCorrectionStatsTests.minute(100 * 24 * 60))
        print(table)  // the README's "measured gain" shows these figures
        for row in try FinishCorrectionStatsTests.stats(files.path()) {
            let plain = Double(try #require(row["median_abs_estimate_error_seconds"] as? Int)) / 60
            let corrected = Double(try #require(row["median_abs_corrected_error_seconds"] as? Int)) / 60
            #expect(corrected <= plain / 2, "\(row["program"] ?? "")")
        }
    }
}
