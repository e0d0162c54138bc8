@testable import CycleHistory
import FoundationEssentials
import TestSupport
import Testing

@Suite struct StorePushTests {
    @Test func pushRoundTripAndCycleCount() throws {
        let fixture = try StoreFixture()
        let store = try fixture.store()
        let cycle = try store.openCycle(applianceID: "dishwasher", program: nil, startedAt: t(0), source: .run)
        let start = try store.recordPush(cycleID: cycle, applianceID: "dishwasher", at: t(1), kind: .start, reason: "cycle started", body: #"{"message":"Dishwasher started"}"#, status: .pending)
        try store.markPush(id: start, status: .sending, httpStatus: nil, error: nil, latencyMs: nil, at: t(1.5))
        try store.markPush(id: start, status: .sent, httpStatus: 200, error: nil, latencyMs: 182.5, at: t(2))
        let held = try store.recordPush(cycleID: cycle, applianceID: "dishwasher", at: t(60), kind: .quiet, reason: "progress 10", body: "{}", status: .notSent)
        let failed = try store.recordPush(cycleID: cycle, applianceID: "dishwasher", at: t(120), kind: .quiet, reason: "progress 20", body: "{}", status: .pending)
        try store.markPush(id: failed, status: .failed, httpStatus: 502, error: "Bad Gateway", latencyMs: 30, at: t(121))
        _ = try store.recordPush(cycleID: nil, applianceID: "dishwasher", at: t(130), kind: .clear, reason: "stale activity", body: "{}", status: .pending)

        #expect(try store.pushes(cycleID: cycle) == [
            CallRecord(id: start, cycleID: cycle, applianceID: "dishwasher", at: t(1), kind: .start, reason: "cycle started",
                       body: #"{"message":"Dishwasher started"}"#, status: .sent, httpStatus: 200, error: nil, latencyMs: 182.5, finishedAt: t(2)),
            CallRecord(id: held, cycleID: cycle, applianceID: "dishwasher", at: t(60), kind: .quiet, reason: "progress 10",
                       body: "{}", status: .notSent, httpStatus: nil, error: nil, latencyMs: nil, finishedAt: t(60)),
            CallRecord(id: failed, cycleID: cycle, applianceID: "dishwasher", at: t(120), kind: .quiet, reason: "progress 20",
                       body: "{}", status: .failed, httpStatus: 502, error: "Bad Gateway", latencyMs: 30, finishedAt: t(121)),
        ])
        // start and the failed quiet call count; the held one does not.
        #expect(try store.cycle(id: cycle)?.pushes == 2)
        // A held call that is sent after all starts counting, and back.
        try store.markPush(id: held, status: .pending, httpStatus: nil, error: nil, latencyMs: nil, at: t(200))
        #expect(try store.cycle(id: cycle)?.pushes == 3)
        try store.markPush(id: held, status: .notSent, httpStatus: nil, error: nil, latencyMs: nil, at: t(201))
        #expect(try store.cycle(id: cycle)?.pushes == 2)
        #expect(throws: StoreError.self) {
            try store.markPush(id: 999, status: .sent, httpStatus: 200, error: nil, latencyMs: 1, at: t(3))
        }
    }

    @Test func dailyCountFollowsTheUTCDay() throws {
        let fixture = try StoreFixture()
        let store = try fixture.store()
        // t(0) is 08:00Z; midnight UTC falls at t(57_600).
        let midnight = 57_600.0
        for (offset, status) in [(-1.0, PushStatus.sent), (-0.5, .failed), (-0.25, .notSent), (0, .pending), (0.5, .sending), (1, .abandoned), (2, .notSent)] {
            _ = try store.recordPush(cycleID: nil, applianceID: "dishwasher", at: t(midnight + offset), kind: .quiet, reason: "", body: "{}", status: status)
        }
        _ = try store.recordPush(cycleID: nil, applianceID: "dishwasher", at: t(-8 * 3600 - 0.001), kind: .quiet, reason: "", body: "{}", status: .sent)
        #expect(try store.pushesCounted(onUTCDayOf: t(0)) == 2)
        #expect(try store.pushesCounted(onUTCDayOf: t(midnight - 0.001)) == 2)
        #expect(try store.pushesCounted(onUTCDayOf: t(midnight)) == 3)
        #expect(try store.pushesCounted(onUTCDayOf: t(midnight + 86_399)) == 3)
        #expect(try store.pushesCounted(onUTCDayOf: t(midnight + 86_400)) == 0)
        #expect(try store.pushesCounted(onUTCDayOf: t(-8 * 3600 - 1)) == 1)
    }

    @Test func aCrashBetweenRecordedAndSentLeavesTheCallUnfinished() throws {
        let fixture = try StoreFixture()
        var pendingID: Int64 = 0
        var sendingID: Int64 = 0
        do {
            let store = try fixture.store()
            let cycle = try store.openCycle(applianceID: "dishwasher", program: nil, startedAt: t(0), source: .run)
            let done = try store.recordPush(cycleID: cycle, applianceID: "dishwasher", at: t(1), kind: .start, reason: "", body: "{}", status: .pending)
            try store.markPush(id: done, status: .sent, httpStatus: 200, error: nil, latencyMs: 12, at: t(1.1))
            sendingID = try store.recordPush(cycleID: cycle, applianceID: "dishwasher", at: t(2), kind: .quiet, reason: "progress 10", body: #"{"a":1}"#, status: .pending)
            try store.markPush(id: sendingID, status: .sending, httpStatus: nil, error: nil, latencyMs: nil, at: t(2.1))
            pendingID = try store.recordPush(cycleID: cycle, applianceID: "dishwasher", at: t(3), kind: .quiet, reason: "progress 20", body: #"{"a":2}"#, status: .pending)
            // A crash now: take the files as they are on disk, with the writer still
            // open and nothing checkpointed, and never close them cleanly.
            for suffix in ["", "-wal"] {
                try FileManager.default.copyItem(atPath: fixture.path() + suffix, toPath: fixture.path("crashed.sqlite") + suffix)
            }
        }
        let restarted = try HistoryStore(path: fixture.path("crashed.sqlite"))
        let unfinished = try restarted.unfinishedPushes()
        #expect(unfinished.map(\.id) == [sendingID, pendingID])
        #expect(unfinished.map(\.status) == [.sending, .pending])
        #expect(unfinished.map(\.body) == [#"{"a":1}"#, #"{"a":2}"#])
        #expect(unfinished.allSatisfy { $0.finishedAt == nil })
    }
}
