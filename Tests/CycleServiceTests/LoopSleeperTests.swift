import FoundationEssentials
import Testing
@testable import CycleService

/// The loop's sleep as a table: given these events, expect these answers and this
/// deadline. No clock and no sleeping: the sleep's task does nothing.
@Suite struct LoopSleeperTests {
    enum Event {
        /// The loop sleeps until this second.
        case sleeping(Double)
        /// Something due at this second (now, when nil) arrived.
        case wake(Double?)
        /// The sleep ended.
        case awoke
    }

    /// The event, its answer (`cuts short` or `-` for a wake, `woken` or `not woken` when
    /// the sleep ended), and the deadline slept until after it (nil: not asleep).
    typealias Row = (event: Event, answer: String, sleepingUntil: Double?)

    static func at(_ seconds: Double) -> Date { Date(timeIntervalSince1970: 1_800_000_000 + seconds) }

    static func check(_ rows: [Row], sourceLocation: SourceLocation = #_sourceLocation) {
        var sleeper = LoopSleeper()
        var sleep: Task<Void, any Error>?
        for (index, row) in rows.enumerated() {
            let answer: String
            switch row.event {
            case .sleeping(let seconds):
                let task = Task<Void, any Error> {}
                sleep = task
                sleeper.sleeping(until: at(seconds), task)
                answer = "-"
            case .wake(let due):
                let cut = sleeper.wake(for: due.map(at))
                #expect(cut == nil || cut == sleep, "row \(index + 1): the sleep's own task", sourceLocation: sourceLocation)
                answer = cut == nil ? "-" : "cuts short"
            case .awoke:
                answer = sleeper.awoke() ? "woken" : "not woken"
            }
            #expect(answer == row.answer, "row \(index + 1): \(row.event)", sourceLocation: sourceLocation)
            let until = sleeper.sleepingUntil.map { $0.timeIntervalSince(at(0)) }
            #expect(until == row.sleepingUntil, "row \(index + 1): \(row.event), deadline", sourceLocation: sourceLocation)
        }
    }

    @Test func aSleepEndsAtItsDeadlineOrIsCutShort() {
        Self.check([
            (.sleeping(10), "-", 10),
            (.awoke, "not woken", nil),
            (.sleeping(20), "-", 20),
            (.wake(nil), "cuts short", nil),
            // Woken already: the sleep is being cut.
            (.wake(nil), "-", nil),
            (.awoke, "woken", nil),
            // The next sleep starts unwoken.
            (.sleeping(30), "-", 30),
            (.awoke, "not woken", nil),
        ])
    }

    /// A burst due before the deadline wakes the loop; one due at or after it doesn't.
    @Test func somethingDueLaterThanTheDeadlineLetsTheLoopSleep() {
        Self.check([
            (.sleeping(10), "-", 10),
            (.wake(10), "-", 10),
            (.wake(12), "-", 10),
            (.wake(9.98), "cuts short", nil),
            (.awoke, "woken", nil),
        ])
    }

    /// While the loop takes a turn, a wake changes nothing: it looks at everything due
    /// before it sleeps again.
    @Test func aWakeWhileAwakeIsNothing() {
        Self.check([
            (.wake(nil), "-", nil),
            (.wake(5), "-", nil),
            (.sleeping(10), "-", 10),
            (.awoke, "not woken", nil),
        ])
    }
}
