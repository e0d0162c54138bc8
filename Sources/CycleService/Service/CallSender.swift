import CycleHistory
import HomeAssistantAPI
import CycleCore
import FoundationEssentials

/// A recorded call on its way to Home Assistant: its push id, and the body exactly as
/// recorded (serialised once, by the recorder).
struct QueuedCall: Sendable, Equatable {
    var pushID: Int64
    var applianceID: String
    var kind: CallKind
    var reason: String
    /// When the planner decided on it.
    var at: Date
    var body: String
}

/// Sends recorded calls to `supernotify.notify`, each appliance's strictly in order
/// (docs/PUSHES.md, "Delivery"):
///
/// - nothing goes out that was not recorded first, and nothing whose `sending` state
///   could not be recorded: a call the store can't mark waits, and is given up after
///   `staleAfterSeconds` (a restart then finds it `pending` and stale);
/// - alerting calls (start, progress, end) go out at most once: a failure is final,
///   and a call found `sending` after a crash is not sent again;
/// - a clear goes out at least once: a failed clear stays `pending` and is retried with
///   capped backoff, and everything after it for that appliance (its end
///   notification) waits until HA accepted it;
/// - a new cycle's start supersedes whatever of its appliance is still waiting.
///
/// Not `Sendable`: the runner actor owns it; its async methods run on that actor.
final class CallSender {
    private let store: HistoryStore
    private let sink: any CallSink
    private let clock: any ServiceClock
    private let log: Log
    /// Per appliance, the calls not yet sent, and what each outcome means.
    private var queue: CallQueue
    /// Outcomes HA gave that the store could not take yet: written at the next chance.
    private var unrecorded: [(pushID: Int64, status: PushStatus, http: Int?, error: String?, latency: Double?, at: Date)] = []
    private var saidSupernotifyMissing = false
    /// What each call said of the token (false: HA answered 401), until the runner takes them.
    private var tokenVerdicts: [Bool] = []
    private var jitter = SystemRandomNumberGenerator()

    init(store: HistoryStore, sink: any CallSink, clock: any ServiceClock, log: Log, staleAfterSeconds: Double = 300) {
        self.store = store
        self.sink = sink
        self.clock = clock
        self.log = log
        queue = CallQueue(staleAfterSeconds: staleAfterSeconds)
    }

    /// What HA's answers to calls said of the token since the runner last asked, in
    /// order: false for a 401, true for any other answer.
    func takeTokenVerdicts() -> [Bool] {
        defer { tokenVerdicts = [] }
        return tokenVerdicts
    }

    /// Calls waiting, all appliances.
    var waiting: Int { queue.waiting }

    /// The earliest moment a waiting queue may try again; nil when none waits on time.
    var nextRetry: Date? { queue.nextRetry }

    /// Queues recorded calls behind the ones already waiting.
    func enqueue(_ calls: [QueuedCall]) {
        queue.enqueue(calls)
    }

    /// Drops the appliance's waiting calls up to push id `through`: the store already
    /// marked them superseded by a new cycle's start.
    func supersede(applianceID: String, through: Int64) {
        for call in queue.supersede(applianceID: applianceID, through: through) {
            log.info("call_superseded", ["appliance": applianceID, "kind": call.kind.rawValue, "push": String(call.pushID),
                                         "reason": "the appliance's next cycle started before it went out"])
        }
    }

    /// Sends every waiting call that may go now, appliance by appliance. Stops early,
    /// leaving the rest `pending` for the next start, when the task is cancelled.
    nonisolated(nonsending) func sendWaiting() async {
        flushUnrecorded()
        for applianceID in queue.appliances {
            while let call = queue.head(of: applianceID, at: clock.now()) {
                if Task.isCancelled {
                    log.info("call_deferred", ["appliance": applianceID, "kind": call.kind.rawValue,
                                               "reason": "shutting down; kept as pending for the next start"])
                    return
                }
                guard await send(call) else { break }
            }
        }
    }

    /// Tries one call; true when it is done with (sent, failed for good, or given up),
    /// false when it must wait at the head of its queue.
    private nonisolated(nonsending) func send(_ call: QueuedCall) async -> Bool {
        guard mark(call.pushID, .sending, nil, nil, nil) else {
            // Unrecorded, a call must not go out: if it did and the process died, a
            // restart would find it `pending` and send it again.
            guard queue.markRefused(call, at: clock.now(), jitter: nextJitter()) == .abandon else { return false }
            log.warning("call_abandoned", ["appliance": call.applianceID, "kind": call.kind.rawValue,
                                           "reason": "the store refused to record it as sending for too long"])
            return true
        }
        let result = await sink.notify(CallRequest(applianceID: call.applianceID, kind: call.kind, body: call.body))
        // After the call, not before: building the line must not delay it.
        if log.enabled(.debug) {
            log.debug("call_body", ["json": CallLine.jsonl(at: call.at, kind: call.kind, body: call.body)])
        }
        if let status = result.status { tokenVerdicts.append(status != 401) }
        let finished = clock.now()
        let error = result.error?.description ?? "HTTP \(result.status.map(String.init) ?? "-")"
        switch queue.answered(call, succeeded: result.succeeded, at: finished, jitter: nextJitter()) {
        case .sent:
            record(call.pushID, .sent, result.status, nil, result.latencyMs, at: finished)
            log.info("call", ["appliance": call.applianceID, "kind": call.kind.rawValue, "reason": call.reason,
                              "status": String(result.status ?? 0),
                              "latency_ms": String(NumberText.int(result.latencyMs) ?? 0)])
            return true
        case .retry(let wait):
            // At least once: pending again, retried with backoff; the end waits behind it.
            explain(result)
            record(call.pushID, .pending, result.status, error, result.latencyMs, at: finished)
            log.warning("call_failed", ["appliance": call.applianceID, "kind": call.kind.rawValue, "error": error,
                                        "action": "will retry in \(NumberText.int(wait) ?? 0) s"])
            return false
        case .failed:
            // At most once for alerting calls; a lost quiet update is replaced by the next.
            explain(result)
            record(call.pushID, .failed, result.status, error, result.latencyMs, at: finished)
            log.warning("call_failed", ["appliance": call.applianceID, "kind": call.kind.rawValue, "error": error,
                                        "action": "not retried"])
            return true
        }
    }

    private func nextJitter() -> Double { Double.random(in: 0..<1, using: &jitter) }

    private func explain(_ result: ServiceCallOutcome) {
        if result.status == 400, !saidSupernotifyMissing {
            saidSupernotifyMissing = true
            log.error("supernotify_refused", [
                "status": "400",
                "meaning": "supernotify.notify is missing or too old, or refused the data: install Supernotify 2.3+ and check HA's log",
            ])
        }
    }

    // MARK: The store

    /// Marks a push; false (logged) when the store refused.
    @discardableResult
    private func mark(_ pushID: Int64, _ status: PushStatus, _ http: Int?, _ error: String?, _ latency: Double?) -> Bool {
        do {
            try store.markPush(id: pushID, status: status, httpStatus: http, error: error, latencyMs: latency, at: clock.now())
            return true
        } catch {
            log.error("store_write_failed", ["push": String(pushID), "status": status.rawValue, "error": "\(error)"])
            return false
        }
    }

    /// Records an outcome HA gave; kept to be written later when the store refuses now.
    private func record(_ pushID: Int64, _ status: PushStatus, _ http: Int?, _ error: String?, _ latency: Double?, at: Date) {
        if !mark(pushID, status, http, error, latency) {
            unrecorded.append((pushID, status, http, error, latency, at))
        }
    }

    private func flushUnrecorded() {
        guard !unrecorded.isEmpty else { return }
        var still: [(pushID: Int64, status: PushStatus, http: Int?, error: String?, latency: Double?, at: Date)] = []
        for item in unrecorded {
            do {
                try store.markPush(id: item.pushID, status: item.status, httpStatus: item.http, error: item.error,
                                   latencyMs: item.latency, at: item.at)
            } catch {
                still.append(item)
            }
        }
        unrecorded = still
    }

    // MARK: Restarts

    /// Takes up the calls a previous run left `pending` or `sending`, as
    /// ``CallQueue/recovery(of:at:)`` says.
    func recover(_ unfinished: [CallRecord]) {
        for (push, recovery) in zip(unfinished, queue.recovery(of: unfinished, at: clock.now())) {
            switch recovery {
            case .resend:
                log.info("call_recovered", ["appliance": push.applianceID, "kind": push.kind.rawValue, "was": push.status.rawValue])
                queue.enqueue([QueuedCall(pushID: push.id, applianceID: push.applianceID, kind: push.kind, reason: "recovered",
                                            at: push.at, body: push.body)])
            case .abandon(let why):
                mark(push.id, .abandoned, nil, why, nil)
                log.info("call_abandoned", ["appliance": push.applianceID, "kind": push.kind.rawValue, "reason": why])
            }
        }
    }
}
