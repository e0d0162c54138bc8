import CycleCore

// Each brand's rows, read at home-assistant/core (`homeassistant/components/<integration>/…`,
// as installed by HA 2026.11.0) and albaintor/homeassistant_electrolux_status (commit cd5cfba).
// docs/CYCLES.md, "Keys and roles", lists the same rows (RoleTableDocsTests compares them).
extension RoleTable {
    /// home_connect/sensor.py (`SENSORS`, `EVENT_SENSORS`: an event sensor's `appliance_types`
    /// say which kind has it), select.py (`PROGRAM_SELECT_ENTITY_DESCRIPTIONS`),
    /// binary_sensor.py (door sensors of fridges and freezers), number.py (`NUMBER_OPTIONS`: the
    /// program's start-in, in seconds).
    static let homeConnect: [Row] = {
        let sensor = "home_connect/sensor.py", select = "home_connect/select.py"
        let binary = "home_connect/binary_sensor.py", number = "home_connect/number.py"
        return [
            row("home_connect", "operation_state", .operationState, source: sensor),
            row("home_connect", "program_progress", .progress, source: sensor),
            row("home_connect", "program_finish_time", .finishTime, source: sensor),
            row("home_connect", "door", .door, domain: "sensor", source: sensor),
            row("home_connect", "oven_current_cavity_temperature", .temperature, kind: .oven, source: sensor),
            row("home_connect", "active_program", .program, domain: "select", source: select),
            row("home_connect", "selected_program", nil, domain: "select", source: select),
            row("home_connect", "start_in_relative", .startIn, domain: "number", source: number),
            row("home_connect", "coffee_counter", nil, kind: .coffeeMachine, source: sensor),
            row("home_connect", "bean_container_empty", nil, kind: .coffeeMachine, source: sensor),
            row("home_connect", "salt_lack", nil, kind: .dishwasher, source: sensor),
            row("home_connect", "rinse_aid_lack", nil, kind: .dishwasher, source: sensor),
            row("home_connect", "drying_process_finished", nil, kind: .dryer, source: sensor),
            row("home_connect", "regular_preheat_finished", nil, kind: .oven, source: sensor),
            row("home_connect", "grease_filter_max_saturation_reached", nil, kind: .hood, source: sensor),
            row("home_connect", "refrigerator_door_alarm", nil, kind: .fridge, source: sensor),
            row("home_connect", "freezer_door_alarm", nil, kind: .freezer, source: sensor),
            row("home_connect", "refrigerator_door", nil, kind: .fridge, source: binary),
            row("home_connect", "freezer_door", nil, kind: .freezer, source: binary),
        ]
    }()

    /// miele/sensor.py (`SENSOR_TYPES`: key → translation key), miele/binary_sensor.py
    /// (`state_signal_door`, device class door, no translation key).
    static let miele: [Row] = {
        let sensor = "miele/sensor.py", binary = "miele/binary_sensor.py"
        func none(_ key: String, _ kind: ApplianceKind? = nil) -> Row { row("miele", key, nil, kind: kind, source: sensor) }
        return [
            row("miele", "status", .operationState, source: sensor),
            row("miele", "program_id", .program, source: sensor),
            row("miele", "program_phase", .phase, source: sensor),
            row("miele", "remaining_time", .remainingTime, source: sensor),
            row("miele", "elapsed_time", .elapsedTime, source: sensor),
            row("miele", "finish", .finishTime, source: sensor),
            row("miele", "energy_consumption", .energy, source: sensor),
            row("miele", "state_temperature_1", .temperature, match: .uniqueID, source: sensor),
            row("miele", "state_signal_door", .door, match: .uniqueID, domain: "binary_sensor", source: binary),
            // "Start in": the delay before a programmed start, a duration (minutes, shown in
            // hours), 0 when none: when a delayed start begins. "Start": a timestamp that is
            // the run's start while it runs, so it is not taken.
            row("miele", "start_time", .startIn, source: sensor), none("start"),
            // Percentages of the program's expected energy and water, not its progress.
            none("energy_forecast"), none("water_forecast"), none("water_consumption"),
            // The meat probe and the set temperatures are not the oven's temperature.
            none("core_temperature", .oven), none("core_target_temperature", .oven), none("target_temperature"),
            none("temperature_zone_2"), none("temperature_zone_3"),
            none("program_type"), none("spin_speed", .washer), none("drying_step", .dryer), none("plate", .hob),
            none("twin_dos_1_level", .washer), none("twin_dos_2_level", .washer), none("power_disk_level", .dishwasher),
            none("salt_level", .dishwasher), none("rinse_aid_level", .dishwasher),
            none("descaling_counter", .coffeeMachine), none("milk_cleaning_counter", .coffeeMachine),
            none("degreasing_counter", .coffeeMachine),
        ]
    }()

    /// lg_thinq/sensor.py (`RUN_STATE_SENSOR_DESC`, `TIMER_SENSOR_DESC`, `WASHER_SENSORS`,
    /// `DEVICE_TYPE_SENSOR_MAP`), event.py (`DEVICE_TYPE_EVENT_MAP`).
    static let lgThinQ: [Row] = {
        let sensor = "lg_thinq/sensor.py"
        // A device with several locations (an oven's upper and lower cavity, a WashTower) has
        // each key with `_for_location` (lg_thinq/strings.json).
        func both(_ key: String, _ role: Role?, kind: ApplianceKind? = nil) -> [Row] {
            [row("lg_thinq", key, role, kind: kind, source: sensor),
             row("lg_thinq", key + "_for_location", role, kind: kind, source: sensor)]
        }
        return both("current_state", .operationState)
            // `remain` is a timestamp: the program's end.
            + both("remain", .finishTime) + both("total", .totalTime)
            // The delayed start's and delayed end's times, not the running program's end.
            + both("relative_to_start_wm", nil) + both("relative_to_stop_wm", nil)
            + both("relative_to_start", nil) + both("relative_to_stop", nil)
            + both("running", nil) + both("cycle_count", nil)
            + [row("lg_thinq", "current_dish_washing_course", nil, kind: .dishwasher, source: sensor)]
            + both("target_temperature", nil)
            // event.py (`ERROR_EVENT_DESC`: washers, dryers, dishwashers, stylers, washcombos,
            // washtowers): the last error's event type, the appliance's own reason.
            + [row("lg_thinq", "error", .errorReason, domain: "event", source: "lg_thinq/event.py"),
               row("lg_thinq", "error_for_location", .errorReason, domain: "event", source: "lg_thinq/event.py")]
    }()

    /// smartthings/sensor.py (`CAPABILITY_TO_SENSORS`; the power meter's entities have no
    /// translation key: unique id `…_energy_meter`, `…_power_meter`).
    static let smartThings: [Row] = {
        let sensor = "smartthings/sensor.py"
        func none(_ key: String, _ kind: ApplianceKind? = nil) -> Row { row("smartthings", key, nil, kind: kind, source: sensor) }
        return [
            row("smartthings", "washer_machine_state", .operationState, kind: .washer, source: sensor),
            row("smartthings", "dryer_machine_state", .operationState, kind: .dryer, source: sensor),
            row("smartthings", "dishwasher_machine_state", .operationState, kind: .dishwasher, source: sensor),
            row("smartthings", "washer_job_state", .phase, source: sensor),
            row("smartthings", "dryer_job_state", .phase, source: sensor),
            row("smartthings", "dishwasher_job_state", .phase, source: sensor),
            row("smartthings", "completion_time", .finishTime, source: sensor),
            row("smartthings", "washer_progress", .progress, source: sensor),
            row("smartthings", "dryer_progress", .progress, source: sensor),
            row("smartthings", "energy_meter", .energy, match: .uniqueID, source: sensor),
            row("smartthings", "power_meter", .power, match: .uniqueID, source: sensor),
            // Per-report deltas and savings, not the energy counter.
            none("energy_difference"), none("power_energy"), none("energy_saved"),
            // A second (sub) washer's own state.
            none("washer_sub_machine_state"), none("washer_sub_job_state"), none("washer_sub_completion_time"),
            none("washer_sub_progress"),
            none("oven_machine_state", .oven), none("oven_machine_state_cavity_01", .oven),
            none("oven_job_state", .oven), none("oven_completion_time_cavity_01", .oven),
            none("oven_setpoint", .oven), none("oven_mode", .oven),
            none("freezer_temperature", .fridge), none("cooler_temperature", .fridge),
            none("refrigeration_setpoint", .fridge), none("air_conditioner_mode", .airConditioner),
            none("hood_filter_usage", .hood), none("cooktop_operating_state", .hob),
        ]
    }()

    /// whirlpool/sensor.py (`WASHER_SENSORS`, `DRYER_SENSORS`, `WASHER_DRYER_TIME_SENSORS`,
    /// `OVEN_CAVITY_SENSORS`), whirlpool/binary_sensor.py (`door`, no translation key), select.py.
    static let whirlpool: [Row] = {
        let sensor = "whirlpool/sensor.py"
        func oven(_ key: String) -> Row { row("whirlpool", key, nil, kind: .oven, source: sensor) }
        return [
            row("whirlpool", "washer_state", .operationState, kind: .washer, source: sensor),
            row("whirlpool", "dryer_state", .operationState, kind: .dryer, source: sensor),
            // HA 2024.3's name for the washer's and the dryer's state sensor.
            row("whirlpool", "whirlpool_machine", .operationState, source: sensor),
            row("whirlpool", "end_time", .finishTime, source: sensor),
            row("whirlpool", "door", .door, match: .uniqueID, domain: "binary_sensor", source: "whirlpool/binary_sensor.py"),
            row("whirlpool", "whirlpool_tank", nil, source: sensor),
            oven("oven_state"), oven("oven_state_upper"), oven("oven_state_lower"),
            oven("oven_cook_mode"), oven("oven_current_temperature"), oven("oven_target_temperature"),
            row("whirlpool", "refrigerator_temperature_level", nil, kind: .fridge, source: "whirlpool/select.py"),
        ]
    }()

    /// electrolux_status/catalog_core.py (the catalog's keys) and entity.py (`unique_id`); the
    /// integration gives no translation keys.
    static let electrolux: [Row] = {
        let catalog = "electrolux_status/catalog_core.py"
        func key(_ key: String, _ role: Role?, kind: ApplianceKind? = nil, domain: String? = nil) -> Row {
            row("electrolux_status", key, role, kind: kind, match: .uniqueID, domain: domain, source: catalog)
        }
        return [
            key("applianceState", .operationState, domain: "sensor"),
            key("timeToEnd", .remainingTime),
            key("runningTime", .elapsedTime),
            key("cyclePhase", .phase),
            key("userSelections/programUID", .program),
            key("doorState", .door, domain: "binary_sensor"),
            key("displayTemperature", .temperature, kind: .oven),
            // Lifetime counters and settings, not the running cycle's times.
            key("applianceTotalWorkingTime", nil), key("totalWashingTime", nil), key("totalCycleCounter", nil),
            key("startTime", nil), key("reminderTime", nil), key("displayFoodProbeTemperature", nil),
            key("targetTemperatureC", nil), key("userSelections/analogSpinSpeed", nil, kind: .washer),
            key("fridge/applianceState", nil, kind: .fridge), key("freezer/applianceState", nil, kind: .freezer),
            key("fridge/fastModeTimeToEnd", nil), key("freezer/fastModeTimeToEnd", nil),
        ]
    }()
}
