import FoundationEssentials

/// The appliance's own reason for an error, as its integration's error event gives it (LG
/// ThinQ's `event` entity with translation key `error`; docs/CYCLES.md, "Errors"): the event
/// type (`door_open_error`) and when it fired. The role `error_reason` carries both in its raw
/// text, the event type, a space and the event entity's state (the ISO time of its last event):
/// `water_supply_error 2026-12-02T10:15:00.000+00:00`.
///
/// An event entity keeps its last event forever, so an event counts as the reason of an error
/// only when it fired during the current cycle (at or after its start): LG's integration fires
/// it again at each update while the error lasts, and fires it in the same update as the error
/// state, in either order, so "at or after the error state began" would miss it by a moment.
public struct ErrorEvent: Sendable, Codable, Equatable {
    public var type: String
    public var at: Date

    public init(type: String, at: Date) {
        self.type = type
        self.at = at
    }

    /// From the role's raw text; nil for no event (`unknown`, `unavailable`), no time, or an
    /// event type that says nothing (`unknown_error`, "Product requires attention").
    public init?(raw: String?) {
        guard let text = Observation.present(raw), let space = text.firstIndex(of: " ") else { return nil }
        let type = String(text[..<space])
        guard !type.isEmpty, type != "unknown_error", let at = ISOTime.parse(String(text[space...])) else { return nil }
        self.init(type: type, at: at)
    }

    /// Whether it is the reason of an error in a cycle that started at `start`.
    func counts(since start: Date) -> Bool { at >= start }

    /// The reason in people's words, in the language of `texts` (the built-in set they start
    /// from): "door open", "water supply", "Wasserzulauf". An event
    /// type of no table: its key's words (`heater_circuit_error` → "heater circuit").
    func words(_ texts: Texts) -> String {
        if type == "door_open_error" { return texts.doorOpen }
        return (texts.language == "de" ? Self.german[type] : Self.english[type]) ?? Self.keyWords(type)
    }

    /// The reason's words in English, for the call's reason and the `pushes` row.
    var englishWords: String { type == "door_open_error" ? Texts().doorOpen : Self.english[type] ?? Self.keyWords(type) }

    /// `heater_circuit_error` → "heater circuit".
    static func keyWords(_ type: String) -> String {
        let key = type.hasSuffix("_error") ? String(type.dropLast("_error".count)) : type
        return key.split(separator: "_").joined(separator: " ")
    }

    /// The common event types of LG's washers, dryers, dishwashers and stylers
    /// (lg_thinq/strings.json, `entity.event.error.state_attributes.event_type`).
    static let english: [String: String] = [
        "door_close_error": "door does not close", "door_lock_error": "door does not lock",
        "unable_to_lock_error": "door does not lock", "door_sensor_error": "door sensor",
        "inner_lid_open_error": "lid open", "child_lock_active_error": "child lock",
        "water_supply_error": "water supply", "need_water_replenishment": "fill the water tank",
        "empty_water_alert_error": "empty the water tank", "need_water_drain": "empty the water tank",
        "drainmotor_error": "drain", "water_drain_error": "drain",
        "filter_clogging_error": "filter", "no_filter_error": "filter",
        "high_power_supply_error": "power supply", "power_fail_error": "power failure",
        "power_code_connection_error": "power cord", "out_of_balance_error": "unbalanced load",
        "unbalanced_load_error": "unbalanced load", "water_leakage_error": "water leak",
        "water_leaks_error": "water leak", "overfill_error": "too much water",
        "temperature_sensor_error": "temperature sensor", "water_level_sensor_error": "water level sensor",
        "dispensing_error": "detergent dispenser", "motor_error": "motor", "motor_lock_error": "motor",
    ]

    static let german: [String: String] = [
        "door_close_error": "Tür schließt nicht", "door_lock_error": "Tür verriegelt nicht",
        "unable_to_lock_error": "Tür verriegelt nicht", "door_sensor_error": "Türsensor",
        "inner_lid_open_error": "Deckel offen", "child_lock_active_error": "Kindersicherung",
        "water_supply_error": "Wasserzulauf", "need_water_replenishment": "Wassertank füllen",
        "empty_water_alert_error": "Wassertank leeren", "need_water_drain": "Wassertank leeren",
        "drainmotor_error": "Abpumpen", "water_drain_error": "Abpumpen",
        "filter_clogging_error": "Filter", "no_filter_error": "Filter",
        "high_power_supply_error": "Stromversorgung", "power_fail_error": "Stromausfall",
        "power_code_connection_error": "Netzkabel", "out_of_balance_error": "Unwucht",
        "unbalanced_load_error": "Unwucht", "water_leakage_error": "Wasserleck",
        "water_leaks_error": "Wasserleck", "overfill_error": "zu viel Wasser",
        "temperature_sensor_error": "Temperatursensor", "water_level_sensor_error": "Wasserstandssensor",
        "dispensing_error": "Waschmitteldosierung", "motor_error": "Motor", "motor_lock_error": "Motor",
    ]
}
