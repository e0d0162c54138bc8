import CycleCore
import FoundationEssentials
import Testing
@testable import CycleService

/// The smart plug keys for rests and bursts (docs/PLUGS.md), nested or flat.
@Suite struct ConfigurationPowerRestTests {
    private func parse(_ json: String) throws(ConfigurationError) -> Configuration {
        try ConfigurationLoader.parse(Data(json.utf8), file: "test.json")
    }

    @Test func restAndBurstKeysAreRead() throws {
        let config = try parse(#"""
            {"appliances": [
              {"id": "dryer", "power_entity": "sensor.d", "power": {"zero_watts": 0.2, "burst_seconds": 45}},
              {"id": "washer", "power_entity": "sensor.w", "power_quiet_seconds": 7200, "power_burst_window_seconds": 600}
            ]}
            """#)
        let dryer = try #require(config.appliance("dryer")?.settings.power)
        #expect(dryer.zeroWatts == 0.2 && dryer.burstSeconds == 45 && dryer.quietSeconds == 3600)
        let washer = try #require(config.appliance("washer")?.settings.power)
        #expect(washer.quietSeconds == 7200 && washer.burstWindowSeconds == 600 && washer.zeroWatts == 0.5)
    }

    @Test func zeroWattsMustNotExceedOffWatts() {
        #expect(throws: ConfigurationError.self) {
            try parse(#"{"appliances": [{"id": "a", "power_entity": "sensor.a", "power": {"zero_watts": 3}}]}"#)
        }
        do {
            _ = try parse(#"{"appliances": [{"id": "a", "power_entity": "sensor.a", "power": {"zero_watts": 3}}]}"#)
        } catch {
            #expect(error.description.contains("'appliances[0].power' expects zero_watts (3) at most off_watts (2)"),
                    "\(error.description)")
        }
    }
}
