import CycleCore
import CycleHistory
import FoundationEssentials

/// The delivery policy as a value (docs/PUSHES.md, "Delivery"): per appliance a FIFO of
/// recorded calls, when each may be tried, and what a try's outcome means. No I/O and
/// no clock: ``CallSender`` marks the store and calls HA, and tells this what happened.
///
/// - Each appliance's calls go strictly in order; an appliance waiting (a clear that
///   failed, a mark the store refused) holds back only its own.
/// - A clear goes out at least once: a failed one stays at the head, retried after a
///   backoff (5 s doubling to 5 min), and its end waits behind it.
/// - An alerting call goes out at most once: a failure is final.
/// - A call the store could not mark `sending` waits; given up once older than
///   `staleAfterSeconds` (a clear never is).
/// - A new cycle's start supersedes whatever of its appliance still waits.
struct CallQueue: Sendable {
    /// A call planned but not yet tried goes out only while younger than this (a
    /// clear, and an end waiting for its clear, always).
    let staleAfterSeconds: Double
    private var queues: [String: [QueuedCall]] = [:]
    private var order: [String] = []
    private var retryAt: [String: Date] = [:]
    private var backoff: [String: Backoff] = [:]

    init(staleAfterSeconds: Double) {
        self.staleAfterSeconds = staleAfterSeconds
    }

    /// What to do with a call whose `sending` mark the store refused.
    enum Refusal: Equatable {
        /// Keep it at the head; the appliance tries again at this time.
        case wait(until: Date)
        /// Drop it: too old to go out now.
        case abandon
    }

    /// What HA's answer to a call means.
    enum Verdict: Equatable {
        /// Done with: sent.
        case sent
        /// A clear HA didn't take: `pending` again, retried after `seconds`.
        case retry(seconds: Double)
        /// An alerting call HA didn't take: failed for good.
        case failed
    }

    /// What a call left by the last run becomes.
    enum Recovery: Equatable {
        case resend
        case abandon(reason: String)
    }

    /// Calls waiting, all appliances.
    var waiting: Int { queues.values.reduce(0) { $0 + $1.count } }

    /// The earliest moment a waiting queue may try again; nil when none waits on time.
    var nextRetry: Date? {
        order.compactMap { queues[$0]?.isEmpty == false ? retryAt[$0] : nil }.min()
    }

    /// The appliances with calls, in the order their first call came.
    var appliances: [String] { order }

    mutating func enqueue(_ calls: [QueuedCall]) {
        for call in calls {
            if queues[call.applianceID] == nil { order.append(call.applianceID) }
            queues[call.applianceID, default: []].append(call)
        }
    }

    /// Drops the appliance's waiting calls up to push id `through`; returns them.
    mutating func supersede(applianceID: String, through: Int64) -> [QueuedCall] {
        guard let queue = queues[applianceID] else { return [] }
        let dropped = queue.filter { $0.pushID <= through }
        guard !dropped.isEmpty else { return [] }
        queues[applianceID] = queue.filter { $0.pushID > through }
        retryAt[applianceID] = nil
        backoff[applianceID] = nil
        return dropped
    }

    /// The appliance's call to try now, if one may go.
    func head(of applianceID: String, at now: Date) -> QueuedCall? {
        if let retry = retryAt[applianceID], retry > now { return nil }
        return queues[applianceID]?.first
    }

    /// The store refused to mark `call` (the appliance's head) as sending.
    mutating func markRefused(_ call: QueuedCall, at now: Date, jitter: Double) -> Refusal {
        if call.kind != .clear, now.timeIntervalSince(call.at) > staleAfterSeconds {
            removeHead(call)
            return .abandon
        }
        let until = now.addingTimeInterval(nextBackoff(call.applianceID, jitter: jitter))
        retryAt[call.applianceID] = until
        return .wait(until: until)
    }

    /// HA answered `call` (the appliance's head) at `now`.
    mutating func answered(_ call: QueuedCall, succeeded: Bool, at now: Date, jitter: Double) -> Verdict {
        if succeeded {
            removeHead(call)
            retryAt[call.applianceID] = nil
            backoff[call.applianceID] = nil
            return .sent
        }
        guard call.kind == .clear else {
            removeHead(call)
            return .failed
        }
        let wait = nextBackoff(call.applianceID, jitter: jitter)
        retryAt[call.applianceID] = now.addingTimeInterval(wait)
        return .retry(seconds: wait)
    }

    /// What becomes of the calls a previous run left `pending` or `sending` (in the
    /// store's order): a clear is sent again (at least once), and so is an end waiting
    /// behind a clear still unaccepted; an alerting call that may have gone out
    /// (`sending`) is not (at most once); a call never tried goes out while fresh.
    func recovery(of unfinished: [CallRecord], at now: Date) -> [Recovery] {
        var clearWaiting: Set<String> = []
        return unfinished.map { push in
            let fresh = push.status == .pending && now.timeIntervalSince(push.at) <= staleAfterSeconds
            let behindClear = push.status == .pending && push.kind == .end && clearWaiting.contains(push.applianceID)
            if push.kind == .clear || fresh || behindClear {
                if push.kind == .clear { clearWaiting.insert(push.applianceID) }
                return .resend
            }
            return .abandon(reason: push.status == .sending
                ? "in flight when the service stopped; not sent again (alerting calls go out at most once)"
                : "planned but stale when the service restarted")
        }
    }

    /// Removes `call` from the head of its queue (unless a supersession took it meanwhile).
    private mutating func removeHead(_ call: QueuedCall) {
        if queues[call.applianceID]?.first?.pushID == call.pushID { queues[call.applianceID]?.removeFirst() }
    }

    private mutating func nextBackoff(_ applianceID: String, jitter: Double) -> Double {
        var state = backoff[applianceID] ?? Backoff(initial: 5, cap: 300)
        let wait = state.next(jitter: jitter)
        backoff[applianceID] = state
        return wait
    }
}
