import CycleService
import HomeAssistantAPI
import Testing

/// What HA renders for the discovery template on a home with one device of each other
/// brand, shaped like each integration's entities (options, units and device classes as
/// their sources declare them; ids localised where it matters).
private let brandDiscovery = """
[
 {"id": "miele0000000000000000000000000001", "domain": "miele", "name": "Waschmaschine", "manufacturer": "Miele", "model": "WWR860",
  "entities": [
   {"id": "sensor.waschmaschine_status", "state": "in_use", "options": ["autocleaning", "failure", "idle", "in_use", "not_connected", "off", "on", "pause", "program_ended", "program_interrupted", "programmed", "rinse_hold", "service", "supercooling", "supercooling_superfreezing", "superfreezing", "superheating", "waiting_to_start"], "unit": null, "dc": "enum"},
   {"id": "sensor.waschmaschine_programm", "state": "cottons", "options": ["no_program", "cottons", "minimum_iron", "delicates"], "unit": null, "dc": "enum"},
   {"id": "sensor.waschmaschine_programmphase", "state": "main_wash", "options": ["not_running", "pre_wash", "soak", "main_wash", "rinse", "rinse_hold", "drain", "spin", "anti_crease", "finished"], "unit": null, "dc": "enum"},
   {"id": "sensor.waschmaschine_restzeit", "state": "84", "options": null, "unit": "min", "dc": "duration"},
   {"id": "sensor.waschmaschine_verstrichene_zeit", "state": "34", "options": null, "unit": "min", "dc": "duration"},
   {"id": "sensor.waschmaschine_startzeit", "state": "0", "options": null, "unit": "min", "dc": "duration"},
   {"id": "sensor.waschmaschine_energieverbrauch", "state": "0.4", "options": null, "unit": "kWh", "dc": "energy"},
   {"id": "sensor.waschmaschine_schleuderdrehzahl", "state": "1400", "options": null, "unit": "rpm", "dc": null}
  ]},
 {"id": "lg000000000000000000000000000002", "domain": "lg_thinq", "name": "Dryer", "manufacturer": "LGE", "model": "RH90V9",
  "entities": [
   {"id": "sensor.dryer_current_status", "state": "drying", "options": ["power_off", "initial", "detecting", "running", "drying", "cooling", "end", "pause", "reserved", "error"], "unit": null, "dc": "enum"},
   {"id": "sensor.dryer_total_time", "state": "95", "options": null, "unit": "min", "dc": "duration"},
   {"id": "sensor.dryer_delayed_start", "state": "unknown", "options": null, "unit": null, "dc": "timestamp"},
   {"id": "sensor.dryer_delayed_end", "state": "unknown", "options": null, "unit": null, "dc": "timestamp"},
   {"id": "sensor.dryer_remaining_time", "state": "2026-11-29T13:05:00+00:00", "options": null, "unit": null, "dc": "timestamp"},
   {"id": "sensor.dryer_running_time", "state": "2026-11-29T11:30:00+00:00", "options": null, "unit": null, "dc": "timestamp"}
  ]},
 {"id": "st000000000000000000000000000003", "domain": "smartthings", "name": "Washer", "manufacturer": "Samsung Electronics", "model": "WW90T",
  "entities": [
   {"id": "sensor.washer_machine_state", "state": "run", "options": ["pause", "run", "stop"], "unit": null, "dc": "enum"},
   {"id": "sensor.washer_job_state", "state": "rinse", "options": ["air_wash", "ai_rinse", "ai_spin", "ai_wash", "cooling", "delay_wash", "drying", "finish", "none", "pre_wash", "rinse", "spin", "wash", "weight_sensing", "wrinkle_prevent"], "unit": null, "dc": "enum"},
   {"id": "sensor.washer_completion_time", "state": "2026-11-29T13:05:00+00:00", "options": null, "unit": null, "dc": "timestamp"},
   {"id": "sensor.washer_energy", "state": "12.5", "options": null, "unit": "kWh", "dc": "energy"},
   {"id": "sensor.washer_power", "state": "410", "options": null, "unit": "W", "dc": "power"}
  ]},
 {"id": "wp000000000000000000000000000004", "domain": "whirlpool", "name": "Laveuse", "manufacturer": "Whirlpool", "model": "WTW8127LW",
  "entities": [
   {"id": "sensor.laveuse_etat", "state": "cycle_washing", "options": ["standby", "setting", "delay_countdown", "delay_paused", "smart_delay", "smart_grid_pause", "pause", "running_maincycle", "running_postcycle", "exception", "complete", "power_failure", "service_diagnostic_mode", "factory_diagnostic_mode", "life_test", "customer_focus_mode", "demo_mode", "hard_stop_or_error", "system_initialize", "cycle_filling", "cycle_rinsing", "cycle_sensing", "cycle_soaking", "cycle_spinning", "cycle_washing"], "unit": null, "dc": "enum"},
   {"id": "sensor.laveuse_heure_de_fin", "state": "2026-11-29T13:05:00+00:00", "options": null, "unit": null, "dc": "timestamp"},
   {"id": "sensor.laveuse_reservoir", "state": "50", "options": ["empty", "25", "50", "100", "active"], "unit": null, "dc": "enum"}
  ]},
 {"id": "ex000000000000000000000000000005", "domain": "electrolux_status", "name": "AEG Lavamat", "manufacturer": "AEG", "model": "L9FEC",
  "entities": [
   {"id": "sensor.lavamat_connectivity_state", "state": "connected", "options": null, "unit": null, "dc": "enum"},
   {"id": "sensor.lavamat_appliance_state", "state": "RUNNING", "options": null, "unit": null, "dc": null},
   {"id": "sensor.lavamat_cycle_phase", "state": "RINSE", "options": null, "unit": null, "dc": null},
   {"id": "sensor.lavamat_time_to_end", "state": "2460", "options": null, "unit": "s", "dc": "duration"},
   {"id": "sensor.lavamat_running_time", "state": "3000", "options": null, "unit": "s", "dc": "duration"}
  ]},
 {"id": "miele0000000000000000000000000006", "domain": "miele", "name": "Fridge", "manufacturer": "Miele", "model": "K7000",
  "entities": [
   {"id": "sensor.fridge_temperature", "state": "4", "options": null, "unit": "°C", "dc": "temperature"}
  ]}
]
"""

/// Discovery of the other brands' devices: the profile from the integration, the roles
/// from options, units and device classes.
@Suite struct DiscoveryBrandTests {
    let result: DiscoveryResult

    init() throws {
        // The Miele washer and the Electrolux washer as the entity registry declares them
        // (miele/sensor.py translation keys; electrolux_status/entity.py unique ids).
        func miele(_ key: String) -> DiscoveryRecord.RegistryEntry {
            DiscoveryRecord.RegistryEntry(platform: "miele", translationKey: key, uniqueID: "000123-\(key)")
        }
        func electrolux(_ key: String) -> DiscoveryRecord.RegistryEntry {
            DiscoveryRecord.RegistryEntry(platform: "electrolux_status", uniqueID: "01ENTRY-\(key)-root-914550001_00")
        }
        let registry: [String: DiscoveryRecord.RegistryEntry] = [
            "sensor.waschmaschine_status": miele("status"), "sensor.waschmaschine_programm": miele("program_id"),
            "sensor.waschmaschine_programmphase": miele("program_phase"),
            "sensor.waschmaschine_restzeit": miele("remaining_time"),
            "sensor.waschmaschine_verstrichene_zeit": miele("elapsed_time"),
            "sensor.waschmaschine_startzeit": miele("start_time"),
            "sensor.waschmaschine_energieverbrauch": miele("energy_consumption"),
            "sensor.waschmaschine_schleuderdrehzahl": miele("spin_speed"),
            "sensor.lavamat_connectivity_state": electrolux("connectivityState"),
            "sensor.lavamat_appliance_state": electrolux("applianceState"),
            "sensor.lavamat_cycle_phase": electrolux("cyclePhase"),
            "sensor.lavamat_time_to_end": electrolux("timeToEnd"),
            "sensor.lavamat_running_time": electrolux("runningTime"),
        ]
        let records = try ApplianceRoleRecognizer.records(discoveryJSON: brandDiscovery)
        result = ApplianceRoleRecognizer.recognize(ApplianceRoleRecognizer.merging(registry, into: records))
    }

    private func device(_ name: String) throws -> DiscoveredDevice {
        try #require(result.devices.first { $0.name == name })
    }

    @Test func mieleRolesByOptionsAndDurations() throws {
        let washer = try device("Waschmaschine")
        #expect(washer.profile == .miele)
        #expect(washer.entities == [
            .operationState: "sensor.waschmaschine_status", .program: "sensor.waschmaschine_programm",
            .phase: "sensor.waschmaschine_programmphase", .remainingTime: "sensor.waschmaschine_restzeit",
            .elapsedTime: "sensor.waschmaschine_verstrichene_zeit", .energy: "sensor.waschmaschine_energieverbrauch",
            .startIn: "sensor.waschmaschine_startzeit",
        ])
        #expect(washer.units[.remainingTime] == "min")
    }

    @Test func lgThinQTakesTheTotalTime() throws {
        let dryer = try device("Dryer")
        #expect(dryer.profile == .lgThinQ)
        // homeassistant/components/lg_thinq/sensor.py: TOTAL is a duration in minutes, REMAIN and
        // RUNNING are timestamps, like the delayed start and end.
        #expect(dryer.entities == [.operationState: "sensor.dryer_current_status", .finishTime: "sensor.dryer_remaining_time",
                                   .totalTime: "sensor.dryer_total_time"])
    }

    @Test func smartThingsMachineStateJobStateAndCompletionTime() throws {
        let washer = try device("Washer")
        #expect(washer.profile == .smartThings)
        #expect(washer.entities == [
            .operationState: "sensor.washer_machine_state", .phase: "sensor.washer_job_state",
            .finishTime: "sensor.washer_completion_time", .energy: "sensor.washer_energy", .power: "sensor.washer_power",
        ])
    }

    @Test func whirlpoolStateAndEndTime() throws {
        let washer = try device("Laveuse")
        #expect(washer.profile == .whirlpool)
        #expect(washer.entities == [.operationState: "sensor.laveuse_etat", .finishTime: "sensor.laveuse_heure_de_fin"])
    }

    @Test func electroluxApplianceStateByItsValueAndSecondsToEnd() throws {
        let washer = try device("AEG Lavamat")
        #expect(washer.profile == .electrolux)
        #expect(washer.entities[.operationState] == "sensor.lavamat_appliance_state")
        #expect(washer.entities[.remainingTime] == "sensor.lavamat_time_to_end")
        #expect(washer.entities[.elapsedTime] == "sensor.lavamat_running_time")
        #expect(washer.units[.remainingTime] == "s")
    }

    @Test func aDeviceWithoutTheBrandsStateIsSkippedWithTheReason() throws {
        let skipped = try #require(result.skipped.first { $0.name == "Fridge" })
        // A Miele device named by its type (miele/entity.py), with a temperature only.
        #expect(skipped.reason == "fridge: runs no cycles (its \"in use\" or \"running\" is not a cycle)")
        #expect(skipped.kind == .fridge)
        #expect(result.devices.count == 5)
    }

    @Test func discoveredDevicesKeepTheirProfileWhenFollowed() throws {
        var config = Configuration(source: "test.json")
        config.discover = true
        let tracked = try ApplianceDirectory.resolve(config, discovered: result.devices)
        #expect(tracked.map(\.settings.profile) == [.miele, .lgThinQ, .smartThings, .whirlpool, .electrolux])
    }
}
