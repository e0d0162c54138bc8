import CycleCore
import FoundationEssentials

/// The household's and the people's settings in effect, each with where it came from
/// (docs/API.md, "The household"): what `GET /api/v1/household` answers and `check` shows.
public struct HouseholdSnapshot: Sendable, Equatable {
    /// Where a setting in effect came from.
    public enum Source: String, Sendable {
        /// Changed through the local API (kept in the history).
        case api
        case config
        case `default`
    }

    /// One followed person.
    public struct Person: Sendable, Equatable {
        public var entity: String
        public var target: [String]
        /// `kinds`, `quiet_hours`, `language`.
        public var settings: JSONObject
        public var sources: [String: Source]
    }

    /// `quiet_hours`.
    public var settings: JSONObject
    public var sources: [String: Source]
    public var people: [Person]
    /// The built-in text sets a person's `language` may name.
    public var languages: [String] { Texts.languages }

    /// The settings of `base` (the configuration's) with `overrides` applied.
    public init(base: DeliverySettings, overrides: DeliveryOverrides) {
        let effective = overrides.applied(to: base)
        settings = HouseholdJSON.object(effective)
        sources = ["quiet_hours": overrides.quietHours != nil ? .api : base.quietHours != nil ? .config : .default]
        people = zip(base.people, effective.people).map { configured, person in
            let changed = overrides.people[person.entity]?.overridden ?? []
            let plain = HouseholdJSON.object(PersonSettings(entity: person.entity))
            let own = HouseholdJSON.object(configured)
            var sources: [String: Source] = [:]
            for key in PersonOverrides.keys {
                sources[key] = changed.contains(key) ? .api : own[key] != plain[key] ? .config : .default
            }
            return Person(entity: person.entity, target: person.target, settings: HouseholdJSON.object(person), sources: sources)
        }
    }

    /// The person followed as `entity`.
    public func person(_ entity: String) -> Person? { people.first { $0.entity == entity } }
}
