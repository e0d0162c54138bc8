import CycleCore
import FoundationEssentials

/// A cycle read back from the history as the observations it was recorded from, with
/// the brand profile its appliance had: what `replay --cycle ID` replays, and what a
/// replay of a stored cycle is compared with.
public struct StoredCycleTrace: Sendable {
    public var applianceID: String
    public var observations: [Observation]
    /// The brand profile the appliance was recorded with; nil when the store doesn't say.
    public var profile: BrandProfile?

    /// Cycle `cycleID` of `store`; nil when the store has no such cycle.
    public static func load(cycleID: Int64, from store: HistoryStore) throws(StoreError) -> StoredCycleTrace? {
        guard let cycle = try store.cycle(id: cycleID) else { return nil }
        let observations = try store.observations(cycleID: cycleID).map { record in
            Observation(at: record.at, raw: roles(record.states), units: roles(record.units))
        }
        let profile = try store.applianceProfile(id: cycle.applianceID).flatMap(BrandProfile.init(rawValue:))
        return StoredCycleTrace(applianceID: cycle.applianceID, observations: observations, profile: profile)
    }

    /// The values by role; a key that names no role (a newer version's) is left out.
    private static func roles(_ values: [String: String]) -> [Role: String] {
        var byRole: [Role: String] = [:]
        for (key, value) in values {
            if let role = Role(rawValue: key) { byRole[role] = value }
        }
        return byRole
    }
}
