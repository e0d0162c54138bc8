import CycleHistory
import HomeAssistantAPI
import CycleCore

/// Which appliances to follow: the configured ones, merged with what discovery found.
/// Configuration wins: its entity ids replace discovered ones role by role, a role set
/// to null stays unmapped, and its settings apply.
public enum ApplianceDirectory {
    /// - Parameters:
    ///   - discovered: nil when discovery is off (or hasn't answered yet).
    ///   - skipUnmapped: leave out, instead of refusing, a configured appliance that has no
    ///     operation state entity yet (discovery may supply it once HA answers).
    public static func resolve(_ config: Configuration, discovered: [DiscoveredDevice]?,
                               skipUnmapped: Bool = false) throws(ConfigurationError) -> [TrackedAppliance] {
        var tracked: [TrackedAppliance] = []
        var claimed: Set<String> = []
        for configured in config.appliances {
            let match = discovered?.first { device in
                device.applianceID == configured.settings.id
                    || configured.entities.values.contains { Set(device.entities.values).contains($0) }
            }
            var entities = match?.entities ?? [:]
            for role in configured.unmapped { entities[role] = nil }
            entities.merge(configured.entities) { _, mine in mine }
            var settings = configured.settings
            if let match, !configured.hasName { settings.name = match.name }
            if let match, !configured.hasProfile { settings.profile = match.profile }
            if let match { claimed.insert(match.deviceID) }
            let readable = settings.profile == .plug ? entities[.power] != nil : entities[.operationState] != nil
            guard readable else {
                if skipUnmapped { continue }
                let role = settings.profile == .plug ? "power" : "operation_state"
                throw .config("\(config.source): appliance '\(settings.id)' has no \(role) entity"
                    + (config.discover ? " and discovery found no device for it" : " (discovery is off)")
                    + "; set 'entities.\(role)'")
            }
            if entities[.price] == nil, !configured.unmapped.contains(.price) { entities[.price] = config.priceEntity }
            tracked.append(TrackedAppliance(settings: settings, entities: entities, origin: match == nil ? "config" : "config+discovered",
                                           deviceID: match?.deviceID))
        }
        for device in discovered ?? [] where !claimed.contains(device.deviceID) {
            guard !tracked.contains(where: { $0.id == device.applianceID }) else { continue }
            var settings = config.defaultSettings(id: device.applianceID, name: device.name)
            settings.profile = device.profile
            var entities = device.entities
            if entities[.price] == nil { entities[.price] = config.priceEntity }
            tracked.append(TrackedAppliance(settings: settings, entities: entities, origin: "discovered", deviceID: device.deviceID))
        }
        return tracked
    }
}
