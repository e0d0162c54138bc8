/// One appliance setting, declared once in `ApplianceSetting.all`: its key (the same in the
/// configuration, the add-on's options, the local API, the stored overrides and the
/// integration), its kind and range, its unit, and where it may be set. The configuration
/// reader, the API's validation and JSON, the add-on schema's check and the integration's
/// switch and number entities all follow from this table (docs/DEVELOPMENT.md, "Adding a
/// setting"). Its default is the typed field's own in `ApplianceSettings`, read through the
/// row's key path, so it is written once too.
///
/// Settings of another shape (`progress_steps`, `target`, `texts`, the entities, `power`,
/// `quiet_hours`) are read by hand in the configuration loader.
public struct ApplianceSetting: Sendable {
    /// What values the setting takes.
    public enum Kind: Sendable, Equatable {
        /// true or false.
        case flag
        /// A whole number from the range (an `Int` field).
        case whole(ClosedRange<Int>)
        /// A number from the range. `step` 1: whole numbers where someone types it (the
        /// add-on's form, a PATCH of the API, HA's number entity); the configuration file
        /// takes any number in the range, as it always has. nil: any number.
        case number(ClosedRange<Double>, step: Double?)
        /// Another appliance's id, or one of `words` (`dryer`: `auto`, `off`).
        case appliance(words: [String])
    }

    /// The unit of a number, as Home Assistant writes it.
    public enum Unit: String, Sendable {
        case seconds = "s"
        case minutes = "min"
    }

    /// A setting's value.
    public enum Value: Sendable, Equatable {
        case flag(Bool)
        case number(Double)
        /// An appliance id or a word of an `appliance` setting.
        case text(String)
    }

    /// The key everywhere it is written, e.g. `notify_start`.
    public let key: String
    public let kind: Kind
    public let unit: Unit?
    /// The local API changes it at run time, and the integration shows it as a switch (a
    /// flag) or a number entity.
    public let tunable: Bool
    /// The configuration file (and so the add-on's options) sets it.
    public let configurable: Bool
    /// The value a JSON null stands for where null means off (`unload_reminder_minutes`: 0),
    /// shown as null when in effect; nil: a PATCH's null is refused.
    public let off: Value?
    /// The integration's entity key (its unique id's end and translation key) where it
    /// differs from `key`: an entity id users already have.
    public let entityKey: String
    private let read: @Sendable (ApplianceSettings) -> Value?
    private let write: @Sendable (inout ApplianceSettings, Value) -> Void

    /// The value in effect for `settings`; nil: none (an unset optional, or off).
    public func value(in settings: ApplianceSettings) -> Value? {
        let value = read(settings)
        return value == off ? nil : value
    }

    /// `settings` with this setting at `value` (a whole number for an `Int` field).
    public func set(_ value: Value, in settings: inout ApplianceSettings) {
        write(&settings, value)
    }

    /// The value of an appliance nothing was configured for (as `value(in:)`).
    public var defaultValue: Value? { value(in: ApplianceSettings(id: "appliance", name: "Appliance")) }
}

extension ApplianceSetting {
    /// Every declared setting, in the order the API and the add-on list them. Adding a
    /// setting is a row here (and its typed field in `ApplianceSettings`, read by the code
    /// it changes); `tunable: true` makes it an entity in Home Assistant, which then needs
    /// its name and icon in the integration's strings.json and icons.json (a test checks).
    public static let all: [ApplianceSetting] = [
        .flag("notify_start", \.notifyStart, tunable: true),
        .flag("notify_progress", \.notifyProgress, tunable: true),
        .flag("notify_end", \.notifyEnd, tunable: true),
        .flag("live_activity", \.liveActivity, tunable: true, configurable: false),
        .whole("cycle_push_limit", \.cyclePushLimit, 3...1000),
        .optionalNumber("relevance", \.relevance, 0...1),
        .flag("persistent", \.persistent),
        .flag("fcm_high_priority", \.fcmHighPriority),
        .number("settle_seconds", \.settleSeconds, 0...3600, step: 1, unit: .seconds),
        .number("min_update_seconds", \.minUpdateSeconds, 0...3600, step: 1, unit: .seconds),
        .number("finish_jitter_seconds", \.finishJitterSeconds, 0...86400, step: 1, unit: .seconds),
        .number("temperature_step", \.temperatureStep, 0.1...1000),
        .number("heartbeat_minutes", \.heartbeatMinutes, 1...1440, step: 1, unit: .minutes),
        .number("lost_after_minutes", \.lostAfterMinutes, 1...10080, step: 1, unit: .minutes),
        .flag("finish_correction", \.finishCorrection, tunable: true),
        .unloadReminderMinutes,
        .whole("unload_reminder_repeats", \.unloadReminderRepeats, 0...20),
        .flag("anomaly_notes", \.anomalyNotes, tunable: true),
        .appliance("dryer", \.dryer, words: [LaundryLink.automatic, LaundryLink.off]),
    ]

    /// The settings the API changes at run time, in the table's order.
    public static var tunables: [ApplianceSetting] { all.filter(\.tunable) }

    /// The tunable settings the integration makes an entity of (a switch or a number), as the
    /// API declares them (`appliance_settings`); an appliance id (`dryer`) is set in the
    /// integration's options instead, and an integration that knows only these kinds keeps working.
    public static var declared: [ApplianceSetting] { tunables.filter(\.hasEntity) }

    /// A flag or a number: an entity in Home Assistant when tunable.
    public var hasEntity: Bool {
        if case .appliance = kind { false } else { true }
    }

    /// The setting named `key`, if declared.
    public static func named(_ key: String) -> ApplianceSetting? { all.first { $0.key == key } }

    /// Minutes after a finished cycle before the unload reminder; unset is 30 for a washer or
    /// dryer and off for the rest, so it is shown as in effect, and null or 0 is off.
    static let unloadReminderMinutes = ApplianceSetting(
        key: "unload_reminder_minutes", kind: .number(0...1440, step: 1), unit: .minutes, tunable: true,
        configurable: true, off: .number(0), entityKey: "unload_reminder",
        read: { .number($0.unloadReminderMinutesInEffect) },
        write: { settings, value in if case .number(let minutes) = value { settings.unloadReminderMinutes = minutes } })
}

extension ApplianceSetting {
    static func flag(_ key: String, _ field: WritableKeyPath<ApplianceSettings, Bool> & Sendable, tunable: Bool = false,
                     configurable: Bool = true) -> ApplianceSetting {
        ApplianceSetting(key: key, kind: .flag, unit: nil, tunable: tunable, configurable: configurable, off: nil, entityKey: key,
                         read: { .flag($0[keyPath: field]) },
                         write: { settings, value in if case .flag(let flag) = value { settings[keyPath: field] = flag } })
    }

    static func whole(_ key: String, _ field: WritableKeyPath<ApplianceSettings, Int> & Sendable, _ range: ClosedRange<Int>,
                      unit: Unit? = nil, tunable: Bool = false) -> ApplianceSetting {
        ApplianceSetting(key: key, kind: .whole(range), unit: unit, tunable: tunable, configurable: true, off: nil, entityKey: key,
                         read: { .number(Double($0[keyPath: field])) },
                         write: { settings, value in
                             if case .number(let number) = value, let whole = NumberText.int(number) { settings[keyPath: field] = whole }
                         })
    }

    static func number(_ key: String, _ field: WritableKeyPath<ApplianceSettings, Double> & Sendable, _ range: ClosedRange<Double>,
                       step: Double? = nil, unit: Unit? = nil, tunable: Bool = false) -> ApplianceSetting {
        ApplianceSetting(key: key, kind: .number(range, step: step), unit: unit, tunable: tunable, configurable: true, off: nil,
                         entityKey: key, read: { .number($0[keyPath: field]) },
                         write: { settings, value in if case .number(let number) = value { settings[keyPath: field] = number } })
    }

    /// An appliance id or one of `words`, tunable (the integration's options set it).
    static func appliance(_ key: String, _ field: WritableKeyPath<ApplianceSettings, String> & Sendable,
                          words: [String]) -> ApplianceSetting {
        ApplianceSetting(key: key, kind: .appliance(words: words), unit: nil, tunable: true, configurable: true, off: nil,
                         entityKey: key, read: { .text($0[keyPath: field]) },
                         write: { settings, value in if case .text(let text) = value { settings[keyPath: field] = text } })
    }

    /// A number that may be unset (nil in the field, shown as null).
    static func optionalNumber(_ key: String, _ field: WritableKeyPath<ApplianceSettings, Double?> & Sendable,
                               _ range: ClosedRange<Double>, step: Double? = nil, unit: Unit? = nil,
                               tunable: Bool = false) -> ApplianceSetting {
        ApplianceSetting(key: key, kind: .number(range, step: step), unit: unit, tunable: tunable, configurable: true, off: nil,
                         entityKey: key, read: { $0[keyPath: field].map(Value.number) },
                         write: { settings, value in if case .number(let number) = value { settings[keyPath: field] = number } })
    }
}
