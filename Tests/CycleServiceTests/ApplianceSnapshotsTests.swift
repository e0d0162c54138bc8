import CycleCore
import Foundation
import Testing
@testable import CycleHistory
@testable import CycleService

/// The snapshot builder (issue 31, item 3): from the household and what it remembers to
/// the one value the local API serves and `sensor.cycletrack_<id>` is posted from. Pure:
/// rows of (what the washer reported, what the history held) and the snapshot expected.
@Suite struct ApplianceSnapshotsTests {
    static let start = Date(timeIntervalSince1970: 1_793_606_400)  // 2026-11-02T08:00:00Z

    static func line(_ minutes: Double, _ operation: String, kWh: Double? = nil) -> Observation {
        var raw: [Role: String] = [.operationState: operation, .program: "laundrycare_washer_program_cotton"]
        raw[.energy] = kWh.map { String($0) }
        return Observation(at: start.addingTimeInterval(minutes * 60), raw: raw, units: [.energy: "kWh"])
    }

    struct Row: Sendable, CustomTestStringConvertible {
        var name: String
        var lines: [Observation] = []
        var stored: CycleOutcome?
        var storedEnergy: Double = 0
        var state: String
        var running: Bool
        var lastOutcome: CycleOutcome?
        var energyTotal: Double
        var testDescription: String { name }
    }

    static let rows: [Row] = [
        Row(name: "nothing seen, nothing stored: idle", state: "idle", running: false, energyTotal: 0),
        Row(name: "the store's energy total", storedEnergy: 3.5, state: "idle", running: false, energyTotal: 3.5),
        Row(name: "a stored last cycle is an attribute, not the state", stored: .aborted, state: "idle", running: false,
            lastOutcome: .aborted, energyTotal: 0),
        Row(name: "running", lines: [line(0, "run", kWh: 10)], state: "running", running: true, energyTotal: 0),
        Row(name: "finished: the outcome is the state, its energy counts", lines: [line(0, "run", kWh: 10), line(60, "finished", kWh: 11.5)],
            storedEnergy: 1, state: "finished", running: false, lastOutcome: .finished, energyTotal: 2.5),
        Row(name: "the operation state moved on: idle again, the last cycle kept",
            lines: [line(0, "run", kWh: 10), line(60, "finished", kWh: 11.5), line(70, "ready", kWh: 11.5)],
            stored: .aborted, state: "idle", running: false, lastOutcome: .finished, energyTotal: 1.5),
    ]

    @Test(arguments: rows)
    func snapshot(_ row: Row) {
        let settings = ApplianceSettings(id: "washer", name: "Washer")
        var household = Household(dailyLimit: 400)
        household.follow(settings, history: FinishHistory())
        var snapshots = ApplianceSnapshots()
        snapshots.energyTotals = ["washer": row.storedEnergy]
        snapshots.deviceIDs = ["washer": "device-1"]
        if let stored = row.stored {
            snapshots.remember(CycleRecord(
                id: 1, applianceID: "washer", program: "laundrycare_washer_program_mix", startedAt: Self.start.addingTimeInterval(-7200),
                endedAt: Self.start.addingTimeInterval(-3600), outcome: stored, firstPredictedFinish: nil, lastPredictedFinish: nil,
                maxProgress: nil, pushes: 0, energyStart: nil, energyKWh: nil, source: .run))
        }
        for line in row.lines {
            snapshots.take(household.handle(.observed("washer", line)))
        }
        let snapshot = snapshots.snapshot("washer", household: household)
        #expect(snapshot.state == row.state)
        #expect(snapshot.running == row.running)
        #expect(snapshot.lastCycle?.outcome == row.lastOutcome)
        #expect(abs(snapshot.energyTotal - row.energyTotal) < 1e-9, "\(snapshot.energyTotal)")
        #expect(snapshot.deviceID == "device-1")
        #expect(snapshot.name == "Washer")
        #expect(snapshots.all(household) == [snapshot])
    }

    @Test func anApplianceNotFollowedStillHasASnapshot() {
        let snapshot = ApplianceSnapshots().snapshot("fridge", household: Household(dailyLimit: 400))
        #expect(snapshot.id == "fridge" && snapshot.name == "fridge" && snapshot.state == "idle" && !snapshot.running)
    }
}
