#if canImport(Glibc)
import Glibc
#endif

/// A joinable POSIX thread running one closure. The stand-in uses real threads, not
/// Dispatch, because its connections block in `poll` and must be joined on `stop()`.
final class StandInThread: @unchecked Sendable {
    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    private let thread: pthread_t
    private let joined = StandInLock(false)

    /// Starts `body` on a new thread.
    init(_ body: @escaping @Sendable () -> Void) throws(StandInError) {
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(&thread, nil, { context in
            // Invariant: pthread_create passes back the non-nil context given below.
            let body = Unmanaged<Body>.fromOpaque(context!).takeRetainedValue()
            body.run()
            return nil
        }, context)
        guard result == 0 else {
            Unmanaged<Body>.fromOpaque(context).release()
            throw StandInError(what: "pthread_create", code: result)
        }
        self.thread = thread
    }

    /// Waits for the thread to end; later calls return at once.
    func join() {
        let first = joined.withLock { done -> Bool in
            defer { done = true }
            return !done
        }
        if first {
            pthread_join(thread, nil)
        }
    }
}
