/// Measures elapsed time on the monotonic clock.
struct Stopwatch {
    private let start = ContinuousClock.now

    /// Seconds since the stopwatch was made.
    var seconds: Double {
        Stopwatch.seconds(ContinuousClock.now - start)
    }

    /// Milliseconds since the stopwatch was made.
    var milliseconds: Double { seconds * 1000 }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
