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
        for number in signals {
            // On Linux libdispatch reads signals through signalfd, which needs them blocked
            // rather than ignored.
            var set = sigset_t()
            sigemptyset(&set)
            sigaddset(&set, number)
            pthread_sigmask(SIG_BLOCK, &set, nil)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { continuation.yield(number) }
            source.resume()
            made.append(source)
        }
        received = stream
        sources = made
    }

    deinit {
        for source in sources { source.cancel() }
    }
}
