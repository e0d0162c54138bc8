import CycleCore
import CycleHistory
import FoundationEssentials
import HomeAssistantAPI

/// Reading every followed entity at once: the poll, and the full read after each
/// subscription; what HA's answers become for the household.
extension Runner {
    // MARK: Polling

    func poll() async -> Date {
        if let failedUntil = await readAll() { return failedUntil }
        let running = household.openCycles > 0
        return clock.now().addingTimeInterval(running ? options.activePollSeconds : options.idlePollSeconds)
    }

    /// Reads every followed entity in one request and hands every appliance's
    /// observation to the household. Nil when HA answered; else when to try again.
    func readAll() async -> Date? {
        var entities = followedEntities()
        // cycletrack's own entity is read too: gone means HA restarted and forgot it.
        if publisher?.posts == true { entities.append(Self.ownEntity) }
        polls += 1
        let readings: [String: EntityState?]
        do {
            readings = try await source.read(entities)
        } catch {
            // The backoff counts from when the failed request ended: a hanging HA
            // must not be asked again the moment its timeout passes.
            return pollFailed(error, now: clock.now())
        }
        if let since = outageSince {
            log.info("ha_back", ["after_seconds": String(NumberText.int(clock.now().timeIntervalSince(since)) ?? 0)])
            outageSince = nil
            sender.saidUnauthorized = false
        }
        pollBackoff.reset()
        if let publisher, publisher.posts, case nil? = readings[Self.ownEntity] { publisher.forgetPosted() }
        known = readings
        let at = clock.now()
        log.debug("polled", ["entities": String(entities.count)])
        var observations: [(applianceID: String, observation: Observation)] = []
        for id in order {
            guard let appliance = appliances[id] else { continue }
            observations.append((id, observation(of: appliance, in: readings, at: at)))
        }
        resyncDue = !(await drive(.polled(observations)))
        await publisher?.publish(household, at: clock.now())
        return nil
    }

    /// The entity cycletrack keeps in HA for the day's calls.
    static let ownEntity = "sensor.cycletrack_pushes_today"

    /// The last ended cycle of each appliance, for its entity's attributes.
    func rememberLastCycles() {
        guard let publisher else { return }
        for id in household.order {
            do {
                if let cycle = try store.cycles(matching: CycleFilter(applianceID: id, limit: 5)).first(where: { $0.outcome != nil }) {
                    publisher.remember(cycle)
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
            raw[role] = reading.state
            if let unit = reading.unit { units[role] = unit }
        }
        return Observation(at: at, raw: raw, units: units)
    }

    func pollFailed(_ failure: SourceFailure, now: Date) -> Date {
        if outageSince == nil {
            outageSince = now
            log.warning("ha_unreachable", ["error": failure.message, "action": "retrying with backoff; logged once per outage"])
        }
        if failure.isUnauthorized, !sender.saidUnauthorized {
            sender.saidUnauthorized = true
            log.error("ha_token_refused", ["error": failure.message,
                                           "action": "check the long-lived access token; retrying every few minutes"])
        }
        var wait = pollBackoff.next(jitter: Double.random(in: 0..<1, using: &jitter))
        if failure.isUnauthorized { wait = max(wait, 60) }
        return now.addingTimeInterval(wait)
    }
}
