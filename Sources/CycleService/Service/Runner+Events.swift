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
            case .log(let line): parts.log.write(line)
            case .read: pending += await readAndTell()
            }
        }
    }

    /// Reads every followed entity and tells the update path how it went.
    func readAndTell() async -> [UpdatePath.Action] {
        if let failure = await readAll() {
            // The backoff counts from when the failed request ended: a hanging HA
            // must not be asked again the moment its timeout passes.
            return feed.path.readFailed(failure, at: parts.clock.now(), jitter: Double.random(in: 0..<1))
        }
        return feed.path.answered(at: parts.clock.now(), cycleRunning: household.openCycles > 0)
    }

    /// Starts subscribing in the background: the loop goes on, and the outcome arrives.
    func connect() {
        guard let events = parts.events else { return }
        let entities = followedEntities()
        feed.slot.connect(entities) { number in
            Task { [weak self] in
                do throws(SourceFailure) {
                    let opened = try await events.subscribe(entities)
                    if let self { await self.arrive(.connected(number, opened)) } else { opened.close() }
                } catch {
                    await self?.arrive(.connectFailed(number, error))
                }
            }
        }.end()
    }

    /// Closes the subscription and gives up an attempt under way: what they send later is ignored.
    func disconnect() {
        feed.slot.close().end()
    }

    func arrive(_ arrival: Arrival) {
        feed.arrivals.append(arrival)
        wake()
    }

    /// Takes in the subscription's outcomes that arrived since the last turn.
    func takeArrivals() async {
        while !feed.arrivals.isEmpty {
            let arrival = feed.arrivals.removeFirst()
            let now = parts.clock.now()
            switch arrival {
            case .connected(let number, let opened):
                guard feed.slot.opened(number, opened, listen: { listen(to: opened, number: $0) }) else {
                    opened.close()
                    continue
                }
                await perform(feed.path.connected(entities: feed.slot.entities?.count ?? 0, at: now))
            case .connectFailed(let number, let failure):
                guard feed.slot.failed(number) else { continue }
                await perform(feed.path.connectFailed(failure, at: now))
            case .lost(let number, let error, let stopping):
                guard feed.slot.lost(number) else { continue }
                await perform(feed.path.lost(error: error, at: now, stopping: stopping, jitter: Double.random(in: 0..<1)))
            }
        }
    }

    /// Reads the subscription's events in a task of its own, until it ends.
    private func listen(to opened: SourceSubscription, number: Int) -> Task<Void, Never> {
        Task { [weak self] in
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
    /// says they are all it wrote together (`endsBatch`: at once, not after a quiet
    /// wait), else when HA goes quiet (or the appliances they touched are complete).
    func deliver(_ event: SourceEvent) {
        switch event {
        case .states(let states, let endsBatch):
            let changed = feed.shown.deliver(states)
            let now = parts.clock.now()
            if !changed.isEmpty { feed.burst.arrived(changed, at: now, completing: completesAppliances) }
            if endsBatch { feed.burst.ended(at: now) }
            if let due = feed.burst.due { wake(for: due) }
        case .registryChanged:
            guard parts.rediscover != nil else { return }
            loop.discovery.registryChanged(at: parts.clock.now())
            wake()
        case .notificationAction(let action):
            guard let id = UnloadedAction.applianceID(of: action), household.follows(id) else { return }
            feed.unloaded.append(id)
            wake()
        case .notificationActionsRefused(let reason):
            guard warned.insert("notification_actions_refused").inserted else { return }
            parts.log.warning("notification_actions_refused", [
                "error": reason, "effect": "the Unloaded button on notifications stops nothing; the token's user must be an administrator",
            ])
        }
    }

    /// The *Unloaded* buttons tapped since the last turn: each appliance's unload
    /// reminders stop. One the store refused waits for the next turn it allows.
    func takeUnloaded() async {
        while let id = feed.unloaded.first {
            guard await markUnloaded(id, by: "notification") else { return }
            feed.unloaded.removeFirst()
        }
    }

    /// One appliance was unloaded (its button, or the local API): recorded, then logged;
    /// false when the store refused it (nothing changed).
    func markUnloaded(_ id: String, by source: String) async -> Bool {
        guard await drive(.unloaded(id, at: parts.clock.now())) != .refused else { return false }
        parts.log.info("unloaded", ["appliance": id, "by": source])
        return true
    }

    /// True when every followed entity of each appliance touched by `entities` is among them.
    func completesAppliances(_ entities: Set<String>) -> Bool {
        household.order.allSatisfy { id in
            guard let followed = appliances[id]?.entities.values, followed.contains(where: entities.contains) else { return true }
            return followed.allSatisfy(entities.contains)
        }
    }

    /// Hands the appliances (and people) whose entities changed in the burst that ended to
    /// the household, as one observation each, at this moment.
    func takeBurst(at now: Date) async {
        guard let changed = feed.burst.take(at: now), feed.path.isLive else { return }
        await observe(changed, at: now)
    }

    func followedEntities() -> [String] {
        Array(Set(household.order.flatMap { appliances[$0].map { Array($0.entities.values) } ?? [] } + personEntities)).sorted()
    }
}
