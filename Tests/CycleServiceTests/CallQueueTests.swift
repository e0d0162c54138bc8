import CycleCore
import FoundationEssentials
import Testing
@testable import CycleHistory
@testable import CycleService

/// The delivery policy as tables: calls queued, tried, answered, superseded, recovered;
/// no store, no HA, no clock.
@Suite struct CallQueueTests {
    static func at(_ seconds: Double) -> Date { Date(timeIntervalSince1970: 1_800_000_000 + seconds) }

    static func call(_ id: Int64, _ kind: CallKind, _ appliance: String = "dw", at seconds: Double = 0) -> QueuedCall {
        QueuedCall(pushID: id, applianceID: appliance, kind: kind, reason: "test", at: at(seconds), body: "{}")
    }

    static func heads(_ queue: CallQueue, at seconds: Double) -> [Int64] {
        queue.appliances.compactMap { queue.head(of: $0, at: at(seconds))?.pushID }
    }

    @Test func eachAppliancesCallsGoInOrderAndAWaitingOneHoldsBackOnlyItsOwn() {
        var queue = CallQueue(staleAfterSeconds: 300)
        queue.enqueue([Self.call(1, .start), Self.call(2, .clear, "wm"), Self.call(3, .quiet), Self.call(4, .end, "wm")])
        #expect(Self.heads(queue, at: 0) == [1, 2])
        #expect(queue.answered(Self.call(1, .start), succeeded: true, at: Self.at(0), jitter: 0) == .sent)
        // The washer's clear fails: retried after 5 s, then 10 s; its end waits behind it.
        #expect(queue.answered(Self.call(2, .clear, "wm"), succeeded: false, at: Self.at(0), jitter: 0) == .retry(seconds: 5))
        #expect(Self.heads(queue, at: 1) == [3])
        #expect(queue.nextRetry == Self.at(5))
        #expect(Self.heads(queue, at: 5) == [3, 2])
        #expect(queue.answered(Self.call(2, .clear, "wm"), succeeded: false, at: Self.at(5), jitter: 0) == .retry(seconds: 10))
        #expect(queue.answered(Self.call(2, .clear, "wm"), succeeded: true, at: Self.at(15), jitter: 0) == .sent)
        #expect(Self.heads(queue, at: 15) == [3, 4])
        #expect(queue.nextRetry == nil)
        #expect(queue.waiting == 2)
    }

    @Test(arguments: [
        (CallKind.start, true, CallQueue.Verdict.sent),
        (.start, false, .failed),
        (.progress, false, .failed),
        (.quiet, false, .failed),
        (.end, false, .failed),
        (.clear, false, .retry(seconds: 5)),
        (.clear, true, .sent),
    ])
    func anAlertingCallGoesOutAtMostOnceAClearAtLeastOnce(kind: CallKind, succeeded: Bool, verdict: CallQueue.Verdict) {
        var queue = CallQueue(staleAfterSeconds: 300)
        queue.enqueue([Self.call(1, kind)])
        #expect(queue.answered(Self.call(1, kind), succeeded: succeeded, at: Self.at(0), jitter: 0) == verdict)
        #expect(queue.waiting == (verdict == .retry(seconds: 5) ? 1 : 0))
    }

    @Test func aCallTheStoreCouldNotMarkWaitsAndIsGivenUpWhenStaleUnlessAClear() {
        var queue = CallQueue(staleAfterSeconds: 300)
        queue.enqueue([Self.call(1, .end), Self.call(2, .clear, "wm")])
        #expect(queue.markRefused(Self.call(1, .end), at: Self.at(10), jitter: 0) == .wait(until: Self.at(15)))
        #expect(queue.head(of: "dw", at: Self.at(14)) == nil)
        #expect(queue.markRefused(Self.call(1, .end), at: Self.at(301), jitter: 0) == .abandon)
        #expect(queue.head(of: "dw", at: Self.at(400)) == nil)
        #expect(queue.markRefused(Self.call(2, .clear, "wm"), at: Self.at(1000), jitter: 0) == .wait(until: Self.at(1005)))
        #expect(queue.waiting == 1)
    }

    @Test func aNewCyclesStartSupersedesWhatItsApplianceStillWaitsFor() {
        var queue = CallQueue(staleAfterSeconds: 300)
        queue.enqueue([Self.call(1, .clear), Self.call(2, .end), Self.call(3, .clear, "wm")])
        _ = queue.answered(Self.call(1, .clear), succeeded: false, at: Self.at(0), jitter: 0)
        queue.enqueue([Self.call(4, .start)])
        #expect(queue.supersede(applianceID: "dw", through: 2).map(\.pushID) == [1, 2])
        // Its wait went with them: the start goes at once.
        #expect(Self.heads(queue, at: 0) == [4, 3])
        #expect(queue.supersede(applianceID: "dw", through: 2).isEmpty)
    }

    @Test func anAnswerForACallSupersededMeanwhileLeavesTheQueueAlone() {
        var queue = CallQueue(staleAfterSeconds: 300)
        queue.enqueue([Self.call(1, .quiet)])
        _ = queue.supersede(applianceID: "dw", through: 1)
        queue.enqueue([Self.call(2, .start)])
        #expect(queue.answered(Self.call(1, .quiet), succeeded: true, at: Self.at(0), jitter: 0) == .sent)
        #expect(Self.heads(queue, at: 0) == [2])
    }

    static func push(_ id: Int64, _ kind: CallKind, _ status: PushStatus, at seconds: Double) -> CallRecord {
        CallRecord(id: id, cycleID: 1, applianceID: "dw", at: at(seconds), kind: kind, reason: "test", body: "{}",
                   status: status, httpStatus: nil, error: nil, latencyMs: nil, finishedAt: nil)
    }

    @Test func whatALastRunLeftIsSentAgainOnlyWhereThatKeepsTheRules() {
        let queue = CallQueue(staleAfterSeconds: 300)
        let stale = "planned but stale when the service restarted"
        let inFlight = "in flight when the service stopped; not sent again (alerting calls go out at most once)"
        let rows: [(CallRecord, CallQueue.Recovery)] = [
            (Self.push(1, .quiet, .pending, at: 900), .resend),
            (Self.push(2, .quiet, .pending, at: 0), .abandon(reason: stale)),
            (Self.push(3, .progress, .sending, at: 900), .abandon(reason: inFlight)),
            (Self.push(4, .end, .pending, at: 0), .abandon(reason: stale)),
            (Self.push(5, .clear, .sending, at: 0), .resend),
            (Self.push(6, .end, .pending, at: 0), .resend),
            (Self.push(7, .end, .sending, at: 0), .abandon(reason: inFlight)),
        ]
        #expect(queue.recovery(of: rows.map(\.0), at: Self.at(1000)) == rows.map(\.1))
    }
}
