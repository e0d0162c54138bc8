import FoundationEssentials
import Testing
@testable import CycleService

/// When discovery runs again, as a table: events at seconds after the start, then when
/// it is due (nil: not planned). No HA, no clock.
@Suite struct DiscoveryScheduleTests {
    enum Event {
        /// The runner starts, with the first run due this many seconds later (nil: the usual wait).
        case start(first: Double?)
        case ran(Double, found: Bool)
        case registryChanged(Double)
    }

    typealias Row = (event: Event, due: Double?)

    static func at(_ seconds: Double) -> Date { Date(timeIntervalSince1970: 1_800_000_000 + seconds) }

    static func check(_ rows: [Row], every: Double?, sourceLocation: SourceLocation = #_sourceLocation) {
        var schedule = DiscoverySchedule(everySeconds: every, retrySeconds: 30, debounceSeconds: 5)
        for (index, row) in rows.enumerated() {
            switch row.event {
            case .start(let first): schedule.start(at: at(0), firstSeconds: first)
            case .ran(let seconds, let found): schedule.ran(found: found, at: at(seconds))
            case .registryChanged(let seconds): schedule.registryChanged(at: at(seconds))
            }
            let due = schedule.due.map { $0.timeIntervalSince(at(0)) }
            #expect(due == row.due, "row \(index + 1): \(row.event)", sourceLocation: sourceLocation)
            if let due {
                #expect(!schedule.isDue(at: at(due - 0.001)) && schedule.isDue(at: at(due)),
                        "row \(index + 1): due at its moment, not before", sourceLocation: sourceLocation)
            }
        }
    }

    @Test func everyTenMinutesAndSoonAfterAFailure() {
        Self.check([
            (.start(first: nil), 600),
            (.ran(600, found: true), 1200),
            (.ran(1200, found: false), 1230),
            (.ran(1230, found: false), 1260),
            (.ran(1261, found: true), 1861),
        ], every: 600)
    }

    /// Discovery failed at start-up: the first run is due soon.
    @Test func soonAfterAStartWithoutDiscovery() {
        Self.check([(.start(first: 30), 30), (.ran(31, found: true), 631)], every: 600)
    }

    /// A registry change brings the run forward, never back.
    @Test func aRegistryChangeMakesItDueSoon() {
        Self.check([
            (.start(first: nil), 600),
            (.registryChanged(100), 105),
            (.registryChanged(102), 105),
            (.ran(105, found: true), 705),
            (.registryChanged(703), 705),
        ], every: 600)
    }

    /// Rediscovery off: nothing runs until a registry change, then every 15 minutes.
    @Test func offUntilARegistryChange() {
        Self.check([
            (.start(first: 30), nil),
            (.registryChanged(50), 55),
            (.ran(55, found: true), 955),
        ], every: nil)
        let never = DiscoverySchedule(everySeconds: nil, retrySeconds: 30, debounceSeconds: 5)
        #expect(!never.isDue(at: .distantFuture))
    }
}
