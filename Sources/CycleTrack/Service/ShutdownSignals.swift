import Dispatch
#if canImport(Glibc)
import Glibc
#endif

/// SIGTERM and SIGINT as an `AsyncStream`, in the shape of swift-service-lifecycle's
/// `UnixSignalsSequence`: dispatch signal sources, and the signals blocked from their
/// default action so the process isn't killed before it can finish its call in flight.
// Unchecked: `sources` is written once in init and only read again in deinit.
public final class ShutdownSignals: @unchecked Sendable {
    public let received: AsyncStream<Int32>
    private let sources: [any DispatchSourceSignal]

    public init(signals: [Int32] = [SIGTERM, SIGINT]) {
        let (stream, continuation) = AsyncStream<Int32>.makeStream()
        let queue = DispatchQueue(label: "cycletrack.signals")
        var made: [any DispatchSourceSignal] = []
        Self.block(signals)
        for number in signals {
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { continuation.yield(number) }
            source.resume()
            made.append(source)
        }
        received = stream
        sources = made
    }

    /// Holds SIGTERM and SIGINT back from their default action (ending the process) on
    /// the calling thread and every thread it starts later. Call it from `main` before the
    /// first `await`, while there is only the main thread: a signal that arrives before the
    /// dispatch sources are listening then waits for them instead of killing the process.
    /// On Linux libdispatch reads signals through signalfd, which needs them blocked
    /// rather than ignored.
    public static func block(_ signals: [Int32] = [SIGTERM, SIGINT]) {
        var set = sigset_t()
        sigemptyset(&set)
        for number in signals { sigaddset(&set, number) }
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    deinit {
        for source in sources { source.cancel() }
    }
}
