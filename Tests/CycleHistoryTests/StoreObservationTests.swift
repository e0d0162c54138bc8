@testable import CycleHistory
import FoundationEssentials
import TestSupport
import Testing

@Suite struct StoreObservationTests {
    /// The stored rows of the appliance: cycle, changed JSON, full flag.
    private func storedRows(_ store: HistoryStore) throws -> [String] {
        try store.connection.rows("SELECT cycle_id, changed, full FROM observations ORDER BY id") { row in
            "\(row.optionalInt64(0).map(String.init) ?? "-") \(row.string(1)) \(row.int64(2))"
        }
    }

    @Test func storesOnlyWhatChanged() throws {
        let fixture = try StoreFixture()
        let store = try fixture.store()
        let first = try store.recordObservation(applianceID: "dishwasher", cycleID: nil, at: t(0), states: [.operationState: "ready", .door: "closed"])
        #expect(first != nil)
        #expect(try store.recordObservation(applianceID: "dishwasher", cycleID: nil, at: t(1), states: [.operationState: "ready", .door: "closed"]) == nil)
        let cycle = try store.openCycle(applianceID: "dishwasher", program: nil, startedAt: t(2), source: .run)
        // A new cycle starts with a full row, even with nothing changed.
        try store.recordObservation(applianceID: "dishwasher", cycleID: cycle, at: t(2), states: [.operationState: "run", .door: "closed", .progress: "0"])
        try store.recordObservation(applianceID: "dishwasher", cycleID: cycle, at: t(2.25), states: [.operationState: "run", .door: "closed", .progress: "1"])
        // door no longer reported: stored as null.
        try store.recordObservation(applianceID: "dishwasher", cycleID: cycle, at: t(2.5), states: [.operationState: "run", .progress: "1"])
        #expect(try store.recordObservation(applianceID: "dishwasher", cycleID: cycle, at: t(3), states: [.operationState: "run", .progress: "1"]) == nil)
        #expect(try storedRows(store) == [
            #"- {"door":"closed","operation_state":"ready"} 1"#,
            #"\#(cycle) {"door":"closed","operation_state":"run","progress":"0"} 1"#,
            #"\#(cycle) {"progress":"1"} 0"#,
            #"\#(cycle) {"door":null} 0"#,
        ])
    }

    @Test func aReopenedStoreContinuesFromTheStoredState() throws {
        let fixture = try StoreFixture()
        do {
            let store = try fixture.store()
            try store.recordObservation(applianceID: "dishwasher", cycleID: nil, at: t(0), states: [.operationState: "ready", .door: "open"])
            try store.recordObservation(applianceID: "dishwasher", cycleID: nil, at: t(1), states: [.operationState: "ready", .door: "closed"])
        }
        let store = try HistoryStore(path: fixture.path())
        #expect(try store.recordObservation(applianceID: "dishwasher", cycleID: nil, at: t(2), states: [.operationState: "ready", .door: "closed"]) == nil)
        try store.recordObservation(applianceID: "dishwasher", cycleID: nil, at: t(3), states: [.operationState: "inactive", .door: "closed"])
        #expect(try storedRows(store).last == #"- {"operation_state":"inactive"} 0"#)
    }

    @Test func replayAccumulatesTheCycleFromTheStateBeforeIt() throws {
        let fixture = try StoreFixture()
        let store = try fixture.store()
        try store.upsertAppliance(id: "dryer", name: "Dryer", at: t(0))
        try store.recordObservation(applianceID: "dishwasher", cycleID: nil, at: t(0), states: [.operationState: "inactive", .door: "open"])
        try store.recordObservation(applianceID: "dryer", cycleID: nil, at: t(5), states: [.operationState: "run"])
        let before = try #require(try store.recordObservation(applianceID: "dishwasher", cycleID: nil, at: t(10), states: [.operationState: "ready", .door: "closed"]))
        let cycle = try store.openCycle(applianceID: "dishwasher", program: "eco_50", startedAt: t(20), source: .run)
        let a = try #require(try store.recordObservation(applianceID: "dishwasher", cycleID: cycle, at: t(20), states: [.operationState: "run", .door: "closed", .progress: "0", .program: "eco_50"]))
        try store.recordObservation(applianceID: "dryer", cycleID: nil, at: t(25), states: [.operationState: "pause"])
        let b = try #require(try store.recordObservation(applianceID: "dishwasher", cycleID: cycle, at: t(30), states: [.operationState: "run", .door: "closed", .progress: "50", .program: "eco_50"]))
        let c = try #require(try store.recordObservation(applianceID: "dishwasher", cycleID: cycle, at: t(40.5), states: [.operationState: "finished", .door: "closed", .program: "eco_50"]))
        try store.closeCycle(id: cycle, endedAt: t(40.5), outcome: .finished, energyEnd: nil)
        try store.recordObservation(applianceID: "dishwasher", cycleID: nil, at: t(50), states: [.operationState: "ready", .door: "open"])

        let replayed = try store.observations(cycleID: cycle)
        #expect(replayed == [
            ObservationRecord(id: before, applianceID: "dishwasher", cycleID: nil, at: t(10),
                              states: ["operation_state": "ready", "door": "closed"], changedRoles: ["operation_state", "door"]),
            ObservationRecord(id: a, applianceID: "dishwasher", cycleID: cycle, at: t(20),
                              states: ["operation_state": "run", "door": "closed", "progress": "0", "program": "eco_50"],
                              changedRoles: ["operation_state", "door", "progress", "program"]),
            ObservationRecord(id: b, applianceID: "dishwasher", cycleID: cycle, at: t(30),
                              states: ["operation_state": "run", "door": "closed", "progress": "50", "program": "eco_50"],
                              changedRoles: ["progress"]),
            ObservationRecord(id: c, applianceID: "dishwasher", cycleID: cycle, at: t(40.5),
                              states: ["operation_state": "finished", "door": "closed", "program": "eco_50"],
                              changedRoles: ["operation_state", "progress"]),
        ])
        #expect(try store.observations(cycleID: cycle + 100).isEmpty)
    }

    @Test func longStretchesGetPeriodicFullRows() throws {
        let fixture = try StoreFixture()
        let store = try fixture.store()
        let cycle = try store.openCycle(applianceID: "dishwasher", program: nil, startedAt: t(0), source: .run)
        let count = ApplianceObservationState.fullRowInterval + 10
        try store.transaction {
            for index in 0..<count {
                try store.recordObservation(applianceID: "dishwasher", cycleID: cycle, at: t(Double(index) / 4), states: [.power: "\(index)", .door: "closed"])
            }
        }
        let fullRows = try store.connection.rows("SELECT id FROM observations WHERE full = 1 ORDER BY id") { $0.int64(0) }
        #expect(fullRows.count == 2)
        let replayed = try store.observations(cycleID: cycle)
        #expect(replayed.count == count)
        #expect(replayed.enumerated().allSatisfy { $0.element.states == ["power": "\($0.offset)", "door": "closed"] })
    }
}
