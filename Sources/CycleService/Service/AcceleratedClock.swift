import FoundationEssentials

/// Time that runs `speed` times faster than the wall clock from `origin`, for the demo.
public struct AcceleratedClock: ServiceClock {
    public let origin: Date
    public let speed: Double
    private let realStart: ContinuousClock.Instant

    public init(origin: Date, speed: Double) {
        self.origin = origin
        self.speed = speed
        self.realStart = ContinuousClock.now
    }

    public func now() -> Date {
        let elapsed = ContinuousClock.now - realStart
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return origin.addingTimeInterval(seconds * speed)
    }

    public func sleep(until deadline: Date) async throws {
        let virtualSeconds = deadline.timeIntervalSince(now())
        if virtualSeconds > 0 {
            try await Task.sleep(for: .microseconds(Int64((virtualSeconds / speed * 1_000_000).rounded(.up))))
        } else {
            try Task.checkCancellation()
        }
    }
}
