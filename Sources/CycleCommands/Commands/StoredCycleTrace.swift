import CycleHistory
import HomeAssistantAPI
import CycleService
import CycleCore
import FoundationEssentials

/// A cycle read back from the database as observations, for `replay --cycle ID`.
struct StoredCycleTrace {
    var applianceID: String
    var observations: [Observation]
    /// The brand profile the appliance was recorded with; nil when the store doesn't say.
    var profile: BrandProfile?

    static func load(cycleID: Int64, databasePath: String) throws(CommandError) -> StoredCycleTrace {
        do {
            let store = try HistoryStore(path: databasePath, mode: .readOnly)
            guard let cycle = try store.cycle(id: cycleID) else {
                throw CommandError(.config, "\(databasePath): no cycle \(cycleID); 'cycletrack query --db \(databasePath)' lists them")
            }
            let records = try store.observations(cycleID: cycleID)
            let observations = records.map { record in
                var raw: [Role: String] = [:]
                for (key, value) in record.states {
                    if let role = Role(rawValue: key) { raw[role] = value }
                }
                var units: [Role: String] = [:]
                for (key, value) in record.units {
                    if let role = Role(rawValue: key) { units[role] = value }
                }
                return Observation(at: record.at, raw: raw, units: units)
            }
            let profile = try store.applianceProfile(id: cycle.applianceID).flatMap(BrandProfile.init(rawValue:))
            return StoredCycleTrace(applianceID: cycle.applianceID, observations: observations, profile: profile)
        } catch let error as CommandError {
            throw error
        } catch {
            throw CommandError(.config, "\(error)")
        }
    }
}
