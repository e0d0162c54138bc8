import CycleCore
import CycleHistory
import FoundationEssentials

/// The household's quiet hours and the people's settings changed through the local API
/// (docs/API.md, "The household"): kept in the history over the configuration's, applied
/// at every start, and taken by the loop between events as a `redelivered` household
/// event, so a notice waiting for the night's end or for someone to come home is tried
/// again with them, never lost.
extension Runner {
    /// The configured settings with the ones changed through the API over them.
    static func storedDelivery(_ base: DeliverySettings, store: HistoryStore, log: Log) -> DeliverySettings {
        storedHouseholdOverrides(store: store, log: log).applied(to: base)
    }

    /// The household's settings changed through the API, as stored; none when the store can't say (logged).
    static func storedHouseholdOverrides(store: HistoryStore, log: Log) -> DeliveryOverrides {
        do {
            return try HouseholdJSON.overrides(stored: try store.householdOverrides())
        } catch {
            log.error("store_read_failed", ["error": "\(error)", "effect": "the configured quiet hours and people apply"])
            return DeliveryOverrides()
        }
    }

    /// Leaves the household's settings in effect for the API.
    func shareHousehold() {
        parts.options.link?.updateHousehold(householdSnapshot(Self.storedHouseholdOverrides(store: parts.store, log: parts.log)))
    }

    private func householdSnapshot(_ overrides: DeliveryOverrides) -> HouseholdSnapshot {
        HouseholdSnapshot(base: parts.options.delivery, overrides: overrides)
    }

    /// Stores the change, then hands the settings now in effect to the household.
    func changeDelivery(_ change: DeliveryChange) async -> CommandOutcome {
        var overrides = Self.storedHouseholdOverrides(store: parts.store, log: parts.log)
        let scope: String
        let values: [String: String]
        switch change {
        case .household(let newer):
            scope = HouseholdJSON.householdScope
            overrides.quietHours = newer.map { $0.quietHours ?? overrides.quietHours } ?? nil
            values = HouseholdJSON.stored(overrides)
        case .person(let entity, let newer):
            guard parts.options.delivery.people.contains(where: { $0.entity == entity }) else { return .unknownPerson }
            scope = entity
            let merged = newer.map { (overrides.people[entity] ?? PersonOverrides()).merging($0) }
            overrides.people[entity] = merged
            values = merged.map(HouseholdJSON.stored) ?? [:]
        }
        do {
            try parts.store.replaceHouseholdOverrides(scope: scope, values, at: parts.clock.now())
        } catch {
            parts.log.error("store_write_failed", ["scope": scope, "error": "\(error)", "action": "settings not changed"])
            return .refused("the history database refused the change: \(error)")
        }
        let delivery = overrides.applied(to: parts.options.delivery)
        guard await drive(.redelivered(delivery, at: parts.clock.now())) != .refused else {
            return .refused("the history database refused the change (stored, in effect after a restart)")
        }
        let snapshot = householdSnapshot(overrides)
        parts.options.link?.updateHousehold(snapshot)
        parts.log.info("household_settings_changed", ["scope": scope, "overridden": values.keys.sorted().joined(separator: ",")])
        return .household(snapshot)
    }
}
