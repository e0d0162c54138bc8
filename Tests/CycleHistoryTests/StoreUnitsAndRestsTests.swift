import CycleCore
@testable import CycleHistory
import FoundationEssentials
import TestSupport
import Testing

/// Migration 0006: the units of what is recorded, and a plug cycle's longest rest.
@Suite struct StoreUnitsAndRestsTests {
    @Test func unitsAreStoredWithTheObservationsAndReadBackForReplay() throws {
        let fixture = try StoreFixture()
        let store = try fixture.store(appliance: "washer")
        let cycle = try store.openCycle(applianceID: "washer", program: nil, startedAt: t(0), source: .run)
        try store.recordObservation(applianceID: "washer", cycleID: cycle, at: t(0), states: [.remainingTime: "9000"],
                                    units: [.remainingTime: "s"])
        try store.recordObservation(applianceID: "washer", cycleID: cycle, at: t(1), states: [.remainingTime: "8940"],
                                    units: [.remainingTime: "s"])
        // Only the unit changed (the entity re-registered with its suggested unit): a row all the same.
        let changed = try store.recordObservation(applianceID: "washer", cycleID: cycle, at: t(2), states: [.remainingTime: "8940"],
                                                  units: [.remainingTime: "min"])
        #expect(changed != nil)
        let stored = try store.connection.rows("SELECT units FROM observations ORDER BY id") { $0.optionalString(0) }
        #expect(stored == [#"{"remaining_time":"s"}"#, nil, #"{"remaining_time":"min"}"#])
        let reopened = try HistoryStore(path: fixture.path(), mode: .readOnly)
        let records = try reopened.observations(cycleID: cycle)
        #expect(records.map { $0.units["remaining_time"] } == ["s", "s", "min"])
    }
}
