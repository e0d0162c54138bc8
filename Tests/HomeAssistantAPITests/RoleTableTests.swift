import CycleCore
import HomeAssistantAPI
import Testing

/// Roles by what each integration declares (``RoleTable``), on devices written from facts
/// read in the integrations' sources (each test names the file), in every order.
@Suite struct RoleTableTests {
    /// An entity as discovery sees it after the registry read.
    static func entity(_ id: String, _ state: String, platform: String, key: String?, uniqueID: String,
                       unit: String? = nil, deviceClass: String? = nil, options: [String]? = nil) -> DiscoveryRecord.Entity {
        DiscoveryRecord.Entity(id: id, state: state, options: options, unit: unit, deviceClass: deviceClass,
                               registry: .init(platform: platform, translationKey: key, uniqueID: uniqueID,
                                               originalDeviceClass: deviceClass))
    }

    static let mieleStatus = ["off", "on", "programmed", "waiting_to_start", "in_use", "pause", "program_ended",
                              "failure", "program_interrupted", "idle", "rinse_hold", "service", "superfreezing",
                              "supercooling", "superheating", "supercooling_superfreezing", "autocleaning", "not_connected"]

    static func miele(_ key: String, _ state: String, unit: String? = nil, deviceClass: String? = nil,
                      options: [String]? = nil, uniqueKey: String? = nil, domain: String = "sensor") -> DiscoveryRecord.Entity {
        entity("\(domain).w_\(key)", state, platform: "miele", key: uniqueKey == nil ? key : nil,
               uniqueID: "000177-\(uniqueKey ?? key)", unit: unit, deviceClass: deviceClass, options: options)
    }

    /// The same device's entities in the given order, reversed and in three seeded shuffles.
    static func orders(_ entities: [DiscoveryRecord.Entity]) -> [[DiscoveryRecord.Entity]] {
        var generator = SeededGenerator(seed: 27)
        return [entities, entities.reversed()] + (0..<3).map { _ in entities.shuffled(using: &generator) }
    }

    static func assess(_ entities: [DiscoveryRecord.Entity], domain: String, model: String? = nil) -> DiscoveryResult {
        ApplianceRoleRecognizer.recognize([DiscoveryRecord(id: "dev1", domain: domain, name: "Device",
                                                           model: model, entities: entities)])
    }

    // miele/sensor.py: the status sensor of a fridge or freezer has `in_use` like a washer's.
    @Test func aMieleFridgeInUseIsLeftOut() {
        let fridge = [
            Self.miele("status", "in_use", deviceClass: "enum", options: Self.mieleStatus),
            Self.miele("temperature", "4", unit: "°C", deviceClass: "temperature", uniqueKey: "state_temperature_1"),
        ]
        for order in Self.orders(fridge) {
            for model in ["Fridge", "Freezer", nil] {
                let result = Self.assess(order, domain: "miele", model: model)
                #expect(result.devices.isEmpty)
                #expect(result.skipped.first?.reason.contains(model == nil ? "no evidence of cycles" : "runs no cycles") == true)
            }
        }
    }

    // miele/sensor.py: `energy_forecast` is a percentage of the expected energy, not progress;
    // `start_time` is the delay before a programmed start (start_in) and `start` a timestamp.
    @Test func aMieleWasherTakesItsOwnKeysInAnyOrder() {
        let washer = [
            Self.miele("status", "in_use", deviceClass: "enum", options: Self.mieleStatus),
            Self.miele("program_id", "cottons", deviceClass: "enum", options: ["no_program", "cottons"]),
            Self.miele("energy_forecast", "80", unit: "%"),
            Self.miele("water_forecast", "60", unit: "%"),
            Self.miele("remaining_time", "84", unit: "min", deviceClass: "duration"),
            Self.miele("elapsed_time", "34", unit: "min", deviceClass: "duration"),
            Self.miele("start_time", "0", unit: "min", deviceClass: "duration"),
            Self.miele("start", "2026-11-29T10:00:00+00:00", deviceClass: "timestamp"),
            Self.miele("finish", "2026-11-29T12:00:00+00:00", deviceClass: "timestamp"),
            Self.miele("door", "off", deviceClass: "door", uniqueKey: "state_signal_door", domain: "binary_sensor"),
        ]
        for order in Self.orders(washer) {
            let device = Self.assess(order, domain: "miele", model: "Washing machine").devices.first
            #expect(device?.kind == .washer)
            #expect(device?.entities == [
                .operationState: "sensor.w_status", .program: "sensor.w_program_id",
                .remainingTime: "sensor.w_remaining_time", .elapsedTime: "sensor.w_elapsed_time",
                .finishTime: "sensor.w_finish", .door: "binary_sensor.w_door", .startIn: "sensor.w_start_time",
            ])
            #expect(device?.sources.values.allSatisfy { $0 == .table } == true)
        }
    }

    // miele/sensor.py: the oven's temperature is `state_temperature_1` (no translation key);
    // `core_temperature` is the meat probe.
    @Test func aMieleOvensMeatProbeIsNotItsTemperature() {
        let oven = [
            Self.miele("status", "in_use", deviceClass: "enum", options: Self.mieleStatus),
            Self.miele("program_id", "fan_plus", deviceClass: "enum", options: ["no_program", "fan_plus"]),
            Self.miele("core_temperature", "45", unit: "°C", deviceClass: "temperature"),
            Self.miele("temperature", "180", unit: "°C", deviceClass: "temperature", uniqueKey: "state_temperature_1"),
        ]
        for order in Self.orders(oven) {
            let device = Self.assess(order, domain: "miele", model: "Oven").devices.first
            #expect(device?.entities[.temperature] == "sensor.w_temperature")
        }
    }

    static func lg(_ key: String, _ state: String, unit: String? = nil, deviceClass: String? = nil,
                   options: [String]? = nil) -> DiscoveryRecord.Entity {
        entity("sensor.lg_\(key)", state, platform: "lg_thinq", key: key, uniqueID: "lgdev_\(key)",
               unit: unit, deviceClass: deviceClass, options: options)
    }

    // lg_thinq/sensor.py, WASHER_SENSORS: `relative_to_start_wm` and `relative_to_stop_wm` are the
    // delayed start's and end's timestamps, `remain` the program's end; idle, all are unknown.
    @Test func anLGWashersDelayedStartAndEndAreNotItsFinishTime() {
        let washer = [
            Self.lg("current_state", "power_off", deviceClass: "enum", options: ["power_off", "initial", "running", "end"]),
            Self.lg("total", "unknown", unit: "min", deviceClass: "duration"),
            Self.lg("relative_to_start_wm", "unknown", deviceClass: "timestamp"),
            Self.lg("relative_to_stop_wm", "unknown", deviceClass: "timestamp"),
            Self.lg("remain", "unknown", deviceClass: "timestamp"),
            Self.lg("cycle_count", "12"),
        ]
        for order in Self.orders(washer) {
            let device = Self.assess(order, domain: "lg_thinq", model: "F4V9 (DEVICE_WASHER)").devices.first
            #expect(device?.kind == .washer)
            #expect(device?.entities == [.operationState: "sensor.lg_current_state", .totalTime: "sensor.lg_total",
                                         .finishTime: "sensor.lg_remain"])
        }
    }

    // lg_thinq/event.py, DEVICE_TYPE_EVENT_MAP[WASHER]: the `error` event entity (ERROR_EVENT_DESC)
    // is the error's reason; the `notification` one is not (tests/components/lg_thinq/snapshots/
    // test_event.ambr: domain `event`, unique id `<device>_notification`, state `unknown`).
    @Test func anLGWashersErrorEventIsTheErrorReason() {
        let washer = [
            Self.lg("current_state", "running", deviceClass: "enum", options: ["power_off", "initial", "running", "end"]),
            Self.lg("remain", "2026-12-02T11:00:00+00:00", deviceClass: "timestamp"),
            Self.entity("event.lg_washer_error", "unknown", platform: "lg_thinq", key: "error", uniqueID: "lgdev_error"),
            Self.entity("event.lg_washer_notification", "unknown", platform: "lg_thinq", key: "notification",
                        uniqueID: "lgdev_notification"),
            // An error key on another domain takes no role.
            Self.entity("sensor.lg_washer_error", "none", platform: "lg_thinq", key: "error", uniqueID: "lgdev_error_s"),
        ]
        for order in Self.orders(washer) {
            let device = Self.assess(order, domain: "lg_thinq", model: "F4V9 (DEVICE_WASHER)").devices.first
            #expect(device?.entities[.errorReason] == "event.lg_washer_error")
            #expect(device?.entities[.operationState] == "sensor.lg_current_state")
        }
        let tower = [Self.lg("current_state_for_location", "running", deviceClass: "enum", options: ["running"]),
                     Self.entity("event.lg_tower_washer_error", "unknown", platform: "lg_thinq",
                                 key: "error_for_location", uniqueID: "lgdev_washer_error")]
        let device = Self.assess(tower, domain: "lg_thinq", model: "WashTower (DEVICE_WASHTOWER_WASHER)").devices.first
        #expect(device?.entities[.errorReason] == "event.lg_tower_washer_error")
    }

    // lg_thinq/sensor.py, DEVICE_TYPE_SENSOR_MAP[OVEN]: only the current state and the target
    // temperature; smartthings/sensor.py: the oven's machine state is ready, running, paused;
    // whirlpool/sensor.py: `oven_state` and temperatures, no end time.
    @Test(arguments: [
        ("lg_thinq", "current_state", ["cooking_in_progress", "done", "initial"], "LSEL (DEVICE_OVEN)"),
        ("smartthings", "oven_machine_state", ["ready", "running", "paused"], nil),
        ("whirlpool", "oven_state", ["standby", "preheating", "cooking"], nil),
    ] as [(String, String, [String], String?)])
    func ovensOfLGSmartThingsAndWhirlpoolAreLeftOutSayingWhy(integration: String, key: String, options: [String],
                                                             model: String?) {
        let oven = [Self.entity("sensor.oven_state", options[0], platform: integration, key: key, uniqueID: "o_\(key)",
                                deviceClass: "enum", options: options)]
        let result = Self.assess(oven, domain: integration, model: model)
        #expect(result.devices.isEmpty)
        #expect(result.skipped.first?.kind == .oven)
        #expect(result.skipped.first?.reason.hasPrefix("oven: not followed: ") == true)
    }

    static func electrolux(_ key: String, _ state: String, unit: String? = nil, deviceClass: String? = nil,
                           source: String = "root", domain: String = "sensor") -> DiscoveryRecord.Entity {
        entity("\(domain).aeg_\(key.lowercased())", state, platform: "electrolux_status", key: nil,
               uniqueID: "01JENTRY-\(key)-\(source)-914915144_00:31862190-443E0769B3B2", unit: unit, deviceClass: deviceClass)
    }

    // electrolux_status/catalog_core.py: `applianceTotalWorkingTime` is the lifetime working time
    // (a duration, 100,440 min on a real washer), `timeToEnd` the program's; `userSelections/programUID`
    // is the program select.
    @Test func anElectroluxWashersLifetimeCounterIsNotItsRemainingTime() {
        var program = Self.electrolux("programUID", "Cotton Pr Cottons", source: "userSelections", domain: "select")
        program.options = ["Cotton Pr Cottons", "Synthetic Pr Synthetics"]
        let washer = [
            Self.electrolux("applianceState", "Running"),
            Self.electrolux("applianceTotalWorkingTime", "100440", unit: "min", deviceClass: "duration"),
            Self.electrolux("timeToEnd", "42", unit: "min", deviceClass: "duration"),
            Self.electrolux("runningTime", "30", unit: "min", deviceClass: "duration"),
            program,
        ]
        for order in Self.orders(washer) {
            let device = Self.assess(order, domain: "electrolux_status").devices.first
            #expect(device?.entities == [
                .operationState: "sensor.aeg_appliancestate", .remainingTime: "sensor.aeg_timetoend",
                .elapsedTime: "sensor.aeg_runningtime", .program: "select.aeg_programuid",
            ])
        }
    }

    // smartthings/sensor.py, POWER_CONSUMPTION_REPORT: `energy_meter` (no translation key) is the
    // counter, `energy_difference` the energy of one report.
    @Test func aSmartThingsWashersEnergyIsTheCounterNotTheDelta() {
        func st(_ key: String?, _ uid: String, _ state: String, unit: String? = nil, dc: String? = nil,
                options: [String]? = nil) -> DiscoveryRecord.Entity {
            Self.entity("sensor.st_\(uid)", state, platform: "smartthings", key: key,
                        uniqueID: "abc_main_cap_attr_\(uid)", unit: unit, deviceClass: dc, options: options)
        }
        let washer = [
            st("washer_machine_state", "machine_state", "run", dc: "enum", options: ["pause", "run", "stop"]),
            st("completion_time", "completion", "2026-11-29T12:00:00+00:00", dc: "timestamp"),
            st(nil, "energy_meter", "1412.5", unit: "kWh", dc: "energy"),
            st("energy_difference", "delta_energy", "0.1", unit: "kWh", dc: "energy"),
            st("power_energy", "power_energy", "0.2", unit: "kWh", dc: "energy"),
            st(nil, "power_meter", "410", unit: "W", dc: "power"),
        ]
        for order in Self.orders(washer) {
            let device = Self.assess(order, domain: "smartthings").devices.first
            #expect(device?.kind == .washer)
            #expect(device?.entities[.energy] == "sensor.st_energy_meter")
            #expect(device?.entities[.power] == "sensor.st_power_meter")
        }
    }

    // whirlpool/sensor.py in HA 2024.3.3: the washer's state sensor is `whirlpool_machine`.
    @Test func aWhirlpoolWasherOfHA2024IsFollowed() {
        let washer = [
            Self.entity("sensor.w_state", "running_maincycle", platform: "whirlpool", key: "whirlpool_machine",
                        uniqueID: "said-state", deviceClass: "enum", options: ["standby", "running_maincycle", "complete"]),
            Self.entity("sensor.w_end", "2026-11-29T12:00:00+00:00", platform: "whirlpool", key: "end_time",
                        uniqueID: "said-timeremaining", deviceClass: "timestamp"),
        ]
        for order in Self.orders(washer) {
            let device = Self.assess(order, domain: "whirlpool").devices.first
            #expect(device?.entities == [.operationState: "sensor.w_state", .finishTime: "sensor.w_end"])
            #expect(device?.sources == [.operationState: .table, .finishTime: .table])
        }
    }

    /// A state sensor whose declared key the table doesn't list (an integration version that
    /// renamed it) is still found as the operation state by the fallback; no other role is.
    @Test func anUnlistedKeyCanStillBeTheOperationStateButNothingElse() {
        var washer = [
            Self.miele("status", "in_use", deviceClass: "enum", options: Self.mieleStatus),
            Self.miele("remaining_time", "84", unit: "min", deviceClass: "duration"),
            Self.miele("twin_dos_9_level", "40", unit: "%"),
        ]
        washer[0].registry?.translationKey = "appliance_status"
        for order in Self.orders(washer) {
            let device = Self.assess(order, domain: "miele", model: "Washing machine").devices.first
            #expect(device?.entities == [.operationState: "sensor.w_status", .remainingTime: "sensor.w_remaining_time"])
            #expect(device?.sources == [.operationState: .fallback, .remainingTime: .table])
        }
    }

    /// An entity the registry says nothing about (HA's WebSocket refused) is found by the
    /// fallback rules, and says so.
    @Test func entitiesWithoutARegistryEntryAreFoundByTheFallback() {
        var washer = [
            Self.miele("status", "in_use", deviceClass: "enum", options: Self.mieleStatus),
            Self.miele("remaining_time", "84", unit: "min", deviceClass: "duration"),
        ]
        washer[1].registry = nil
        let device = Self.assess(washer, domain: "miele", model: "Washing machine").devices.first
        #expect(device?.sources == [.operationState: .table, .remainingTime: .fallback])
        #expect(device?.rolesSummary == "washer (miele); by table: operation_state sensor.w_status; "
                + "by fallback: remaining_time sensor.w_remaining_time")
    }
}

/// What `cycletrack check` shows of discovery: every device seen, followed or left out and why.
@Suite struct DiscoveryLinesTests {
    @Test func checkNamesEveryDeviceSeenAndWhy() {
        let washer = [
            RoleTableTests.miele("status", "in_use", deviceClass: "enum", options: RoleTableTests.mieleStatus),
            RoleTableTests.miele("remaining_time", "84", unit: "min", deviceClass: "duration"),
        ]
        let fridge = [RoleTableTests.miele("status", "in_use", deviceClass: "enum", options: RoleTableTests.mieleStatus)]
        var result = ApplianceRoleRecognizer.recognize([
            DiscoveryRecord(id: "w1", domain: "miele", name: "Washer", model: "Washing machine", entities: washer),
            DiscoveryRecord(id: "f1", domain: "miele", name: "Fridge", model: "Refrigerator", entities: fridge),
        ])
        #expect(result.lines.map(\.label) == ["registry", "followed Washer (w1)", "left out Fridge"])
        #expect(result.lines[1].detail == "washer (miele); by table: operation_state sensor.w_status, "
                + "remaining_time sensor.w_remaining_time; by fallback: none")
        #expect(result.lines[2].detail == "fridge: runs no cycles (its \"in use\" or \"running\" is not a cycle)")
        result.registryProblem = "Home Assistant WebSocket: refused"
        #expect(result.lines[0].detail == "not read (Home Assistant WebSocket: refused): every role found by the fallback rules")
    }
}

/// SplitMix64: a seeded generator, so a shuffled order is the same on every run.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
