import CycleHistory
import HomeAssistantAPI
import CycleCore
/// Capped exponential backoff with jitter, for retrying a Home Assistant that doesn't
/// answer: 2 s, 4 s, 8 s ... up to the cap, each stretched by up to +25% at random so
/// that many services restarted together don't retry in step.
struct Backoff: Sendable {
    var initial: Double = 2
    var cap: Double = 120
    private(set) var attempts = 0

    init(initial: Double = 2, cap: Double = 120) {
        self.initial = initial
        self.cap = cap
    }

    /// The wait before the next attempt; `jitter` is a number in 0..<1.
    mutating func next(jitter: Double) -> Double {
        let exponent = Double(min(attempts, 30))
        attempts += 1
        let base = min(cap, initial * pow2(exponent))
        return base * (1 + 0.25 * max(0, min(jitter, 1)))
    }

    mutating func reset() { attempts = 0 }

    private func pow2(_ exponent: Double) -> Double {
        var value = 1.0
        for _ in 0..<Int(exponent) { value *= 2 }
        return value
    }
}
