import CycleCore
import HomeAssistantAPI
import CycleService
import Testing

/// Discovery for issue 21: Electrolux's states as its sensor shows them, doors that are
/// binary sensors, and names from the HA device rather than from an id.
@Suite struct DiscoveryOnTimeTests {
    /// An AEG washer as the HACS `electrolux_status` integration makes it (sensor.py formats
    /// the strings, `timeToEnd` shows in minutes, `doorState` is a door binary sensor), and
    /// an LG washer whose device has no name.
    static let answer = """
        [
         {"id": "aeg00000000000000000000000000001", "domain": "electrolux_status", "name": "AEG Waschmaschine",
          "manufacturer": "AEG", "model": "L8FEC68SA", "entities": [
           {"id": "sensor.aeg_waschmaschine_appliance_state", "state": "Ready To Start", "options": null, "unit": null, "dc": null},
           {"id": "sensor.aeg_waschmaschine_time_to_end", "state": "150.0", "options": null, "unit": "min", "dc": "duration"},
           {"id": "binary_sensor.aeg_waschmaschine_door", "state": "off", "options": null, "unit": null, "dc": "door"}
          ]},
         {"id": "lg000000000000000000000000000002", "domain": "lg_thinq", "name": null, "manufacturer": "LG", "model": "WM3600HWA",
          "entities": [
           {"id": "sensor.washer_current_status", "state": "power_off", "options": ["power_off", "initial", "running", "end", "pause"], "unit": null, "dc": "enum"},
           {"id": "sensor.washer_total_time", "state": "unknown", "options": null, "unit": "min", "dc": "duration"}
          ]}
        ]
        """

    @Test func electroluxIsFoundByItsFormattedStateWithItsDoorAndName() throws {
        let result = try ApplianceRoleRecognizer.recognize(discoveryJSON: Self.answer)
        let aeg = try #require(result.devices.first { $0.profile == .electrolux }, "\(result.skipped)")
        #expect(aeg.name == "AEG Waschmaschine")
        #expect(aeg.entities[.operationState] == "sensor.aeg_waschmaschine_appliance_state")
        #expect(aeg.entities[.remainingTime] == "sensor.aeg_waschmaschine_time_to_end")
        #expect(aeg.units[.remainingTime] == "min")
        #expect(aeg.entities[.door] == "binary_sensor.aeg_waschmaschine_door")
    }

    @Test func aDeviceWithoutANameIsCalledByItsMakerAndModel() throws {
        let result = try ApplianceRoleRecognizer.recognize(discoveryJSON: Self.answer)
        let lg = try #require(result.devices.first { $0.profile == .lgThinQ })
        #expect(lg.name == "LG WM3600HWA")
        let config = Configuration(source: "test")
        let tracked = try ApplianceDirectory.resolve(config, discovered: result.devices)
        #expect(tracked.map(\.settings.name).sorted() == ["AEG Waschmaschine", "LG WM3600HWA"])
    }
}
