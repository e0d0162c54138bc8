import FoundationEssentials

/// Wall-clock time.
public struct SystemClock: ServiceClock {
    public init() {}

    public func now() -> Date { Date() }

    public func sleep(until deadline: Date) async throws {
        let seconds = deadline.timeIntervalSinceNow
        if seconds > 0 {
            try await Task.sleep(for: .milliseconds(Int64((seconds * 1000).rounded(.up))))
        } else {
            try Task.checkCancellation()
        }
    }
}
