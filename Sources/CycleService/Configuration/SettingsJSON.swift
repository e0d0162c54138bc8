import CycleCore
import FoundationEssentials

/// The tunable settings as JSON (docs/API.md, "Settings"): read from a `PATCH` body and
/// from the history's `appliance_settings` rows (the same shape, key by key), written
/// for the API. Read as strictly as the configuration is, errors naming the key.
public enum SettingsJSON {
    /// Where a `PATCH` body's errors say they are.
    public static let bodyPlace = "request body"

    /// The change a `PATCH /api/v1/appliances/{id}/settings` body asks for.
    public static func change(_ body: [UInt8]) throws(ConfigurationError) -> SettingsChange {
        let tree: JSONTree
        do {
            tree = try JSONReader.parse(body)
        } catch {
            throw .config("\(bodyPlace): not JSON (line \(error.line), column \(error.column): \(error.message))")
        }
        let object = try ObjectReader(tree, file: bodyPlace, path: "", allowed: ApplianceOverrides.keys + ["reset"])
        if object.has("reset") {
            guard try object.bool("reset") == true, object.keyCount == 1 else {
                throw object.invalid("reset", "takes true alone: {\"reset\": true} drops every change of the appliance")
            }
            return .reset
        }
        try refuseLooseValues(object)
        return .set(try overrides(object))
    }

    /// What the stored rows may hold but a `PATCH` may not: a null for a key that has no
    /// "off" (it would change nothing, silently), and minutes that aren't whole.
    private static func refuseLooseValues(_ object: ObjectReader) throws(ConfigurationError) {
        for key in ["progress_steps", "notify_start", "notify_progress", "notify_end", "live_activity"]
        where object.has(key) && object.tree(key) == nil {
            throw object.invalid(key, "expects a value, found null ({\"reset\": true} goes back to the configuration)")
        }
        _ = try object.int("unload_reminder_minutes", in: 0...1440)
    }

    /// The overrides stored for one appliance (key to JSON text), as `replaceSettingsOverrides` keeps them.
    static func stored(_ overrides: ApplianceOverrides) -> [String: String] {
        var values: [String: String] = [:]
        for (key, value) in object(overrides).pairs { values[key] = value.compactJSON() }
        return values
    }

    /// The overrides from their stored rows.
    public static func overrides(stored values: [String: String]) throws(ConfigurationError) -> ApplianceOverrides {
        let text = "{" + values.keys.sorted().map { "\(JSONValue.quoted($0)):\(values[$0] ?? "null")" }.joined(separator: ",") + "}"
        let tree: JSONTree
        do { tree = try JSONReader.parse(Array(text.utf8)) } catch {
            throw .config("appliance_settings: a stored value is not JSON (\(error.message))")
        }
        return try overrides(try ObjectReader(tree, file: "appliance_settings", path: "", allowed: ApplianceOverrides.keys))
    }

    private static func overrides(_ object: ObjectReader) throws(ConfigurationError) -> ApplianceOverrides {
        var overrides = ApplianceOverrides()
        if let steps = object.tree("progress_steps") {
            overrides.steps = try ConfigurationLoader.readSteps(steps, file: object.file, path: "progress_steps")
        }
        overrides.notifyStart = try object.bool("notify_start")
        overrides.notifyProgress = try object.bool("notify_progress")
        overrides.notifyEnd = try object.bool("notify_end")
        overrides.liveActivity = try object.bool("live_activity")
        if object.has("unload_reminder_minutes") {
            overrides.unloadReminderMinutes = try object.number("unload_reminder_minutes", in: 0...1440) ?? 0
        }
        return overrides
    }

    /// The overrides as an object of the keys they set.
    static func object(_ overrides: ApplianceOverrides) -> JSONObject {
        var object = JSONObject()
        if let steps = overrides.steps { object["progress_steps"] = .object(stepsObject(steps)) }
        if let flag = overrides.notifyStart { object["notify_start"] = .bool(flag) }
        if let flag = overrides.notifyProgress { object["notify_progress"] = .bool(flag) }
        if let flag = overrides.notifyEnd { object["notify_end"] = .bool(flag) }
        if let flag = overrides.liveActivity { object["live_activity"] = .bool(flag) }
        if let minutes = overrides.unloadReminderMinutes { object["unload_reminder_minutes"] = number(minutes) }
        return object
    }

    /// The settings in effect, every key (docs/API.md, `Settings`).
    public static func object(_ settings: ApplianceSettings) -> JSONObject {
        let minutes = settings.unloadReminderMinutesInEffect
        return JSONObject([
            ("progress_steps", .object(stepsObject(settings.steps))),
            ("notify_start", .bool(settings.notifyStart)), ("notify_progress", .bool(settings.notifyProgress)),
            ("notify_end", .bool(settings.notifyEnd)), ("live_activity", .bool(settings.liveActivity)),
            ("unload_reminder_minutes", minutes > 0 ? number(minutes) : .null),
        ])
    }

    static func stepsObject(_ steps: ProgressSteps) -> JSONObject {
        switch steps {
        case .regular(let step, let fineFrom, let fineStep):
            JSONObject([("step", .int(step)), ("fine_from", .int(fineFrom)), ("fine_step", .int(fineStep))])
        case .at(let list):
            JSONObject([("at", .array(list.map(JSONValue.int)))])
        }
    }

    private static func number(_ value: Double) -> JSONValue {
        value == value.rounded() ? NumberText.int(value).map(JSONValue.int) ?? .double(value) : .double(value)
    }
}
