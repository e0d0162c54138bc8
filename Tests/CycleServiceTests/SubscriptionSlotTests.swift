import Synchronization
import Testing
@testable import CycleService

/// The subscription slot as a table: given these events, in this order, expect these
/// answers and this state. No sockets; the tasks it holds do nothing.
@Suite struct SubscriptionSlotTests {
    enum Event {
        /// Subscribe to these entities.
        case connect([String])
        case opened(Int)
        case failed(Int)
        case lost(Int)
        case close
    }

    /// The event, its answer (`number n` and what was given up for a connect, `taken` or
    /// `stale` for an outcome, what was let go of for a close), and the state after it.
    typealias Row = (event: Event, answer: String, state: String)

    static func text(_ state: SubscriptionSlot.State) -> String {
        switch state {
        case .idle: "idle"
        case .connecting(let attempt): "connecting \(attempt.number) \(attempt.entities.joined(separator: ","))"
        case .open(let open): "open \(open.number) \(open.entities.joined(separator: ","))"
        }
    }

    static let subscription = SourceSubscription(events: AsyncThrowingStream { $0.finish() }, close: {})

    static func handle(_ event: Event, _ slot: inout SubscriptionSlot) -> String {
        switch event {
        case .connect(let entities):
            var started: Int?
            let before = slot.connect(entities) { number in
                started = number
                return Task {}
            }
            return "number \(started.map(String.init) ?? "none"), gives up \(text(before))"
        case .opened(let number):
            return slot.opened(number, subscription) { _ in Task {} } ? "taken" : "stale"
        case .failed(let number): return slot.failed(number) ? "taken" : "stale"
        case .lost(let number): return slot.lost(number) ? "taken" : "stale"
        case .close: return "lets go of \(text(slot.close()))"
        }
    }

    static func check(_ rows: [Row], sourceLocation: SourceLocation = #_sourceLocation) {
        var slot = SubscriptionSlot()
        for (index, row) in rows.enumerated() {
            let answer = handle(row.event, &slot)
            #expect(answer == row.answer, "row \(index + 1): \(row.event)", sourceLocation: sourceLocation)
            #expect(text(slot.state) == row.state, "row \(index + 1): \(row.event), state", sourceLocation: sourceLocation)
            let words = row.state.split(separator: " ")
            #expect(slot.entities?.joined(separator: ",") == (words.count == 3 ? String(words[2]) : nil),
                    "row \(index + 1): \(row.event), entities", sourceLocation: sourceLocation)
        }
    }

    @Test func anAttemptOpensAndIsLost() {
        Self.check([
            (.connect(["a", "b"]), "number 1, gives up idle", "connecting 1 a,b"),
            (.opened(1), "taken", "open 1 a,b"),
            (.lost(1), "taken", "idle"),
            (.lost(1), "stale", "idle"),
            (.connect(["a"]), "number 2, gives up idle", "connecting 2 a"),
            (.failed(2), "taken", "idle"),
        ])
    }

    /// An outcome of an attempt given up (closed, or replaced by a newer one) changes nothing.
    @Test func anOutcomeOfAnAttemptGivenUpIsStale() {
        Self.check([
            (.connect(["a"]), "number 1, gives up idle", "connecting 1 a"),
            (.close, "lets go of connecting 1 a", "idle"),
            (.opened(1), "stale", "idle"),
            (.connect(["a", "b"]), "number 2, gives up idle", "connecting 2 a,b"),
            (.failed(1), "stale", "connecting 2 a,b"),
            (.opened(1), "stale", "connecting 2 a,b"),
            (.connect(["c"]), "number 3, gives up connecting 2 a,b", "connecting 3 c"),
            (.opened(2), "stale", "connecting 3 c"),
            (.opened(3), "taken", "open 3 c"),
            (.opened(3), "stale", "open 3 c"),
            (.failed(3), "stale", "open 3 c"),
            (.lost(2), "stale", "open 3 c"),
            (.close, "lets go of open 3 c", "idle"),
            (.lost(3), "stale", "idle"),
            (.close, "lets go of idle", "idle"),
        ])
    }

    /// Ending what the slot let go of cancels an attempt's task, and closes a subscription
    /// and cancels its reader.
    @Test func endingWhatWasLetGoCancelsAndCloses() async {
        // Tasks that wait until cancelled (or until the test ends).
        let (attempting, attemptEnd) = AsyncStream<Int>.makeStream()
        let (reading, readerEnd) = AsyncStream<Int>.makeStream()
        defer {
            attemptEnd.finish()
            readerEnd.finish()
        }
        let attempt = Task<Void, Never> { for await _ in attempting {} }
        let reader = Task<Void, Never> { for await _ in reading {} }
        let closed = Mutex(0)
        let subscription = SourceSubscription(events: AsyncThrowingStream { $0.finish() },
                                              close: { closed.withLock { $0 += 1 } })
        var slot = SubscriptionSlot()
        slot.connect(["a"]) { _ in attempt }.end()
        slot.close().end()
        #expect(attempt.isCancelled)
        slot.connect(["a"]) { _ in Task {} }.end()
        #expect(slot.opened(2, subscription) { _ in reader })
        #expect(!reader.isCancelled)
        #expect(closed.withLock { $0 } == 0)
        slot.close().end()
        #expect(reader.isCancelled)
        #expect(closed.withLock { $0 } == 1)
    }
}
