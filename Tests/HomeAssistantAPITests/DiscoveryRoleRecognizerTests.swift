import HomeAssistantAPI
import Testing

private let operationOptions = #"["inactive", "ready", "delayedstart", "run", "pause", "actionrequired", "finished", "error", "aborting"]"#

/// What HA renders for the discovery template on a home with four Home Connect devices.
private let cannedDiscovery = """
[
 {"id": "a1b2c3d4e5f60718293a4b5c6d7e8f90", "name": "Dishwasher", "manufacturer": "Bosch", "model": "SMV6ZCX42E",
  "entities": [
   {"id": "sensor.dishwasher_program_finish_time", "state": "2026-11-29T13:05:12+00:00", "options": null, "unit": null, "dc": "timestamp"},
   {"id": "sensor.dishwasher_program_progress", "state": "42", "options": null, "unit": "%", "dc": null},
   {"id": "sensor.dishwasher_operation_state", "state": "run", "options": \(operationOptions), "unit": null, "dc": "enum"},
   {"id": "select.dishwasher_selected_program", "state": "dishcare_dishwasher_program_auto_2", "options": ["dishcare_dishwasher_program_auto_2", "dishcare_dishwasher_program_eco_50"], "unit": null, "dc": null},
   {"id": "select.dishwasher_active_program", "state": "dishcare_dishwasher_program_eco_50", "options": ["dishcare_dishwasher_program_auto_2", "dishcare_dishwasher_program_eco_50"], "unit": null, "dc": null},
   {"id": "switch.dishwasher_power", "state": "on", "options": null, "unit": null, "dc": null}
  ]},
 {"id": "00112233445566778899aabbccddeeff", "name": "Oven", "manufacturer": "Siemens", "model": "HB978GUB1",
  "entities": [
   {"id": "sensor.oven_operation_state", "state": "run", "options": \(operationOptions), "unit": null, "dc": "enum"},
   {"id": "sensor.oven_program_finish_time", "state": "2026-11-29T18:40:00.250000+00:00", "options": null, "unit": null, "dc": "timestamp"},
   {"id": "sensor.oven_start_time", "state": "2026-11-29T17:10:00+00:00", "options": null, "unit": null, "dc": "timestamp"},
   {"id": "sensor.oven_current_oven_cavity_temperature", "state": "180", "options": null, "unit": "°C", "dc": "temperature"},
   {"id": "select.oven_active_program", "state": "cooking_oven_program_heating_mode_hot_air", "options": ["cooking_oven_program_heating_mode_hot_air", "cooking_oven_program_heating_mode_pizza_setting"], "unit": null, "dc": null}
  ]},
 {"id": "ffeeddccbbaa99887766554433221100", "name": "Washer", "manufacturer": "Bosch", "model": "WGB256090",
  "entities": [
   {"id": "sensor.washer_humidity", "state": "40", "options": null, "unit": "%", "dc": "humidity"},
   {"id": "sensor.washer_battery", "state": "90", "options": null, "unit": "%", "dc": "battery"},
   {"id": "sensor.washer_program_progress", "state": "unavailable", "options": null, "unit": "%", "dc": null},
   {"id": "sensor.washer_door", "state": "closed", "options": ["open", "closed", "locked"], "unit": null, "dc": "enum"},
   {"id": "sensor.washer_operation_state", "state": "ready", "options": \(operationOptions), "unit": null, "dc": "enum"},
   {"id": "sensor.washer_energy", "state": "123.4", "options": null, "unit": "kWh", "dc": "energy"},
   {"id": "sensor.washer_power", "state": "2000", "options": null, "unit": "W", "dc": "power"}
  ]},
 {"id": "99999999999999999999999999999999", "name": "Coffee machine", "manufacturer": "Siemens", "model": "TI9",
  "entities": [
   {"id": "sensor.coffee_machine_counter", "state": "812", "options": null, "unit": null, "dc": null},
   {"id": "sensor.coffee_machine_state", "state": "on", "options": ["on", "off", "run"], "unit": null, "dc": "enum"}
  ]}
]
"""

@Suite struct DiscoveryRoleRecognizerTests {
    let result: DiscoveryResult

    init() throws {
        result = try ApplianceRoleRecognizer.recognize(discoveryJSON: cannedDiscovery)
    }

    private func device(_ name: String) throws -> DiscoveredDevice {
        try #require(result.devices.first { $0.name == name })
    }

    @Test func dishwasherRoles() throws {
        let dishwasher = try device("Dishwasher")
        #expect(dishwasher.entities == [
            .operationState: "sensor.dishwasher_operation_state",
            .progress: "sensor.dishwasher_program_progress",
            .finishTime: "sensor.dishwasher_program_finish_time",
            .program: "select.dishwasher_active_program",
        ])
        #expect(dishwasher.units == [.progress: "%"])
        #expect(dishwasher.applianceID == "a1b2c3d4e5f60718293a4b5c6d7e8f90")
        #expect(dishwasher.manufacturer == "Bosch")
        #expect(dishwasher.model == "SMV6ZCX42E")
    }

    @Test func ovenRolesPickTheLaterTimestampAsFinish() throws {
        let oven = try device("Oven")
        #expect(oven.entities == [
            .operationState: "sensor.oven_operation_state",
            .finishTime: "sensor.oven_program_finish_time",
            .temperature: "sensor.oven_current_oven_cavity_temperature",
            .program: "select.oven_active_program",
        ])
        #expect(oven.units == [.temperature: "°C"])
    }

    @Test func washerRolesSkipBatteryAndHumidity() throws {
        let washer = try device("Washer")
        #expect(washer.entities == [
            .operationState: "sensor.washer_operation_state",
            .progress: "sensor.washer_program_progress",
            .door: "sensor.washer_door",
            .energy: "sensor.washer_energy",
            .power: "sensor.washer_power",
        ])
        #expect(washer.units == [.progress: "%", .energy: "kWh", .power: "W"])
    }

    @Test func deviceWithoutOperationStateIsSkippedWithTheReason() throws {
        #expect(result.devices.map(\.name) == ["Dishwasher", "Oven", "Washer"])
        let skipped = try #require(result.skipped.first)
        #expect(result.skipped.count == 1)
        #expect(skipped.deviceID == "99999999999999999999999999999999")
        #expect(skipped.name == "Coffee machine")
        #expect(skipped.reason.contains("operation state"))
    }

    @Test func localisedEntityIDsAreRecognisedByAttributes() throws {
        let programs = #"["dishcare_dishwasher_program_eco_50", "dishcare_dishwasher_program_intensiv_70"]"#
        let json = """
            [{"id": "abcdefabcdefabcdefabcdefabcdef12", "name": "Geschirrspüler", "manufacturer": null, "model": null,
              "entities": [
               {"id": "sensor.geschirrspuler_betriebszustand", "state": "inactive", "options": \(operationOptions), "unit": null, "dc": "enum"},
               {"id": "sensor.geschirrspuler_programmfortschritt", "state": "unavailable", "options": null, "unit": "%", "dc": null},
               {"id": "sensor.geschirrspuler_programmende", "state": "unavailable", "options": null, "unit": null, "dc": "timestamp"},
               {"id": "select.geschirrspuler_aktives_programm", "state": "unknown", "options": \(programs), "unit": null, "dc": null},
               {"id": "select.geschirrspuler_ausgewahltes_programm", "state": "unknown", "options": \(programs), "unit": null, "dc": null},
               {"id": "sensor.geschirrspuler_tur", "state": "geschlossen", "options": ["open", "closed"], "unit": null, "dc": "enum"}
              ]}]
            """
        let found = try ApplianceRoleRecognizer.recognize(discoveryJSON: json)
        #expect(found.devices.first?.entities == [
            .operationState: "sensor.geschirrspuler_betriebszustand",
            .progress: "sensor.geschirrspuler_programmfortschritt",
            .finishTime: "sensor.geschirrspuler_programmende",
            .program: "select.geschirrspuler_aktives_programm",
            .door: "sensor.geschirrspuler_tur",
        ])
        #expect(found.devices.first?.name == "Geschirrspüler")
    }

    @Test(arguments: [
        (#"["run", "pause", "finished"]"#, false),
        (#"["run", "pause", "finished", "inactive", "ready", "error"]"#, false),
        (#"["run", "pause", "finished", "inactive", "ready", "error", "aborting"]"#, true),
        (#"["inactive", "ready", "delayedstart", "run", "actionrequired", "finished", "error", "aborting"]"#, false),
    ])
    func operationStateNeedsRunPauseFinishedAndMostOthers(options: String, recognised: Bool) throws {
        let json = """
            [{"id": "d", "name": "X", "manufacturer": null, "model": null, "entities": [
              {"id": "sensor.x", "state": "run", "options": \(options), "unit": null, "dc": "enum"},
              {"id": "sensor.y", "state": "12", "options": null, "unit": "%", "dc": null}]}]
            """
        let found = try ApplianceRoleRecognizer.recognize(discoveryJSON: json)
        #expect((found.devices.first?.entities[.operationState] != nil) == recognised)
    }

    @Test func aSelectOfOtherThingsIsNotTheProgram() {
        let roles = ApplianceRoleRecognizer.roles(of: [
            .init(id: "select.washer_spin_speed", options: ["laundry_care_washer_enum_type_spin_speed_off", "rpm_400", "rpm_800"]),
            .init(id: "select.washer_temperature", options: ["cold", "gc_20", "gc_40"]),
        ])
        #expect(roles[.program] == nil)
    }

    @Test(arguments: [
        ("0123456789abcdef0123456789abcdef", "0123456789abcdef0123456789abcdef" as String?),
        ("dev:ice/1", "dev_ice_1"),
        (String(repeating: "a", count: 60), String(repeating: "a", count: 50)),
        ("", nil),
    ])
    func applianceIDFromDeviceID(deviceID: String, expected: String?) {
        #expect(ApplianceRoleRecognizer.applianceID(forDeviceID: deviceID) == expected)
    }

    @Test(arguments: ["{}", "[{\"name\": \"x\"}]", "not json", "[{\"id\": \"d\", \"entities\": [{\"state\": \"run\"}]}]"])
    func malformedDiscoveryJSONIsAFormatError(json: String) {
        #expect(throws: ApplianceRoleRecognizer.FormatError.self) {
            try ApplianceRoleRecognizer.recognize(discoveryJSON: json)
        }
    }
}
