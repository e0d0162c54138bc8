import CycleCore
import CycleHistory
import CycleService
import FoundationEssentials

/// Where each tunable setting of an appliance comes from (docs/API.md, "Settings"): a
/// change made through the local API (kept in the history), the configuration, or the
/// default. `cycletrack check` shows one row per setting.
enum SettingsSources {
    /// One setting: its key, its value in effect (as the API shows it) and its source.
    struct Row: Equatable {
        var key: String
        var value: String
        var source: String
    }

    static func rows(base: ApplianceSettings, defaults: ApplianceSettings, overrides: ApplianceOverrides) -> [Row] {
        let effective = SettingsJSON.object(overrides.applied(to: base))
        let configured = SettingsJSON.object(base)
        let plain = SettingsJSON.object(defaults)
        return ApplianceOverrides.keys.map { key in
            let source = overrides.overridden.contains(key) ? "api override" : configured[key] != plain[key] ? "config" : "default"
            return Row(key: key, value: effective[key]?.compactJSON() ?? "null", source: source)
        }
    }

    /// The overrides stored in the history at `database`, by appliance; none when there
    /// is no history yet; nil (with the reason) when it can't be read.
    static func stored(_ database: String) -> (overrides: [String: ApplianceOverrides], problem: String?) {
        guard FileManager.default.fileExists(atPath: database) else { return ([:], nil) }
        do {
            let store = try HistoryStore(path: database, mode: .readOnly)
            var all: [String: ApplianceOverrides] = [:]
            for (id, values) in try store.settingsOverrides() { all[id] = try SettingsJSON.overrides(stored: values) }
            return (all, nil)
        } catch {
            return ([:], "\(error)")
        }
    }
}
