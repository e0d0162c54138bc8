import CycleHistory
import HomeAssistantAPI
import CycleCore

/// Where the runner reads appliance states from: Home Assistant, or the demo's simulation.
public protocol ApplianceStateSource: Sendable {
    /// Every listed entity's state in one request; nil for an entity that doesn't exist.
    func read(_ entities: [String]) async throws(SourceFailure) -> [String: EntityState?]
}
