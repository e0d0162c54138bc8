import HomeAssistantAPI

/// Where the poster writes: HA's REST API (`POST /api/states`, `DELETE /api/states`,
/// `POST /api/events`).
public protocol HomeAssistantSurface: Sendable {
    /// Sets `entityID`'s state and attributes. False when HA refused or was away.
    func setState(entityID: String, _ state: PostedState) async -> Bool
    /// Removes `entityID`'s state: `.gone` when HA had none (404), `.failed` with HA's
    /// error (never the token) when it refused or was away.
    func removeState(entityID: String) async -> StateRemoval
    /// Fires the event. False when HA refused or was away.
    func fireEvent(_ event: HomeAssistantEvent) async -> Bool
}
