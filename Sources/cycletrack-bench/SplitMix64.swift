/// SplitMix64 (Steele, Lea, Flood 2014): a tiny, fast, well-mixed generator. The
/// benchmark's traces and history come from it, so every run with the same seed
/// produces the same corpus and the same database.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform value in `range`.
    mutating func double(_ range: ClosedRange<Double>) -> Double {
        Double.random(in: range, using: &self)
    }

    /// A uniform integer in `range`.
    mutating func int(_ range: ClosedRange<Int>) -> Int {
        Int.random(in: range, using: &self)
    }

    /// True with probability `probability`.
    mutating func chance(_ probability: Double) -> Bool {
        Double.random(in: 0..<1, using: &self) < probability
    }

    /// One element of a non-empty array.
    mutating func pick<T>(_ items: [T]) -> T {
        precondition(!items.isEmpty, "pick needs at least one item")  // invariant: callers pass literals
        return items[Int.random(in: 0..<items.count, using: &self)]
    }

    /// An independent generator for a sub-task, so adding draws in one place doesn't
    /// change what another produces.
    mutating func split() -> SplitMix64 {
        SplitMix64(seed: next())
    }
}
