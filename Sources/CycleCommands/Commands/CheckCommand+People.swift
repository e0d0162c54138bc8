import CycleCore
import CycleHistory
import CycleService
import FoundationEssentials
import HomeAssistantAPI

/// `check`'s rows for the people (docs/PUSHES.md, "Presence"): each configured `person.*`
/// entity exists in Home Assistant, and the household's and each person's settings in
/// effect with their source (config, api override, default), as for the appliances.
extension CheckCommand {
    /// The people's rows, their entities read from Home Assistant and the API's changes
    /// from the history `run` uses.
    func peopleRows(_ config: Configuration, client: HomeAssistantClient) async -> [Row] {
        let people = config.delivery.people
        let database = environment["CYCLETRACK_DB"] ?? config.database ?? "cycletrack.sqlite"
        let stored = Self.storedHousehold(database)
        var rows: [Row] = []
        if !people.isEmpty {
            do {
                rows += Self.presenceRows(people, states: try await client.states(of: people.map(\.entity)))
            } catch {
                rows.append(Row(check: "people", ok: false, detail: error.description))
            }
        }
        if let problem = stored.problem { rows.append(Row(check: "household settings", ok: nil, detail: "API changes not read (\(problem))")) }
        return rows + Self.householdRows(config.delivery, overrides: stored.overrides)
    }

    /// One row per person: their entity and its state, or that Home Assistant has no such entity.
    static func presenceRows(_ people: [PersonSettings], states: [String: EntityState?]) -> [Row] {
        people.enumerated().map { index, person in
            let found = states[person.entity] ?? nil
            return Row(check: "  \(person.entity)", ok: found != nil,
                             detail: found.map { "\(person.entity) = \($0.value)" }
                                 ?? "\(person.entity) (people[\(index)].entity) does not exist in Home Assistant")
        }
    }

    /// The household's quiet hours and each person's kinds, quiet hours and language in
    /// effect, with their sources; none when neither the configuration nor the API set any.
    static func householdRows(_ base: DeliverySettings, overrides: DeliveryOverrides) -> [Row] {
        guard base.quietHours != nil || !base.people.isEmpty || overrides != DeliveryOverrides() else { return [] }
        let snapshot = HouseholdSnapshot(base: base, overrides: overrides)
        var rows = [row("quiet_hours", snapshot.settings, snapshot.sources, key: "quiet_hours")]
        for person in snapshot.people {
            rows += PersonOverrides.keys.map { row("  \(person.entity).\($0)", person.settings, person.sources, key: $0) }
        }
        return rows
    }

    private static func row(_ check: String, _ settings: JSONObject, _ sources: [String: HouseholdSnapshot.Source],
                            key: String) -> Row {
        let source = switch sources[key] ?? .default {
        case .api: "api override"
        case .config: "config"
        case .default: "default"
        }
        return Row(check: check, ok: true, detail: "\(settings[key]?.compactJSON() ?? "null") (\(source))")
    }

    /// The household's settings stored in the history at `database`; none when there is
    /// no history yet, or (with the reason) when it can't be read.
    static func storedHousehold(_ database: String) -> (overrides: DeliveryOverrides, problem: String?) {
        guard FileManager.default.fileExists(atPath: database) else { return (DeliveryOverrides(), nil) }
        do {
            let store = try HistoryStore(path: database, mode: .readOnly)
            return (try HouseholdJSON.overrides(stored: try store.householdOverrides()), nil)
        } catch {
            return (DeliveryOverrides(), "\(error)")
        }
    }
}
