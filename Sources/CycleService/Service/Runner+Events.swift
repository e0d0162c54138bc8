import CycleCore
import CycleHistory
import FoundationEssentials
import HomeAssistantAPI

/// Events mode: subscribing to HA's changes, taking them in, and falling back to polling
/// (docs/CYCLES.md, "Where the state comes from").
extension Runner {
    // MARK: Events from Home Assistant

    /// Subscribes to HA's changes, then reads every state once (a change during the gap
    /// is never missed). When no subscription can be had but HA answers, polling stands
    /// in, said once, and events are tried again later. Returns the next poll, if polling.
    func subscribe() async -> Date? {
        guard let events else { return nil }
        nextSubscribe = nil
        let entities = followedEntities()
        let opened: SourceSubscription
        do {
            opened = try await events.subscribe(entities)
        } catch {
            // Is HA there at all? The read says, and stands in for the events meanwhile.
            let next = await poll()
            if outageSince == nil {
                if !saidEventsUnavailable {
                    saidEventsUnavailable = true
                    log.warning("events_unavailable", [
                        "error": error.message,
                        "action": "polling every \(NumberText.plain(options.activePollSeconds)) s while a cycle runs, "
                            + "\(NumberText.plain(options.idlePollSeconds)) s otherwise; trying events again every "
                            + "\(NumberText.plain(options.retryEventsSeconds / 60)) min",
                    ])
                }
                pollingForEvents = true
                nextSubscribe = clock.now().addingTimeInterval(options.retryEventsSeconds)
            } else {
                nextSubscribe = next
            }
            return pollingForEvents ? next : nil
        }
        subscription = opened
        subscribedEntities = entities
        generation += 1
        let number = generation
        log.info("events_connected", ["entities": String(entities.count),
                                      "was": pollingForEvents ? "polling" : "starting"])
        pollingForEvents = false
        saidEventsUnavailable = false
        reader = Task { [weak self] in
            do {
                for try await event in opened.events { await self?.deliver(event) }
                await self?.subscriptionEnded(number, nil)
            } catch {
                await self?.subscriptionEnded(number, "\(error)")
            }
        }
        // The full read after subscribing: whatever changed before is seen now.
        if let failedUntil = await readAll() {
            // HA answered the subscription but not the read: start over after the backoff.
            subscription?.close()
            subscription = nil
            reader?.cancel()
            nextSubscribe = failedUntil
        }
        return nil
    }

    func deliver(_ event: SourceEvent) {
        inbox.append(event)
        guard inboxSince == nil else { return }
        // The first of a burst: the loop wakes when the burst has settled.
        inboxSince = clock.now()
        woken = true
        sleeper?.cancel()
    }

    func subscriptionEnded(_ number: Int, _ error: String?) {
        guard subscription != nil, number == generation else { return }
        subscription = nil
        reader = nil
        if let error {
            log.warning("events_lost", ["error": error, "action": "subscribing again"])
        }
        nextSubscribe = clock.now()
        woken = true
        sleeper?.cancel()
    }

    /// Applies the events that arrived: merges the states, and hands the appliances whose
    /// entities changed to the household as one observation each, at this moment.
    func takeEvents() async {
        if let since = inboxSince, clock.now() < since.addingTimeInterval(options.eventSettleSeconds) { return }
        let arrived = inbox
        inbox = []
        inboxSince = nil
        var changed: Set<String> = []
        for event in arrived {
            switch event {
            case .states(let states):
                for (entity, state) in states {
                    if known[entity] != state { changed.insert(entity) }
                    known[entity] = state
                }
            case .registryChanged:
                if rediscover != nil {
                    let soon = clock.now().addingTimeInterval(options.registryDebounceSeconds)
                    if nextDiscovery.map({ $0 > soon }) ?? true { nextDiscovery = soon }
                }
            }
        }
        guard subscription != nil else { return }
        let at = clock.now()
        if resyncDue || options.delivery.people.contains(where: { changed.contains($0.entity) }) {
            guard await drivePeople(known, at: at) else { return }
        }
        var observations: [(applianceID: String, observation: Observation)] = []
        for id in order {
            guard let appliance = appliances[id] else { continue }
            if resyncDue || appliance.entities.values.contains(where: changed.contains) {
                observations.append((id, observation(of: appliance, in: known, at: at)))
            }
        }
        guard !observations.isEmpty else { return }
        log.debug("changed", ["entities": String(changed.count), "appliances": String(observations.count)])
        resyncDue = !(await drive(.polled(observations)))
    }

    func followedEntities() -> [String] {
        Array(Set(order.flatMap { appliances[$0].map { Array($0.entities.values) } ?? [] } + personEntities)).sorted()
    }
}
