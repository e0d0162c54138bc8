import CycleCore
import FoundationEssentials

/// Phase 2: observations per second through the `Household` (cycle machine and push
/// planner, bodies built), fed the way `Replay.run` feeds it: each deadline between
/// two observations gets its own tick. The corpus is parsed beforehand;
/// only the tracker's work is timed.
struct ThroughputBenchmark {
    var observations = 0
    var seconds = 0.0
    var passes = 0
    /// Calls made, summed over the passes: keeps the work observable.
    var calls = 0

    var perSecond: Double { seconds > 0 ? Double(observations) / seconds : 0 }
    var microsecondsPerObservation: Double { observations > 0 ? seconds * 1e6 / Double(observations) : 0 }

    /// Repeats the corpus until at least `targetSeconds` of work was timed.
    static func run(_ corpus: TraceCorpus, targetSeconds: Double) -> ThroughputBenchmark {
        // One untimed pass warms caches.
        _ = pass(corpus)
        var result = ThroughputBenchmark()
        let timer = Stopwatch()
        repeat {
            result.calls += pass(corpus)
            result.passes += 1
        } while timer.seconds < targetSeconds
        result.seconds = timer.seconds
        result.observations = corpus.observationCount * result.passes
        return result
    }

    /// One replay of every trace through a fresh household, as `Replay.run` and
    /// `run` drive it; returns the calls made.
    private static func pass(_ corpus: TraceCorpus) -> Int {
        var calls = 0
        for trace in corpus.traces {
            var household = Household(dailyLimit: 400)
            household.follow(trace.settings)
            for observation in trace.observations {
                for step in household.handle(.observed(trace.settings.id, observation)) {
                    for case .call in step.effects { calls += 1 }
                }
            }
        }
        return calls
    }
}
