import FoundationEssentials
import Testing
@testable import CycleService

/// A store outage as a table: given these events (at seconds, with no jitter), expect
/// these log lines, this retry time and whether a resync is due. No store, no clock.
@Suite struct StoreOutageTests {
    enum Event {
        case refused(Double)
        case recorded
        /// An observation of HA's states was recorded, or not.
        case observed(recorded: Bool)
    }

    /// The event, the line it logs (nil: none), when the store is tried again (nil: it
    /// writes), whether a resync is due.
    typealias Row = (event: Event, logs: String?, retryAt: Double?, resync: Bool)

    static func at(_ seconds: Double) -> Date { Date(timeIntervalSince1970: 1_800_000_000 + seconds) }

    static func check(_ rows: [Row], sourceLocation: SourceLocation = #_sourceLocation) {
        var outage = StoreOutage()
        for (index, row) in rows.enumerated() {
            var logged: LogLine?
            switch row.event {
            case .refused(let seconds): outage.refused(at: at(seconds), jitter: 0)
            case .recorded: logged = outage.recorded()
            case .observed(let recorded): outage.observed(recorded: recorded)
            }
            #expect(logged?.event == row.logs, "row \(index + 1): \(row.event)", sourceLocation: sourceLocation)
            #expect(outage.retryAt.map { $0.timeIntervalSince(at(0)) } == row.retryAt,
                    "row \(index + 1): \(row.event), retry", sourceLocation: sourceLocation)
            #expect(outage.resyncDue == row.resync, "row \(index + 1): \(row.event), resync", sourceLocation: sourceLocation)
        }
    }

    /// Refusals back off 1 s, doubling up to 30 s; a write that goes through says so once
    /// and starts the backoff over.
    @Test func refusalsBackOffUntilAWriteGoesThrough() {
        Self.check([
            (.recorded, nil, nil, false),
            (.refused(0), nil, 1, false),
            (.refused(1), nil, 3, false),
            (.refused(3), nil, 7, false),
            (.refused(7), nil, 15, false),
            (.refused(15), nil, 31, false),
            (.refused(31), nil, 61, false),
            (.refused(61), nil, 91, false),
            (.recorded, "store_back", nil, false),
            (.recorded, nil, nil, false),
            (.refused(100), nil, 101, false),
        ])
    }

    /// An observation not recorded makes the next one cover everything, also once the
    /// store is back, until one is recorded.
    @Test func aResyncIsDueUntilAnObservationIsRecorded() {
        Self.check([
            (.refused(0), nil, 1, false),
            (.observed(recorded: false), nil, 1, true),
            (.recorded, "store_back", nil, true),
            (.observed(recorded: true), nil, nil, false),
        ])
    }

    /// The loop decides nothing before the retry is due.
    @Test(arguments: [(0.5, false), (0.999, false), (1.0, true), (5.0, true)])
    func decidingWaitsForTheRetry(seconds: Double, allowed: Bool) {
        var outage = StoreOutage()
        #expect(outage.allowsDeciding(at: Self.at(0)))
        outage.refused(at: Self.at(0), jitter: 0)
        #expect(outage.allowsDeciding(at: Self.at(seconds)) == allowed)
    }

    /// Jitter stretches a wait by up to a quarter.
    @Test func jitterStretchesTheWait() {
        var outage = StoreOutage()
        outage.refused(at: Self.at(0), jitter: 1)
        #expect(outage.retryAt.map { $0.timeIntervalSince(Self.at(0)) } == 1.25)
    }
}
