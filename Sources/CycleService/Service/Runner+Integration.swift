import CycleCore
import CycleHistory
import FoundationEssentials

/// One set of entities in HA (docs/DECISIONS.md, "One set of entities"): the integration
/// announces itself before its platforms make entities, and the service takes its own
/// REST states out of HA first, for good.
extension Runner {
    /// An integration announced itself (`configured`) or was removed. Announced: recorded
    /// first (durable, so no restart posts again), then every REST state the service may
    /// have posted is removed; refused while HA keeps one (the integration tries again, so
    /// none of its entity ids is taken). Removed: the states are posted again at once.
    func integration(configured: Bool) async -> CommandOutcome {
        do {
            if configured { try parts.store.recordIntegration(at: parts.clock.now()) } else { try parts.store.forgetIntegration() }
        } catch {
            parts.log.error("store_write_failed", ["error": "\(error)", "action": "the integration is not recorded"])
            return .refused("the history database refused to record the integration: \(error)")
        }
        guard configured else {
            parts.log.info("integration_removed", ["effect": "sensor.cycletrack_* are posted to Home Assistant again"])
            parts.poster?.integrationRemoved()
            await publish([])
            return .integration(configured: false)
        }
        let left = await parts.poster?.integrationAnnounced(appliances: household.order) ?? []
        guard left.isEmpty else {
            return .refused("Home Assistant did not remove \(left.joined(separator: ", ")) yet; try again")
        }
        do {
            try parts.store.recordRestStatesRemoved()
        } catch {
            parts.log.error("store_write_failed", ["error": "\(error)", "action": "the integration is asked to try again"])
            return .refused("the history database refused to record the REST states removed: \(error)")
        }
        parts.log.info("integration_announced", ["effect": "sensor.cycletrack_* are not posted to Home Assistant"])
        return .integration(configured: true)
    }
}
