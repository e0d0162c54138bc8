import CycleCore
@testable import CycleService
import FoundationEssentials
import Testing

/// An appliance's `profile` and smart plug `power` keys, nested or flat (the add-on's form).
@Suite struct ConfigurationBrandTests {
    private func parse(_ json: String) throws(ConfigurationError) -> Configuration {
        try ConfigurationLoader.parse(Data(json.utf8), file: "test.json")
    }

    @Test func aProfileIsReadAndHomeConnectIsTheDefault() throws {
        let config = try parse(#"{"appliances": [{"id": "a", "profile": "miele"}, {"id": "b"}]}"#)
        #expect(config.appliance("a")?.settings.profile == .miele)
        #expect(config.appliance("a")?.hasProfile == true)
        #expect(config.appliance("b")?.settings.profile == .homeConnect)
        #expect(config.appliance("b")?.hasProfile == false)
    }

    @Test func aPowerEntityAloneMakesAPlug() throws {
        let config = try parse(#"{"appliances": [{"id": "washer", "power_entity": "sensor.washer_plug_power"}]}"#)
        let washer = try #require(config.appliance("washer"))
        #expect(washer.settings.profile == .plug)
        #expect(washer.settings.power == PowerSettings())
        let tracked = try ApplianceDirectory.resolve(config, discovered: nil)
        #expect(tracked.map(\.settings.profile) == [.plug])
    }

    @Test func powerSettingsNestedOrFlat() throws {
        let config = try parse(#"""
            {"appliances": [
              {"id": "dishwasher", "profile": "plug", "entities": {"power": "sensor.dw_power"},
               "power": {"on_watts": 8, "off_seconds": 1800}},
              {"id": "washer", "power_entity": "sensor.w_power", "power_off_watts": 1.5, "power_start_seconds": 30}
            ]}
            """#)
        let dishwasher = try #require(config.appliance("dishwasher")?.settings.power)
        #expect(dishwasher.onWatts == 8 && dishwasher.offSeconds == 1800 && dishwasher.offWatts == 2 && dishwasher.startSeconds == 60)
        let washer = try #require(config.appliance("washer")?.settings.power)
        #expect(washer.offWatts == 1.5 && washer.startSeconds == 30)
    }

    @Test(arguments: [
        (#"{"appliances": [{"id": "a", "profile": "bosch"}]}"#,
         "test.json: 'appliances[0].profile' expects one of home_connect, miele, lg_thinq, smartthings, whirlpool, electrolux, plug, found \"bosch\""),
        (#"{"appliances": [{"id": "a", "power": {"on_watt": 3}}]}"#, "unknown key"),
        (#"{"appliances": [{"id": "a", "power": {"off_seconds": 1800}, "power_off_seconds": 600}]}"#,
         "test.json: 'appliances[0].power_off_seconds' names the same setting as 'power.off_seconds'; give one of them"),
        (#"{"appliances": [{"id": "a", "power": {"on_watts": 1, "off_watts": 3}}]}"#,
         "test.json: 'appliances[0].power' expects off_watts (3) at most on_watts (1)"),
    ])
    func badBrandKeys(json: String, message: String) {
        do {
            _ = try parse(json)
            Issue.record("expected an error for \(json)")
        } catch {
            #expect(error.description.contains(message), "\(error.description)")
        }
    }

    @Test func aPlugWithoutItsPowerEntityIsRefused() {
        do {
            let config = try parse(#"{"discover": false, "appliances": [{"id": "a", "profile": "plug"}]}"#)
            _ = try ApplianceDirectory.resolve(config, discovered: nil)
            Issue.record("expected an error")
        } catch {
            #expect(error.description.contains("appliance 'a' has no power entity"), "\(error.description)")
        }
    }
}
