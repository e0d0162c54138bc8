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
        var overrides = ApplianceOverrides()
        if object.has("progress_steps") {
            guard let steps = object.tree("progress_steps") else {
                throw object.invalid("progress_steps", "expects a value, found null ({\"reset\": true} goes back to the configuration)")
            }
            overrides.steps = try ConfigurationLoader.readSteps(steps, file: object.file, path: "progress_steps")
        }
        for setting in ApplianceSetting.tunables {
            overrides.values[setting.key] = try setting.readChange(object)
        }
        return .set(overrides)
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

    /// The stored rows: any number in range, and null where it means off.
    private static func overrides(_ object: ObjectReader) throws(ConfigurationError) -> ApplianceOverrides {
        var overrides = ApplianceOverrides()
        if let steps = object.tree("progress_steps") {
            overrides.steps = try ConfigurationLoader.readSteps(steps, file: object.file, path: "progress_steps")
        }
        for setting in ApplianceSetting.tunables where object.has(setting.key) {
            overrides.values[setting.key] = try setting.read(object) ?? setting.off
        }
        return overrides
    }

    /// The overrides as an object of the keys they set.
    static func object(_ overrides: ApplianceOverrides) -> JSONObject {
        var object = JSONObject()
        if let steps = overrides.steps { object["progress_steps"] = .object(stepsObject(steps)) }
        for setting in ApplianceSetting.tunables {
            if let value = overrides.values[setting.key] { object[setting.key] = ApplianceSetting.json(value) }
        }
        return object
    }

    /// The settings in effect, every key (docs/API.md, `Settings`).
    public static func object(_ settings: ApplianceSettings) -> JSONObject {
        JSONObject([("progress_steps", .object(stepsObject(settings.steps)))]
                   + ApplianceSetting.tunables.map { ($0.key, $0.json(settings)) })
    }

    /// The tunable settings with an entity, as `GET /api/v1/service` serves them (`appliance_settings`).
    public static var declarations: JSONValue {
        .array(ApplianceSetting.declared.map { .object($0.declaration) })
    }

    static func stepsObject(_ steps: ProgressSteps) -> JSONObject {
        switch steps {
        case .regular(let step, let fineFrom, let fineStep):
            JSONObject([("step", .int(step)), ("fine_from", .int(fineFrom)), ("fine_step", .int(fineStep))])
        case .at(let list):
            JSONObject([("at", .array(list.map(JSONValue.int)))])
        }
    }
}
