import CycleCore
import FoundationEssentials
import Testing
@testable import CycleHistory
@testable import CycleService

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

    @Test func aPlugLearnsTheLongestRestOfItsLatestFinishedCycles() throws {
        let fixture = try StoreFixture()
        let store = try fixture.store(appliance: "washer")
        for (index, rest) in [540.0, 300, 610].enumerated() {
            let start = t(Double(index) * 10)
            let id = try store.openCycle(applianceID: "washer", program: nil, startedAt: start, source: .run)
            try store.closeCycle(id: id, endedAt: start.addingTimeInterval(3600), outcome: .finished, energyEnd: nil)
            try store.recordLongestRest(cycleID: id, seconds: rest)
        }
        let aborted = try store.openCycle(applianceID: "washer", program: nil, startedAt: t(100), source: .run)
        try store.closeCycle(id: aborted, endedAt: t(101), outcome: .aborted, energyEnd: nil)
        try store.recordLongestRest(cycleID: aborted, seconds: 5000)
        #expect(try store.longestRests(applianceID: "washer", limit: 10) == [610, 300, 540])
        var plug = ApplianceSettings(id: "washer", name: "Washer")
        plug.profile = .plug
        let learned = try LearnedDurationsReader.learning(plug, store: store)
        #expect(learned.learned?.longestRest == 610)
    }
}
