import CycleCore
import CycleHistory
import FoundationEssentials
import HomeAssistantAPI

/// Events mode: performing what the ``UpdatePath`` decides (subscribing in the
/// background, reading, closing), taking in what the subscription delivers, and ending
/// bursts as the ``EventBurst`` says (docs/CYCLES.md, "Where the state comes from").
extension Runner {
    /// What reaches the loop from elsewhere: the subscription's outcomes. The loop takes
    /// them in order at its next turn.
    enum Arrival: Sendable {
        case connected(Int, SourceSubscription)
        case connectFailed(Int, SourceFailure)
        /// The subscription ended: why (nil when it just ended), and whether HA said it was stopping.
        case lost(Int, String?, stopping: Bool)
    }

    // MARK: Performing the update path's actions

    func perform(_ actions: [UpdatePath.Action]) async {
        var pending = actions
        while !pending.isEmpty {
            switch pending.removeFirst() {
            case .connect: connect()
            case .disconnect: disconnect()
            case .log(let line): log.write(line)
            case .read: pending += await readAndTell()
            }
        }
    }

    /// Reads every followed entity and tells the update path how it went.
    func readAndTell() async -> [UpdatePath.Action] {
        if let failure = await readAll() {
            // The backoff counts from when the failed request ended: a hanging HA
            // must not be asked again the moment its timeout passes.
            return path.readFailed(failure, at: clock.now(), jitter: Double.random(in: 0..<1, using: &jitter))
        }
        return path.answered(at: clock.now(), cycleRunning: household.openCycles > 0)
    }

    /// Starts subscribing in the background: the loop goes on, and the outcome arrives.
    func connect() {
        guard let events else { return }
        generation += 1
        let number = generation
        let entities = followedEntities()
        connectingEntities = entities
        connector = Task { [weak self] in
            do throws(SourceFailure) {
                let opened = try await events.subscribe(entities)
                if let self { await self.arrive(.connected(number, opened)) } else { opened.close() }
            } catch {
                await self?.arrive(.connectFailed(number, error))
            }
        }
    }

    /// Closes the subscription and gives up an attempt under way: what they send later is ignored.
    func disconnect() {
        generation += 1
        connector?.cancel()
        connector = nil
        subscription?.close()
        subscription = nil
        reader?.cancel()
        reader = nil
    }

    func arrive(_ arrival: Arrival) {
        arrivals.append(arrival)
        wake()
    }

    /// Takes in the subscription's outcomes that arrived since the last turn.
    func takeArrivals() async {
        while !arrivals.isEmpty {
            let arrival = arrivals.removeFirst()
            let now = clock.now()
            switch arrival {
            case .connected(let number, let opened):
                guard number == generation else { opened.close(); continue }
                connector = nil
                subscription = opened
                subscribedEntities = connectingEntities
                listen(to: opened, number: number)
                await perform(path.connected(entities: subscribedEntities.count, at: now))
            case .connectFailed(let number, let failure):
                guard number == generation else { continue }
                connector = nil
                await perform(path.connectFailed(failure, at: now))
            case .lost(let number, let error, let stopping):
                guard number == generation, subscription != nil else { continue }
                subscription = nil
                reader = nil
                await perform(path.lost(error: error, at: now, stopping: stopping, jitter: Double.random(in: 0..<1, using: &jitter)))
            }
        }
    }

    private func listen(to opened: SourceSubscription, number: Int) {
        reader = Task { [weak self] in
            do {
                for try await event in opened.events { await self?.deliver(event) }
                await self?.arrive(.lost(number, nil, stopping: false))
            } catch {
                await self?.arrive(.lost(number, "\(error)", stopping: (error as? SourceFailure)?.isStopping ?? false))
            }
        }
    }

    // MARK: Events from Home Assistant

    /// Merges new states into what HA showed last; the burst they belong to ends when HA
    /// says it sent all it wrote together (`batchEnded`), else when HA goes quiet (or the
    /// appliances they touched are complete).
    func deliver(_ event: SourceEvent) {
        switch event {
        case .states(let states):
            var any = false
            for (entity, state) in states where known[entity] != state {
                deliveredDuringRead?.updateValue(state, forKey: entity)
                changed.insert(entity)
                known[entity] = state
                any = true
            }
            guard any else { return }
            burst.arrived(at: clock.now(), completing: completesAppliances(changed))
            if let due = burst.due, due < sleepingUntil ?? .distantFuture { wake() }
        case .batchEnded:
            // HA sent all it wrote together: the burst is whole now, not after a quiet wait.
            guard burst.due != nil else { return }
            burst.ended(at: clock.now())
            if let due = burst.due, due < sleepingUntil ?? .distantFuture { wake() }
        case .registryChanged:
            guard rediscover != nil else { return }
            let soon = clock.now().addingTimeInterval(options.registryDebounceSeconds)
            if nextDiscovery.map({ $0 > soon }) ?? true { nextDiscovery = soon }
            wake()
        }
    }

    /// True when every followed entity of each appliance touched by `entities` is among them.
    func completesAppliances(_ entities: Set<String>) -> Bool {
        household.order.allSatisfy { id in
            guard let followed = appliances[id]?.entities.values, followed.contains(where: entities.contains) else { return true }
            return followed.allSatisfy(entities.contains)
        }
    }

    /// Hands the appliances whose entities changed in the burst that ended to the
    /// household, as one observation each, at this moment.
    func takeBurst(at now: Date) async {
        guard burst.take(at: now) else { return }
        let arrived = changed
        changed = []
        guard path.isLive else { return }
        let people = resyncDue || options.delivery.people.contains(where: { arrived.contains($0.entity) })
        if people {
            guard await drivePeople(known, at: now) else { return }
        }
        var observations: [(applianceID: String, observation: Observation)] = []
        for id in household.order {
            guard let appliance = appliances[id] else { continue }
            if resyncDue || appliance.entities.values.contains(where: arrived.contains) {
                observations.append((id, observation(of: appliance, in: known, at: now)))
            }
        }
        if !observations.isEmpty {
            log.debug("changed", ["entities": String(arrived.count), "appliances": String(observations.count)])
            resyncDue = await drive(.polled(observations), publishing: false) == .refused
        }
        // Once for the burst, people and appliances together.
        if people || !observations.isEmpty { await poster?.publish(household, snapshots: snapshots, at: clock.now()) }
    }

    func followedEntities() -> [String] {
        Array(Set(household.order.flatMap { appliances[$0].map { Array($0.entities.values) } ?? [] } + personEntities)).sorted()
    }
}
