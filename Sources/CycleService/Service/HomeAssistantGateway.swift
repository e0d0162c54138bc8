import CycleHistory
import HomeAssistantAPI
import CycleCore

/// Home Assistant as the runner sees it: states to poll, and `supernotify.notify` to call.
public struct HomeAssistantGateway: ApplianceStateSource, ApplianceEventSource, CallSink, HomeAssistantSurface {
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

    /// `subscribe_entities` over HA's WebSocket API (see `HomeAssistantSession` for why
    /// that subscription), plus the entity and device registries' events and the buttons
    /// tapped on notifications.
    public func subscribe(_ entities: [String]) async throws(SourceFailure) -> SourceSubscription {
        let socket: HomeAssistantWebSocket
        do {
            socket = try await client.subscribe(entityIDs: entities, notificationActions: true)
        } catch {
            if case .authInvalid = error { throw SourceFailure(error.description, isUnauthorized: true) }
            throw SourceFailure(error.description)
        }
        let (events, continuation) = AsyncThrowingStream<SourceEvent, any Error>.makeStream()
        let pump = Task {
            do {
                for try await event in socket.events {
                    switch event {
                    case .states(let states, let endsBatch): continuation.yield(.states(states, endsBatch: endsBatch))
                    case .registryUpdated: continuation.yield(.registryChanged)
                    case .notificationAction(let action): continuation.yield(.notificationAction(action))
                    case .notificationActionsRefused(let reason): continuation.yield(.notificationActionsRefused(reason: reason))
                    }
                }
                continuation.finish(throwing: SourceFailure("\(socket.url) closed"))
            } catch {
                let stopping = (error as? HomeAssistantWebSocketError)?.saysStopping ?? false
                continuation.finish(throwing: SourceFailure("\(error)", isStopping: stopping))
            }
        }
        continuation.onTermination = { _ in
            pump.cancel()
            socket.close()
        }
        return SourceSubscription(events: events, close: { continuation.finish() })
    }

    public func setState(entityID: String, _ state: PostedState) async -> Bool {
        do { try await client.setState(entityID: entityID, state) } catch { return false }
        return true
    }

    public func removeState(entityID: String) async -> StateRemoval {
        do {
            return try await client.removeState(entityID: entityID) ? .removed : .gone
        } catch {
            return .failed(error.description)
        }
    }

    public func fireEvent(_ event: HomeAssistantEvent) async -> Bool {
        do { try await client.fireEvent(event) } catch { return false }
        return true
    }

    public func notify(_ request: CallRequest) async -> ServiceCallOutcome {
        await client.callService(domain: "supernotify", service: "notify", body: request.body)
    }

    /// What a discovery run gave.
    public enum DiscoveryOutcome: Sendable {
        /// Discovery's appliances merged with the configuration.
        case found([TrackedAppliance])
        /// HA didn't answer, or refused: the error, and whether the token was refused.
        case failed(HomeAssistantError)
        /// The configuration and what HA has disagree (e.g. one appliance id twice).
        case conflict(String)

        /// The appliances, when discovery answered.
        public var appliances: [TrackedAppliance]? {
            if case .found(let found) = self { found } else { nil }
        }
    }

    /// Runs discovery and merges it with the configuration, logging what it skipped and
    /// why it failed: a refused token as `ha_token_refused`, anything else as
    /// `discovery_failed`.
    public func discover(_ config: Configuration, log: Log) async -> DiscoveryOutcome {
        do {
            let found = try await client.discoverDevices()
            if let problem = found.registryProblem {
                log.warning("registry_unread", ["error": problem, "action": "roles found by the fallback rules"])
            }
            for device in found.devices {
                log.info("device_followed", ["device": device.deviceID, "name": device.name, "roles": device.rolesSummary])
            }
            for skipped in found.skipped {
                log.info("device_skipped", ["device": skipped.deviceID, "name": skipped.name, "reason": skipped.reason])
            }
            return .found(try ApplianceDirectory.resolve(config, discovered: found.devices))
        } catch let error as HomeAssistantError {
            if case .unauthorized = error {
                log.error("ha_token_refused", ["error": error.description,
                                               "action": "check the long-lived access token; discovery tries again later"])
            } else {
                log.warning("discovery_failed", ["error": error.description, "action": "trying again later"])
            }
            return .failed(error)
        } catch {
            log.error("discovery_conflict", ["error": "\(error)"])
            return .conflict("\(error)")
        }
    }
}
