import CycleCore
@testable import CycleService
import FoundationEssentials
import Testing

/// The declared appliance settings (`ApplianceSetting.all`) against what is derived from
/// them: the configuration reader and its known keys, a PATCH's validation, the stored
/// overrides and the API's JSON. Each row is checked with values made from its own kind,
/// so a row added to the table is tested by these without a line more.
@Suite struct ApplianceSettingTests {
    /// A value the setting takes: its range's top (the opposite of the default for a flag).
    static func good(_ setting: ApplianceSetting) -> ApplianceSetting.Value {
        switch setting.kind {
        case .flag: .flag(setting.defaultValue != .flag(true))
        case .whole(let range): .number(Double(range.upperBound))
        case .number(let range, _): .number(range.upperBound)
        case .appliance: .text("tumble_dryer")
        }
    }

    /// A value out of its range, as JSON text, and what the error says is expected.
    static func outOfRange(_ setting: ApplianceSetting) -> (json: String, expected: String) {
        switch setting.kind {
        case .flag: ("\"yes\"", "expects true or false, found the string \"yes\"")
        case .whole(let range): ("\(range.upperBound + 1)", "expects a whole number from \(range.lowerBound) to \(range.upperBound)")
        case .number(let range, _):
            (NumberText.plain(range.upperBound + 1),
             "expects a number from \(NumberText.plain(range.lowerBound)) to \(NumberText.plain(range.upperBound))")
        case .appliance(let words):
            ("\"no such id!\"", "expects an appliance id or \(words.map { "\"\($0)\"" }.joined(separator: " or ")), found the string \"no such id!\"")
        }
    }

    static func json(_ value: ApplianceSetting.Value) -> String { ApplianceSetting.json(value).compactJSON() }

    static let configurable = ApplianceSetting.all.filter(\.configurable).map(\.key)
    static let tunable = ApplianceSetting.tunables.map(\.key)

    private func setting(_ key: String) throws -> ApplianceSetting { try #require(ApplianceSetting.named(key)) }

    private func appliance(_ key: String, _ json: String) throws(ConfigurationError) -> ApplianceSettings {
        let text = #"{"appliances": [{"id": "a", "\#(key)": \#(json)}]}"#
        return try ConfigurationLoader.parse(Data(text.utf8), file: "c.json").appliances[0].settings
    }

    @Test func theTableDeclaresEachKeyOnceAndItsDefaultIsTheFieldsOwn() {
        #expect(Set(ApplianceSetting.all.map(\.key)).count == ApplianceSetting.all.count)
        #expect(Set(ApplianceSetting.all.map(\.entityKey)).count == ApplianceSetting.all.count)
        let plain = ApplianceSettings(id: "appliance", name: "Appliance")
        #expect(ApplianceSetting.named("notify_start")?.defaultValue == .flag(plain.notifyStart))
        #expect(ApplianceSetting.named("heartbeat_minutes")?.defaultValue == .number(plain.heartbeatMinutes))
        #expect(ApplianceSetting.named("relevance")?.defaultValue == nil, "unset")
        #expect(ApplianceSetting.named("unload_reminder_minutes")?.defaultValue == nil, "off for an appliance not a washer or dryer")
    }

    @Test(arguments: configurable)
    func theConfigurationReadsTheSetting(key: String) throws {
        let setting = try setting(key)
        let value = Self.good(setting)
        #expect(setting.value(in: try appliance(key, Self.json(value))) == value)
        #expect(setting.value(in: try appliance(key, "null")) == setting.defaultValue, "null is as if not given")
        #expect(ConfigurationLoader.knownKeys.contains("appliances[].\(key)"))
    }

    @Test(arguments: configurable)
    func theConfigurationRefusesAValueOutOfRangeNamingTheKey(key: String) throws {
        let (json, expected) = Self.outOfRange(try setting(key))
        let error = #expect(throws: ConfigurationError.self) { try appliance(key, json) }
        #expect(error?.message.hasPrefix("c.json: 'appliances[0].\(key)' \(expected)") == true, "\(error?.message ?? "")")
    }

    @Test func aSettingTheFileDoesNotSetIsAnUnknownKeyThere() throws {
        let only = ApplianceSetting.all.filter { !$0.configurable }.map(\.key)
        #expect(only == ["live_activity"])
        let error = #expect(throws: ConfigurationError.self) { try appliance("live_activity", "false") }
        #expect(error?.message.contains("unknown key 'appliances[0].live_activity'") == true)
        #expect(!ConfigurationLoader.knownKeys.contains("appliances[].live_activity"))
    }

    @Test(arguments: tunable)
    func aPatchTakesTheSettingAndItIsAppliedAndShown(key: String) throws {
        let setting = try setting(key)
        let value = Self.good(setting)
        let change = try SettingsJSON.change(Array(#"{"\#(key)": \#(Self.json(value))}"#.utf8))
        let overrides = ApplianceOverrides(values: [key: value])
        #expect(change == .set(overrides))
        #expect(overrides.overridden == [key])
        let applied = overrides.applied(to: ApplianceSettings(id: "a", name: "A"))
        #expect(setting.value(in: applied) == value)
        #expect(SettingsJSON.object(applied)[key] == ApplianceSetting.json(value))
        // Kept in the history and read back as it was.
        #expect(try SettingsJSON.overrides(stored: SettingsJSON.stored(overrides)) == overrides)
    }

    @Test(arguments: tunable)
    func aPatchRefusesABadValueNamingTheKey(key: String) throws {
        let setting = try setting(key)
        var bodies = [Self.outOfRange(setting).json, #"{"a": 1}"#]
        if case .number(let range, 1?) = setting.kind { bodies.append(NumberText.plain(range.lowerBound + 0.5)) }
        if setting.off == nil { bodies.append("null") }
        for json in bodies {
            let error = #expect(throws: ConfigurationError.self) { try SettingsJSON.change(Array(#"{"\#(key)": \#(json)}"#.utf8)) }
            #expect(error?.message.hasPrefix("request body: '\(key)' expects") == true, "\(json): \(error?.message ?? "")")
        }
    }

    @Test func aNullIsTakenOnlyWhereItMeansOff() throws {
        let nullable = ApplianceSetting.tunables.filter { $0.off != nil }.map(\.key)
        #expect(nullable == ["unload_reminder_minutes"])
        let change = try SettingsJSON.change(Array(#"{"unload_reminder_minutes": null}"#.utf8))
        #expect(change == .set(ApplianceOverrides(values: ["unload_reminder_minutes": .number(0)])))
        var washer = ApplianceSettings(id: "washer", name: "Washer")
        #expect(SettingsJSON.object(washer)["unload_reminder_minutes"] == .int(30), "shown as in effect")
        washer.unloadReminderMinutes = 0
        #expect(SettingsJSON.object(washer)["unload_reminder_minutes"] == .null, "off is null")
    }

    @Test func aSettingNotTunableIsNoKeyOfAPatch() throws {
        for setting in ApplianceSetting.all where !setting.tunable {
            let error = #expect(throws: ConfigurationError.self) {
                try SettingsJSON.change(Array(#"{"\#(setting.key)": \#(Self.json(Self.good(setting)))}"#.utf8))
            }
            #expect(error?.message.contains("unknown key '\(setting.key)'") == true, "\(error?.message ?? "")")
        }
    }

    @Test func theAPIShowsEveryTunableSettingInEffectAndServesTheirDeclarations() throws {
        let settings = ApplianceSettings(id: "dishwasher", name: "Dishwasher")
        let shown = SettingsJSON.object(settings)
        #expect(shown.keys == ["progress_steps"] + Self.tunable)
        #expect(ApplianceOverrides.keys == shown.keys)
        for setting in ApplianceSetting.tunables {
            #expect(shown[setting.key] == ApplianceSetting.json(setting.defaultValue), "\(setting.key)")
        }
        guard case .array(let served) = SettingsJSON.declarations else { Issue.record("not a list"); return }
        #expect(ApplianceSetting.tunables.filter { !$0.hasEntity }.map(\.key) == ["dryer"], "the integration's options set it")
        #expect(served.count == ApplianceSetting.declared.count)
        let rows = served.compactMap { if case .object(let row) = $0 { row } else { nil } }
        #expect(rows.map { $0["key"] } == ApplianceSetting.declared.map { JSONValue.string($0.key) })
        #expect(rows.first?.compactJSON()
            == #"{"key":"notify_start","entity_key":"notify_start","type":"flag","unit":null,"off":null,"default":true}"#)
        #expect(rows.first { $0["key"] == .string("unload_reminder_minutes") }?.compactJSON()
            == #"{"key":"unload_reminder_minutes","entity_key":"unload_reminder","type":"number","min":0,"max":1440,"step":1,"#
            + #""unit":"min","off":0,"default":null}"#)
    }

    @Test func theAddOnTypeFollowsTheKind() throws {
        #expect(try setting("notify_end").addOnType == "bool?")
        #expect(try setting("cycle_push_limit").addOnType == "int(3,1000)?")
        #expect(try setting("settle_seconds").addOnType == "int(0,3600)?")
        #expect(try setting("temperature_step").addOnType == "float(0.1,1000)?")
        #expect(try setting("relevance").addOnType == "float(0,1)?")
    }
}
