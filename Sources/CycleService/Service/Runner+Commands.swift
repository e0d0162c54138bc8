import CycleCore
import CycleHistory
import FoundationEssentials

/// The local API's seam into the loop (docs/API.md): commands wait in the `ServiceLink`
/// and the loop takes them between events, as it takes HA's events, so that a settings
/// change or an early clear goes through the same record-then-send path as everything
/// else; and after every event the loop leaves its snapshots there for the API.
extension Runner {
    /// Before the loop: the stored totals and, for an open cycle restored with changed
    /// settings, its steps planned again from them; then the first snapshots.
    func startCommands() async {
        guard let link = parts.options.link else { return }
        do {
            snapshots.energyTotals = try parts.store.energyTotals()
        } catch {
            parts.log.error("store_read_failed", ["error": "\(error)", "effect": "energy totals start at 0"])
        }
        let overridden = (try? parts.store.settingsOverrides()) ?? [:]
        for id in household.order where overridden[id] != nil && household.tracker(id)?.cycle != nil {
            if let settings = household.tracker(id)?.settings { await drive(.retuned(id, settings, at: parts.clock.now())) }
        }
        link.setWaker { [weak self] in Task { await self?.wakeForCommand() } }
        shareHousehold()
        share([])
    }

    func wakeForCommand() { wake() }

    /// Takes and answers the commands waiting.
    func takeCommands() async {
        guard let link = parts.options.link else { return }
        for pending in link.takeCommands() {
            pending.finish(await carryOut(pending.command))
        }
        // HA lost or back, events or polling: the service's snapshot follows without an event.
        share([])
    }

    private func carryOut(_ command: RunnerCommand) async -> CommandOutcome {
        switch command {
        case .changeSettings(let id, let change):
            guard let appliance = appliances[id], household.follows(id) else { return .unknownAppliance }
            var overrides = Self.storedOverrides(id, store: parts.store, log: parts.log)
            switch change {
            case .set(let newer): overrides = overrides.merging(newer)
            case .reset: overrides = ApplianceOverrides()
            }
            do {
                // The tracker's state is saved with the change: its appliance's row must exist (no poll may have yet).
                try parts.store.upsertAppliance(id: id, name: appliance.settings.name, at: parts.clock.now(),
                                          profile: appliance.settings.profile.rawValue)
                try parts.store.replaceSettingsOverrides(applianceID: id, SettingsJSON.stored(overrides), at: parts.clock.now())
            } catch {
                parts.log.error("store_write_failed", ["appliance": id, "error": "\(error)", "action": "settings not changed"])
                return .refused("the history database refused the change: \(error)")
            }
            let settings = Self.learning(appliance.settings, store: parts.store, log: parts.log)
            guard await drive(.retuned(id, settings, at: parts.clock.now())) != .refused else {
                return .refused("the history database refused the change (stored, in effect after a restart)")
            }
            parts.log.info("settings_changed", ["appliance": id, "overridden": overrides.overridden.sorted().joined(separator: ",")])
        case .endActivity(let id):
            guard household.follows(id) else { return .unknownAppliance }
            guard household.tracker(id)?.hasLiveActivity == true else { return .noActivity }
            guard await drive(.endActivity(id, at: parts.clock.now())) != .refused else {
                return .refused("the history database refused the clear; nothing was sent")
            }
            parts.log.info("activity_ended", ["appliance": id, "by": "api"])
        case .unloaded(let id):
            guard household.follows(id) else { return .unknownAppliance }
            guard await markUnloaded(id, by: "api") else {
                return .refused("the history database refused the change; the reminders go on")
            }
        case .changeDelivery(let change):
            return await changeDelivery(change)
        case .integration(let configured):
            return await integration(configured: configured)
        }
        return .done(snapshots.snapshot(id(of: command), household: household))
    }

    private func id(of command: RunnerCommand) -> String {
        switch command {
        case .changeSettings(let id, _), .endActivity(let id), .unloaded(let id): id
        case .changeDelivery, .integration: ""
        }
    }

    /// Leaves the snapshots and the events of `steps` for the API.
    func share(_ steps: [Household.Step]) {
        guard let link = parts.options.link else { return }
        for id in household.order { snapshots.deviceIDs[id] = appliances[id]?.deviceID }
        let now = parts.clock.now()
        let service = ServiceSnapshot(
            version: link.version, instanceID: link.instanceID, homeAssistantConnected: feed.path.reachable,
            updates: feed.path.isLive ? "events" : "poll", pushesToday: household.callsCounted(on: now),
            dailyPushLimit: household.dailyLimit, integrationConnected: false)
        link.update(service: service, appliances: snapshots.all(household), events: ServiceEvent.of(steps))
    }

    /// The settings changed through the API for `id`, as stored; none when the store can't say (logged).
    static func storedOverrides(_ id: String, store: HistoryStore, log: Log) -> ApplianceOverrides {
        do {
            guard let values = try store.settingsOverrides()[id] else { return ApplianceOverrides() }
            return try SettingsJSON.overrides(stored: values)
        } catch {
            log.error("store_read_failed", ["error": "\(error)", "effect": "the configured settings of \(id) apply"])
            return ApplianceOverrides()
        }
    }
}
