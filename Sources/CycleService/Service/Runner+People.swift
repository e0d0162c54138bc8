import CycleCore
import FoundationEssentials
import HomeAssistantAPI

/// The people's `person.*` entities (docs/PUSHES.md, "Presence"): followed like the
/// appliances' entities, read with them, and handed to the household as observations of
/// their own, before the appliances' of the same moment.
extension Runner {
    var personEntities: [String] { options.delivery.people.map(\.entity) }

    /// Hands the people's states in `readings` to the household; false when the store
    /// refused what that decided (nothing changed, the same change is taken up again).
    func drivePeople(_ readings: [String: EntityState?], at: Date) async -> Bool {
        guard !personEntities.isEmpty else { return true }
        var states: [String: String] = [:]
        for entity in personEntities {
            // A person HA doesn't know (or hasn't read yet) counts as away.
            states[entity] = (readings[entity].flatMap { $0?.value } ?? .unknown).text
        }
        // Published with the appliances' observation of the same moment: once per poll.
        return await drive(.people(states, at: at), publishing: false) != .refused
    }
}
