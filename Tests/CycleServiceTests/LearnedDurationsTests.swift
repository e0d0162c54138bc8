import CycleCore
@testable import CycleHistory
@testable import CycleService
import Foundation
import FoundationEssentials
import TestSupport
import Testing

/// Progress and a finish time learned from an appliance's own finished cycles: the
/// medians, read from a real SQLite file, and a replayed plug cycle that follows them.
@Suite struct LearnedDurationsTests {
    /// 2026-11-02T08:00:00Z, the plug traces' first line.
    static let traceStart = Date(timeIntervalSince1970: 1_793_606_400)

    @Test func mediansOfTheLastCyclesPerProgramAndOverall() throws {
        let minutes: [(String?, Double)] = [("cotton", 60), ("cotton", 70), (nil, 40), ("cotton", 65), ("wool", 30), ("wool", 34)]
        let learned = try #require(LearnedDurations(newestFirst: minutes.map { (program: $0.0, seconds: $0.1 * 60) }))
        #expect(learned.byProgram == ["cotton": 3900.0, "wool": 1920.0])
        // All six: 30, 34, 40, 60, 65, 70 min.
        #expect(learned.overall == 3000.0)
        #expect(learned.seconds(program: "wool") == 1920.0)
        #expect(learned.seconds(program: "mix") == 3000.0)
        #expect(learned.seconds(program: nil) == 3000.0)
        let many = (1...15).map { (program: String?.none, seconds: Double($0) * 60) }
        #expect(LearnedDurations(newestFirst: many)?.overall == 330.0)  // the newest ten: 1…10 min
        #expect(LearnedDurations(newestFirst: []) == nil)
        #expect(LearnedDurations(newestFirst: [(program: nil, seconds: -5)]) == nil)
    }

    @Test func aReplayedPlugCycleFollowsTheMedianOfTheStoredOnes() throws {
        let fixture = try StoreFixture()
        let store = try fixture.store(appliance: "washer")
        // Five finished washes (median 61 min), one lost, one from a replay: only the first five count.
        let day: Double = 86_400
        for (index, minutes) in [60.0, 62, 58, 61, 90].enumerated() {
            let start = Self.traceStart.addingTimeInterval(-Double(index + 1) * day)
            let id = try store.openCycle(applianceID: "washer", program: nil, startedAt: start, source: .run)
            try store.closeCycle(id: id, endedAt: start.addingTimeInterval(minutes * 60), outcome: .finished, energyEnd: nil)
        }
        let lost = try store.openCycle(applianceID: "washer", program: nil, startedAt: Self.traceStart.addingTimeInterval(-7 * day), source: .run)
        try store.closeCycle(id: lost, endedAt: Self.traceStart.addingTimeInterval(-7 * day + 600), outcome: .lost, energyEnd: nil)
        let replayed = try store.openCycle(applianceID: "washer", program: nil, startedAt: Self.traceStart.addingTimeInterval(-8 * day), source: .replay)
        try store.closeCycle(id: replayed, endedAt: Self.traceStart.addingTimeInterval(-8 * day + 600), outcome: .finished, energyEnd: nil)

        var plug = ApplianceSettings(id: "washer", name: "Washer")
        plug.profile = .plug
        let reopened = try HistoryStore(path: fixture.path(), mode: .readOnly)
        let settings = try LearnedDurationsReader.learning(plug, store: reopened, before: Self.traceStart)
        #expect(settings.learned == LearnedDurations(byProgram: [:], overall: 3660.0))
        var homeConnect = plug
        homeConnect.profile = .homeConnect
        #expect(try LearnedDurationsReader.learning(homeConnect, store: reopened).learned == nil)

        let file = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appending(path: "CycleCoreTests/Fixtures/plug-washer.jsonl")
        let text = try String(decoding: Data(contentsOf: file), as: UTF8.self)
        let lines = text.split(separator: "\n").enumerated().map { (number: $0.offset + 1, text: String($0.element)) }
        let trace = try Replay.observations(lines: lines)
        var ended: [CycleInfo] = []
        let result = Replay.run(settings: settings, observations: trace.observations) { steps, _ in ended += steps.compactMap(\.ended) }
        #expect(ended.first?.progressEstimated == true)
        let cycle = try #require(result.cycles.first)
        #expect(result.cycles.count == 1)
        let start = cycle.startedAt
        let live = cycle.calls.filter { [.start, .quiet, .progress].contains($0.kind) }
        let first = try #require(live.first)
        #expect(Self.when(first) == NumberText.int(start.addingTimeInterval(61 * 60).timeIntervalSince1970))
        #expect(Self.progress(first) == 0)
        var previous = 0
        for call in live {
            let progress = try #require(Self.progress(call), "\(call.reason)")
            let share = min(0.99, call.at.timeIntervalSince(start) / (61 * 60))
            // Estimated at the last observation before the call: at most the share of the median elapsed by then.
            #expect(progress <= NumberText.int(share * 100, .down) ?? 0, "\(call.reason)")
            #expect(progress >= previous && progress <= 99)
            previous = progress
        }
        #expect(previous >= 90)
        #expect(!cycle.calls.contains { $0.reason == "heartbeat" })
    }

    private static func extra(_ call: SupernotifyCall) -> JSONObject {
        if case .object(let object)? = call.body["extra_data"] { return object }
        return JSONObject()
    }

    private static func progress(_ call: SupernotifyCall) -> Int? {
        if case .int(let value)? = extra(call)["progress"] { value } else { nil }
    }

    private static func when(_ call: SupernotifyCall) -> Int? {
        if case .int(let value)? = extra(call)["when"] { value } else { nil }
    }
}
