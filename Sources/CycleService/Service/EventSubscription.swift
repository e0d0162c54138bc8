import Dispatch
import Synchronization

/// One open event stream: the events told to it, waiting for its reader.
public final class EventSubscription: Sendable {
    /// What a read of the stream found.
    public enum Read: Sendable, Equatable {
        /// Events told since the last read, oldest first (never empty).
        case events([ServiceEvent])
        /// Nothing told yet; the stream is open.
        case idle
        /// The service stopped the stream and every event told before was read.
        case ended
    }

    let id: Int
    private let link: ServiceLink
    private let queue = Mutex<(events: [ServiceEvent], ended: Bool)>(([], false))
    private let arrived = DispatchSemaphore(value: 0)

    init(id: Int, link: ServiceLink) {
        self.id = id
        self.link = link
    }

    func deliver(_ events: [ServiceEvent]) {
        guard !events.isEmpty else { return }
        queue.withLock { $0.events += events }
        arrived.signal()
    }

    func end() {
        queue.withLock { $0.ended = true }
        arrived.signal()
    }

    /// The events told since the last read, waiting at most `seconds` for one when none
    /// waits: `.idle` when none came in time, `.ended` once the stream ended and was read out.
    public func next(waitingAtMost seconds: Double) -> Read {
        let waiting = take()
        guard waiting == .idle else { return waiting }
        _ = arrived.wait(timeout: .now() + seconds)
        return take()
    }

    /// What waits now, without waiting.
    private func take() -> Read {
        queue.withLock { queue in
            guard queue.events.isEmpty else {
                defer { queue.events = [] }
                return .events(queue.events)
            }
            return queue.ended ? .ended : .idle
        }
    }

    /// The reader is gone: the stream no longer counts as open.
    public func cancel() { link.unsubscribe(id) }
}
