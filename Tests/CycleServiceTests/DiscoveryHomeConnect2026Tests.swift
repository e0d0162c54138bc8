import CycleCore
import HomeAssistantAPI
import Testing

/// Discovery on the entities Home Assistant 2026.11's `home_connect` gives a dishwasher
/// (read in homeassistant/components/home_connect/sensor.py, select.py, binary_sensor.py
/// of 2026.11.0): the door is an enum sensor `closed locked open` (the door binary sensor
/// went in 2025.5), the active program select comes before the selected one, remote
/// control binary sensors, and the event sensors (enum `confirmed off present`), which
/// are disabled by default and so appear only once a user enables them.
@Suite struct DiscoveryHomeConnect2026Tests {
    static let operationOptions = ["inactive", "ready", "delayedstart", "run", "pause", "actionrequired", "finished", "error", "aborting"]
    static let programs = ["dishcare_dishwasher_program_auto_2", "dishcare_dishwasher_program_eco_50"]
    static let events = ["confirmed", "off", "present"]

    static func dishwasher(eventsEnabled: Bool, idle: Bool) -> DiscoveryRecord {
        var entities: [DiscoveryRecord.Entity] = [
            .init(id: "sensor.dishwasher_operation_state", state: idle ? "ready" : "run", options: operationOptions, deviceClass: "enum"),
            .init(id: "sensor.dishwasher_door", state: "closed", options: ["closed", "locked", "open"], deviceClass: "enum"),
            .init(id: "sensor.dishwasher_program_progress", state: idle ? "unavailable" : "40", unit: "%"),
            .init(id: "sensor.dishwasher_program_finish_time", state: idle ? "unavailable" : "2026-11-29T13:05:12+00:00",
                  deviceClass: "timestamp"),
            .init(id: "select.dishwasher_active_program", state: idle ? "unknown" : programs[1], options: programs),
            .init(id: "select.dishwasher_selected_program", state: programs[0], options: programs),
            .init(id: "binary_sensor.dishwasher_remote_control", state: "on"),
            .init(id: "binary_sensor.dishwasher_remote_start", state: "off"),
            .init(id: "switch.dishwasher_power", state: "on"),
        ]
        if eventsEnabled {
            for event in ["program_aborted", "program_finished", "salt_lack", "rinse_aid_lack"] {
                entities.append(.init(id: "sensor.dishwasher_\(event)", state: "off", options: events, deviceClass: "enum"))
            }
        }
        return DiscoveryRecord(id: "0a1b2c3d4e5f60718293a4b5c6d7e8f9", domain: "home_connect", name: "Dishwasher",
                               manufacturer: "Bosch", model: "SMV6ZCX42E", entities: entities)
    }

    @Test(arguments: [(false, false), (true, false), (false, true), (true, true)])
    func everyRoleIsFoundWhateverTheEventSensorsAndTheCycle(eventsEnabled: Bool, idle: Bool) throws {
        let result = ApplianceRoleRecognizer.recognize([Self.dishwasher(eventsEnabled: eventsEnabled, idle: idle)])
        #expect(result.skipped.isEmpty)
        let device = try #require(result.devices.first)
        #expect(device.entities == [
            .operationState: "sensor.dishwasher_operation_state",
            .door: "sensor.dishwasher_door",
            .progress: "sensor.dishwasher_program_progress",
            .finishTime: "sensor.dishwasher_program_finish_time",
            .program: "select.dishwasher_active_program",
        ])
        #expect(device.units == [.progress: "%"])
    }
}
