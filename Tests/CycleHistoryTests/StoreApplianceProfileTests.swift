import CycleCore
@testable import CycleHistory
import FoundationEssentials
import TestSupport
import Testing

/// The brand profile kept with each appliance and the estimated-progress flag of a cycle
/// (schema version 4).
@Suite struct StoreApplianceProfileTests {
    @Test func theProfileIsKeptAndANilOneLeavesItAsItWas() throws {
        let fixture = try StoreFixture()
        let store = try fixture.store(appliance: "washer")
        #expect(try store.applianceProfile(id: "washer") == nil)
        try store.upsertAppliance(id: "washer", name: "Washer", at: t(60), profile: BrandProfile.miele.rawValue)
        #expect(try store.applianceProfile(id: "washer") == "miele")
        try store.upsertAppliance(id: "washer", name: "Washer", at: t(120))
        #expect(try store.applianceProfile(id: "washer") == "miele")
        #expect(try store.applianceProfile(id: "nobody") == nil)
    }

    @Test func anEstimatedProgressIsFlaggedForGood() throws {
        let fixture = try StoreFixture()
        let store = try fixture.store(appliance: "washer")
        let id = try store.openCycle(applianceID: "washer", program: nil, startedAt: t(0), source: .run)
        func flag() throws -> Int64? {
            try store.connection.rows("SELECT progress_estimated FROM cycles WHERE id = ?1", [id]) { $0.optionalInt64(0) }.first ?? nil
        }
        try store.updateCycle(id: id, program: nil, firstPredictedFinish: nil, lastPredictedFinish: nil, maxProgress: 5, energyStart: nil)
        #expect(try flag() == nil)
        try store.updateCycle(id: id, program: nil, firstPredictedFinish: nil, lastPredictedFinish: nil, maxProgress: 10,
                              energyStart: nil, progressEstimated: true)
        try store.updateCycle(id: id, program: nil, firstPredictedFinish: nil, lastPredictedFinish: nil, maxProgress: 20, energyStart: nil)
        #expect(try flag() == 1)
    }
}
