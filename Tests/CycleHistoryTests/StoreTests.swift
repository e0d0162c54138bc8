@testable import CycleHistory
import FoundationEssentials
import TestSupport
import Testing

@Suite struct StoreTests {
    @Test func applianceUpsertKeepsFirstSeenAndLatestName() throws {
        let fixture = try StoreFixture()
        let store = try fixture.store()
        try store.upsertAppliance(id: "dishwasher", name: "Kitchen dishwasher", at: t(600))
        try store.upsertAppliance(id: "dishwasher", name: "Kitchen dishwasher", at: t(300))
        let rows = try store.connection.rows("SELECT id, name, first_seen, last_seen FROM appliances") { row in
            "\(row.string(0))|\(row.string(1))|\(row.date(2) == t(0))|\(row.date(3) == t(600))"
        }
        #expect(rows == ["dishwasher|Kitchen dishwasher|true|true"])
    }

    @Test func cycleRoundTrip() throws {
        let fixture = try StoreFixture()
        let store = try fixture.store()
        let id = try store.openCycle(applianceID: "dishwasher", program: nil, startedAt: t(0.25), source: .run)
        #expect(try store.openCycles().map(\.id) == [id])
        try store.updateCycle(id: id, program: "eco_50", firstPredictedFinish: t(3600), lastPredictedFinish: t(3600), maxProgress: 40, energyStart: 100.5)
        // Later values: the first prediction and energy start stay, progress only rises.
        try store.updateCycle(id: id, program: nil, firstPredictedFinish: t(4000), lastPredictedFinish: t(3900), maxProgress: 30, energyStart: 101)
        try store.updateCycle(id: id, program: nil, firstPredictedFinish: nil, lastPredictedFinish: nil, maxProgress: 95, energyStart: nil)
        try store.closeCycle(id: id, endedAt: t(3800.5), outcome: .finished, energyEnd: 101.5)
        let cycle = try #require(try store.cycle(id: id))
        #expect(cycle == CycleRecord(
            id: id, applianceID: "dishwasher", program: "eco_50", startedAt: t(0.25), endedAt: t(3800.5),
            outcome: .finished, firstPredictedFinish: t(3600), lastPredictedFinish: t(3900), maxProgress: 95,
            pushes: 0, energyStart: 100.5, energyKWh: 1.0, source: .run))
        #expect(try store.openCycles().isEmpty)
        #expect(try store.cycle(id: id + 1) == nil)
    }

    @Test(arguments: [
        (start: 10.0 as Double?, end: 12.5 as Double?, expected: 2.5 as Double?),
        (start: 10.0, end: 9.0, expected: nil),  // counter reset: unknown, not negative
        (start: nil, end: 12.0, expected: nil),
        (start: 10.0, end: nil, expected: nil),
        (start: 10.0, end: 10.0, expected: 0.0),
    ])
    func energyOfACycle(start: Double?, end: Double?, expected: Double?) throws {
        let fixture = try StoreFixture()
        let store = try fixture.store()
        let id = try store.openCycle(applianceID: "dishwasher", program: nil, startedAt: t(0), source: .demo)
        try store.updateCycle(id: id, program: nil, firstPredictedFinish: nil, lastPredictedFinish: nil, maxProgress: nil, energyStart: start)
        try store.closeCycle(id: id, endedAt: t(60), outcome: .aborted, energyEnd: end)
        #expect(try store.cycle(id: id)?.energyKWh == expected)
    }

    @Test func closingTwiceOrUpdatingAnUnknownCycleFails() throws {
        let fixture = try StoreFixture()
        let store = try fixture.store()
        let id = try store.openCycle(applianceID: "dishwasher", program: nil, startedAt: t(0), source: .run)
        try store.closeCycle(id: id, endedAt: t(60), outcome: .lost, energyEnd: nil)
        let error = #expect(throws: StoreError.self) {
            try store.closeCycle(id: id, endedAt: t(90), outcome: .finished, energyEnd: nil)
        }
        #expect(error?.kind == .missingRow)
        #expect(error?.description == "database \(fixture.path()) has no open cycle \(id) to close (expected an id from openCycle, not yet closed)")
        #expect(try store.cycle(id: id)?.outcome == .lost)
        #expect(throws: StoreError.self) {
            try store.updateCycle(id: 99, program: "x", firstPredictedFinish: nil, lastPredictedFinish: nil, maxProgress: nil, energyStart: nil)
        }
    }

    @Test func schemaRejectsUnknownValues() throws {
        let fixture = try StoreFixture()
        let store = try fixture.store()
        let id = try store.openCycle(applianceID: "dishwasher", program: nil, startedAt: t(0), source: .run)
        let outcome = #expect(throws: StoreError.self) {
            try store.transaction {
                try store.connection.execute("UPDATE cycles SET ended_at = 60, outcome = 'exploded' WHERE id = ?1", [id])
            }
        }
        #expect(outcome?.sqlite?.code == 275)  // SQLITE_CONSTRAINT_CHECK
        #expect(throws: StoreError.self) {
            try store.transaction {
                try store.connection.execute("INSERT INTO cycles (appliance_id, started_at, source) VALUES ('dishwasher', 0, 'guess')")
            }
        }
        #expect(throws: StoreError.self) {
            try store.transaction {
                try store.connection.execute(
                    "INSERT INTO pushes (appliance_id, at, kind, reason, body, status) VALUES ('dishwasher', 1, 'shout', '', '{}', 'pending')")
            }
        }
        let foreign = #expect(throws: StoreError.self) {
            _ = try store.openCycle(applianceID: "toaster", program: nil, startedAt: t(0), source: .run)
        }
        #expect(foreign?.sqlite?.code == 787)  // SQLITE_CONSTRAINT_FOREIGNKEY
    }

    @Test func trackerStateRoundTrip() throws {
        let fixture = try StoreFixture()
        let store = try fixture.store()
        #expect(try store.trackerState(applianceID: "dishwasher") == nil)
        try store.saveTrackerState(applianceID: "dishwasher", json: #"{"phase":"running"}"#, at: t(1))
        try store.saveTrackerState(applianceID: "dishwasher", json: #"{"phase":"idle"}"#, at: t(2))
        #expect(try store.trackerState(applianceID: "dishwasher") == #"{"phase":"idle"}"#)
        let reopened = try HistoryStore(path: fixture.path(), mode: .readOnly)
        #expect(try reopened.trackerState(applianceID: "dishwasher") == #"{"phase":"idle"}"#)
    }

    @Test func transactionCommitsOrRollsBack() throws {
        let fixture = try StoreFixture()
        let store = try fixture.store()
        struct Stop: Error {}
        #expect(throws: Stop.self) {
            try store.transaction {
                _ = try store.openCycle(applianceID: "dishwasher", program: nil, startedAt: t(0), source: .run)
                throw Stop()
            }
        }
        #expect(try store.openCycles().isEmpty)
        let id = try store.transaction {
            try store.transaction {
                try store.openCycle(applianceID: "dishwasher", program: "a", startedAt: t(0), source: .run)
            }
        }
        #expect(try store.openCycles().map(\.id) == [id])
    }

    @Test func readOnlyStoreCannotWrite() throws {
        let fixture = try StoreFixture()
        _ = try fixture.store()
        let reader = try HistoryStore(path: fixture.path(), mode: .readOnly)
        let error = #expect(throws: StoreError.self) {
            _ = try reader.openCycle(applianceID: "dishwasher", program: nil, startedAt: t(0), source: .run)
        }
        #expect(error?.sqlite?.primaryCode == 8)  // SQLITE_READONLY
    }

    @Test func readerSeesCommitsWhileAWriterWorks() throws {
        let fixture = try StoreFixture()
        let writer = try fixture.store()
        let reader = try HistoryStore(path: fixture.path(), mode: .readOnly)
        #expect(try writer.connection.firstRow("PRAGMA journal_mode") { $0.string(0) } == "wal")

        // The reader holds a snapshot open; in WAL the writer still commits (a
        // rollback journal would make the commit wait and fail with SQLITE_BUSY).
        try reader.connection.execute("BEGIN")
        #expect(try reader.cycles(matching: CycleFilter()).isEmpty)
        let id = try writer.transaction {
            let id = try writer.openCycle(applianceID: "dishwasher", program: "eco_50", startedAt: t(0), source: .run)
            #expect(try reader.cycles(matching: CycleFilter()).isEmpty)
            return id
        }
        #expect(try reader.cycles(matching: CycleFilter()).isEmpty)  // still its snapshot
        try reader.connection.execute("COMMIT")
        #expect(try reader.cycles(matching: CycleFilter()).map(\.id) == [id])
    }
}
