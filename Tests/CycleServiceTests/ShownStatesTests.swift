import HomeAssistantAPI
import Testing
@testable import CycleService

/// What HA shows as a table: events and full reads in order, then what is shown and
/// which entities an event changed. No HA.
@Suite struct ShownStatesTests {
    enum Event {
        /// States an event brought (nil: HA doesn't know the entity).
        case delivered([String: String?])
        case readStarted
        case answered([String: String?])
        case readFailed
    }

    /// The event, the entities it changed (sorted, for a delivery), and what is shown after it.
    typealias Row = (event: Event, changed: [String], shown: [String: String?])

    static func states(_ values: [String: String?]) -> [String: EntityState?] {
        values.mapValues { $0.map { EntityState(state: $0) } }
    }

    static func check(_ rows: [Row], sourceLocation: SourceLocation = #_sourceLocation) {
        var shown = ShownStates()
        for (index, row) in rows.enumerated() {
            var changed: Set<String> = []
            switch row.event {
            case .delivered(let values): changed = shown.deliver(states(values))
            case .readStarted: shown.readStarted()
            case .answered(let values): #expect(shown.read(states(values)) == states(row.shown))
            case .readFailed: shown.readFailed()
            }
            #expect(changed.sorted() == row.changed, "row \(index + 1): \(row.event)", sourceLocation: sourceLocation)
            #expect(shown.states == states(row.shown), "row \(index + 1): \(row.event), shown", sourceLocation: sourceLocation)
        }
    }

    @Test func eventsChangeWhatTheLastReadShowed() {
        Self.check([
            (.readStarted, [], [:]),
            (.answered(["a": "off", "b": nil]), [], ["a": "off", "b": nil]),
            (.delivered(["a": "off"]), [], ["a": "off", "b": nil]),
            (.delivered(["a": "run", "b": "5"]), ["a", "b"], ["a": "run", "b": "5"]),
            // A read answers anew: an entity it didn't ask for is gone.
            (.readStarted, [], ["a": "run", "b": "5"]),
            (.answered(["a": "run"]), [], ["a": "run"]),
        ])
    }

    /// An event that came while a read was under way stands over the read's answer.
    @Test func anEventDuringAReadStandsOverItsAnswer() {
        Self.check([
            (.delivered(["a": "off"]), ["a"], ["a": "off"]),
            (.readStarted, [], ["a": "off"]),
            (.delivered(["a": "run", "c": nil]), ["a", "c"], ["a": "run", "c": nil]),
            (.answered(["a": "off", "b": "5", "c": "on"]), [], ["a": "run", "b": "5", "c": nil]),
            // Read again, with nothing in between: the answer alone.
            (.readStarted, [], ["a": "run", "b": "5", "c": nil]),
            (.answered(["a": "off", "b": "5", "c": "on"]), [], ["a": "off", "b": "5", "c": "on"]),
        ])
    }

    /// A failed read leaves what events showed, and what came during it counts for nothing later.
    @Test func aFailedReadLeavesWhatEventsShowed() {
        Self.check([
            (.readStarted, [], [:]),
            (.delivered(["a": "run"]), ["a"], ["a": "run"]),
            (.readFailed, [], ["a": "run"]),
            (.readStarted, [], ["a": "run"]),
            (.answered(["a": "off"]), [], ["a": "off"]),
        ])
        var shown = ShownStates()
        shown.readStarted()
        shown.readFailed()
        shown.readStarted()
        #expect(shown.reads == 2)
    }
}
