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
        if parts.poster?.posts == true { entities.append(Self.ownEntity) }
        feed.shown.readStarted()
        let answer: [String: EntityState?]
        do {
            answer = try await parts.source.read(entities)
        } catch {
            feed.shown.readFailed()
            return error
        }
        let readings = feed.shown.read(answer)
        if let poster = parts.poster, poster.posts, case nil? = readings[Self.ownEntity] { poster.forgetPosted() }
        parts.log.debug("polled", ["entities": String(entities.count)])
        await observe(nil, at: parts.clock.now())
        return nil
    }

    /// The one way what HA shows reaches the household, after a full read (`changed` nil)
    /// or a burst of events: the people, then the appliances with an entity among
    /// `changed` (all of them after a read, or when a resync is due), observed at `at`;
    /// published once, also when that decided nothing (not when the store refused before
    /// anything was kept). Refused: a resync is due.
    func observe(_ changed: Set<String>?, at: Date) async {
        let all = changed == nil || loop.outage.resyncDue
        let touched = { (entities: [String]) in all || entities.contains { changed?.contains($0) == true } }
        var events: [HouseholdEvent] = []
        if touched(personEntities), let people = people(in: feed.shown.states, at: at) { events.append(people) }
        var observations: [(applianceID: String, observation: Observation)] = []
        for id in household.order {
            guard let appliance = appliances[id], touched(Array(appliance.entities.values)) else { continue }
            observations.append((id, observation(of: appliance, in: feed.shown.states, at: at)))
        }
        if !observations.isEmpty {
            if let changed { parts.log.debug("changed", ["entities": String(changed.count), "appliances": String(observations.count)]) }
            events.append(.polled(observations))
        }
        guard all || !events.isEmpty else { return }
        let driven = await drive(events)
        loop.outage.observed(recorded: driven != .refused)
        // Once for the poll or burst: `drive` published what it kept.
        if driven == .unchanged { await publish([]) }
    }

    /// The entity cycletrack keeps in HA for the day's calls.
    static let ownEntity = HomeAssistantPoster.pushesTodayEntityID

    /// The last ended cycle of each appliance, for its entity's attributes.
    func rememberLastCycles() {
        for id in household.order {
            do {
                if let cycle = try parts.store.cycles(matching: CycleFilter(applianceID: id, limit: 5)).first(where: { $0.outcome != nil }) {
                    snapshots.remember(cycle)
                }
            } catch {
                parts.log.error("store_read_failed", ["error": "\(error)", "effect": "the last cycle is not shown in HA until the next ends"])
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
                    parts.log.warning("entity_missing", ["appliance": appliance.id, "role": role.rawValue, "entity": entity,
                                                   "effect": "treated as unavailable; check the entity id"])
                }
                continue
            }
            raw[role] = reading.roleText
            if let unit = reading.unit { units[role] = unit }
        }
        return Observation(at: at, raw: raw, units: units)
    }
}
