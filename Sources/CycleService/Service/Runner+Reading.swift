import CycleCore
import CycleHistory
import FoundationEssentials
import HomeAssistantAPI

/// Reading every followed entity at once: the poll, and the full read after each
/// subscription; what HA's answers become for the household.
extension Runner {
    // MARK: Reading

    /// Reads every followed entity in one request and hands every appliance's
    /// observation to the household. Nil when HA answered; else why not.
    func readAll() async -> SourceFailure? {
        var entities = followedEntities()
        // cycletrack's own entity is read too: gone means HA restarted and forgot it.
        if poster?.posts == true { entities.append(Self.ownEntity) }
        polls += 1
        var readings: [String: EntityState?]
        deliveredDuringRead = [:]
        defer { deliveredDuringRead = nil }
        do {
            readings = try await source.read(entities)
        } catch {
            return error
        }
        // An event that came while the read was under way is newer than what it saw, or
        // as new: it stands (a change after it comes as an event of its own).
        for (entity, state) in deliveredDuringRead ?? [:] { readings.updateValue(state, forKey: entity) }
        if let poster, poster.posts, case nil? = readings[Self.ownEntity] { poster.forgetPosted() }
        known = readings
        let at = clock.now()
        log.debug("polled", ["entities": String(entities.count)])
        guard await drivePeople(readings, at: at) else {
            resyncDue = true
            return nil
        }
        var observations: [(applianceID: String, observation: Observation)] = []
        for id in household.order {
            guard let appliance = appliances[id] else { continue }
            observations.append((id, observation(of: appliance, in: readings, at: at)))
        }
        resyncDue = await drive(.polled(observations), publishing: false) == .refused
        await poster?.publish(household, snapshots: snapshots, at: clock.now())
        return nil
    }

    /// The entity cycletrack keeps in HA for the day's calls.
    static let ownEntity = HomeAssistantPoster.pushesTodayEntityID

    /// The last ended cycle of each appliance, for its entity's attributes.
    func rememberLastCycles() {
        for id in household.order {
            do {
                if let cycle = try store.cycles(matching: CycleFilter(applianceID: id, limit: 5)).first(where: { $0.outcome != nil }) {
                    snapshots.remember(cycle)
                }
            } catch {
                log.error("store_read_failed", ["error": "\(error)", "effect": "the last cycle is not shown in HA until the next ends"])
                return
            }
        }
    }

    func observation(of appliance: TrackedAppliance, in readings: [String: EntityState?], at: Date) -> Observation {
        var raw: [Role: String] = [:]
        var units: [Role: String] = [:]
        for (role, entity) in appliance.entities {
            guard let found = readings[entity] else { continue }
            guard let reading = found else {
                if warned.insert("missing\u{1F}" + entity).inserted {
                    log.warning("entity_missing", ["appliance": appliance.id, "role": role.rawValue, "entity": entity,
                                                   "effect": "treated as unavailable; check the entity id"])
                }
                continue
            }
            raw[role] = reading.value.text
            if let unit = reading.unit { units[role] = unit }
        }
        return Observation(at: at, raw: raw, units: units)
    }
}
