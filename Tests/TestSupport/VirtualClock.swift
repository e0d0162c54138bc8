import CycleService
import FoundationEssentials
import Synchronization

/// Time that jumps straight to each deadline the runner sleeps until, so a three-hour
/// cycle runs in a moment; `onAdvance` lets a test change what Home Assistant shows as
/// time passes. Sleeping past `stopAt` throws, which ends `Runner.run()` as a
/// cancellation (SIGTERM) would.
public final class VirtualClock: ServiceClock {
    private let current: Mutex<Date>
    public let stopAt: Date
    public let onAdvance: @Sendable (Date) -> Void

    public init(start: Date, stopAt: Date, onAdvance: @escaping @Sendable (Date) -> Void = { _ in }) {
        current = Mutex(start)
        self.stopAt = stopAt
        self.onAdvance = onAdvance
        onAdvance(start)
    }

    public func now() -> Date { current.withLock { $0 } }

    /// Moves time on by `seconds` without sleeping: a request that takes that long.
    public func advance(by seconds: Double) {
        let now = current.withLock { value in
            value = value.addingTimeInterval(seconds)
            return value
        }
        onAdvance(now)
    }

    public func sleep(until deadline: Date) async throws {
        try Task.checkCancellation()
        guard deadline < stopAt else {
            current.withLock { $0 = stopAt }
            throw CancellationError()
        }
        let now = current.withLock { value in
            if deadline > value { value = deadline }
            return value
        }
        onAdvance(now)
        await Task.yield()
    }
}

/// Log lines kept for assertions.
public final class LogCapture: Sendable {
    private let lines = Mutex<[String]>([])

    public init() {}

    public var log: Log { Log(level: .debug) { line in self.lines.withLock { $0.append(line) } } }
    public var all: [String] { lines.withLock { $0 } }

    public func count(_ event: String) -> Int { all.filter { $0.contains("event=\(event) ") || $0.hasSuffix("event=\(event)") }.count }
}
