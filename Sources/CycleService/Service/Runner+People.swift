import CycleCore
import FoundationEssentials
import HomeAssistantAPI

/// The people's `person.*` entities (docs/PUSHES.md, "Presence"): followed like the
/// appliances' entities, read with them, and handed to the household as observations of
/// their own, before the appliances' of the same moment.
extension Runner {
    var personEntities: [String] { parts.options.delivery.people.map(\.entity) }

    /// The people's states in `readings` as the household's event at `at`; nil when no
    /// one is followed.
    func people(in readings: [String: EntityState?], at: Date) -> HouseholdEvent? {
        guard !personEntities.isEmpty else { return nil }
        var states: [String: String] = [:]
        for entity in personEntities {
            // A person HA doesn't know (or hasn't read yet) counts as away.
            states[entity] = (readings[entity].flatMap { $0?.value } ?? .unknown).text
        }
        return .people(states, at: at)
    }
}
