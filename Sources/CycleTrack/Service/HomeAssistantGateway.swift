import CycleCore

/// Home Assistant as the runner sees it: states to poll, and `supernotify.notify` to call.
public struct HomeAssistantGateway: ApplianceStateSource, NotifySink {
    public let client: HomeAssistantClient

    public init(client: HomeAssistantClient) {
        self.client = client
    }

    public func read(_ entities: [String]) async throws(SourceFailure) -> [String: EntityState?] {
        do {
            return try await client.states(of: entities)
        } catch {
            if case .unauthorized = error { throw SourceFailure(error.description, isUnauthorized: true) }
            throw SourceFailure(error.description)
        }
    }

    public func notify(_ request: NotifyRequest) async -> ServiceCallOutcome {
        await client.callService(domain: "supernotify", service: "notify", body: request.body)
    }

    /// Discovery's appliances merged with the configuration, or nil when HA didn't answer.
    public func discover(_ config: Configuration, log: Log) async -> [TrackedAppliance]? {
        do {
            let found = try await client.discoverDevices()
            for skipped in found.skipped {
                log.info("device_skipped", ["device": skipped.deviceID, "name": skipped.name, "reason": skipped.reason])
            }
            return try ApplianceDirectory.resolve(config, discovered: found.devices)
        } catch let error as HomeAssistantError {
            log.warning("discovery_failed", ["error": error.description, "action": "trying again later"])
        } catch {
            log.error("discovery_conflict", ["error": "\(error)"])
        }
        return nil
    }
}
