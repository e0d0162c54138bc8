import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Closes the requests past their deadline (``RequestDeadlines``) four times a second, on
/// a thread of its own. Not a task: Swift's cooperative threads (one per core) can all be
/// busy at once, with a blocking read of the store, a transfer, or in the tests a blocked
/// test, and that is no moment for a slow client to keep its connection past its deadline.
final class DeadlineSweeper: Sendable {
    private let deadlines: RequestDeadlines
    private let interval: Duration
    private let stopped = Atomic<Bool>(false)

    /// Starts sweeping `deadlines` every `interval` until ``stop()``.
    init(_ deadlines: RequestDeadlines, every interval: Duration = .milliseconds(250)) {
        self.deadlines = deadlines
        self.interval = interval
        var thread = pthread_t()
        let job = Unmanaged.passRetained(self).toOpaque()
        if pthread_create(&thread, nil, { job in
            guard let job else { return nil }
            Unmanaged<DeadlineSweeper>.fromOpaque(job).takeRetainedValue().run()
            return nil
        }, job) == 0 {
            pthread_detach(thread)
        } else {
            Unmanaged<DeadlineSweeper>.fromOpaque(job).release()
        }
    }

    /// Ends the sweeping within one interval.
    func stop() {
        stopped.store(true, ordering: .releasing)
    }

    private func run() {
        let (seconds, attoseconds) = interval.components
        let microseconds = UInt32(seconds * 1_000_000 + attoseconds / 1_000_000_000_000)
        while !stopped.load(ordering: .acquiring) {
            usleep(microseconds)
            deadlines.closeOverdue(at: .now)
        }
    }
}
