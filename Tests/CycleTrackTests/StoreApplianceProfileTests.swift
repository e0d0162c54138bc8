import CycleCore
import FoundationEssentials
import Testing
@testable import CycleHistory

/// The brand profile kept with each appliance (schema version 4), for `replay --cycle`.
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
}
