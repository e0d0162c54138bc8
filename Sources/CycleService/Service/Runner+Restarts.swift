import CycleCore
import CycleHistory
import FoundationEssentials
import HomeAssistantAPI

/// What a start takes up from the last run, and appliances that come and go.
extension Runner {
    // MARK: Restarts and discovery

    func recoverUnfinishedPushes() {
        do {
            parts.sender.recover(try parts.store.unfinishedPushes())
        } catch {
            parts.log.error("store_read_failed", ["error": "\(error)", "effect": "calls left from the last run are not taken up now"])
        }
    }

    /// A cycle left open by an appliance no longer followed (removed from the config,
    /// not discovered yet) is followed without entities: it shows as unavailable from
    /// now on, so it ends as lost after `lost_after_minutes` (its activity cleared if a
    /// start went out), unless the appliance is followed again before that.
    func followUntrackedOpenCycles() async {
        let open: [CycleRecord]
        let names: [String: String]
        do {
            open = try parts.store.openCycles().filter { !household.follows($0.applianceID) }
            names = open.isEmpty ? [:] : try parts.store.applianceNames()
        } catch {
            parts.log.error("store_read_failed", ["error": "\(error)"])
            return
        }
        let now = parts.clock.now()
        for cycle in open where !household.follows(cycle.applianceID) {
            let settings = parts.options.untrackedSettings(cycle.applianceID, names[cycle.applianceID])
            let saved: ApplianceTracker.Snapshot?
            do { saved = try parts.recorder.restore(cycle.applianceID, log: parts.log) } catch {
                parts.log.error("store_read_failed", ["error": "\(error)"])
                continue
            }
            household.follow(settings, restoring: saved)
            parts.log.warning("open_cycle_untracked", [
                "appliance": cycle.applianceID, "cycle": String(cycle.id), "started": ISOTime.format(cycle.startedAt),
                "effect": "ends as lost in \(NumberText.plain(settings.lostAfterMinutes)) min unless the appliance is followed again",
            ])
            await drive(.observed(cycle.applianceID, Observation(at: now, raw: [:])))
        }
    }

    func adopt(_ found: [TrackedAppliance]) async {
        for appliance in found where appliances[appliance.id] == nil {
            parts.log.info("appliance_discovered", ["appliance": appliance.id, "name": appliance.settings.name])
            if household.follows(appliance.id) {
                // An open cycle of an appliance that was not followed: it is back, with its settings.
                household.follow(Self.learning(appliance.settings, store: parts.store, log: parts.log))
            } else {
                let saved: ApplianceTracker.Snapshot?
                do { saved = try parts.recorder.restore(appliance.id, log: parts.log) } catch {
                    parts.log.error("store_read_failed", ["error": "\(error)", "effect": "the appliance starts fresh"])
                    saved = nil
                }
                household.follow(Self.learning(appliance.settings, store: parts.store, log: parts.log), restoring: saved,
                                 history: parts.recorder.finishHistory(appliance.id, log: parts.log))
            }
        }
        for appliance in found { appliances[appliance.id] = appliance }
        if let following = feed.slot.entities, followedEntities() != following {
            // New entities to follow: a fresh subscription (and full read) takes them in.
            await perform(feed.path.entitiesChanged(at: parts.clock.now()))
        }
    }
}
