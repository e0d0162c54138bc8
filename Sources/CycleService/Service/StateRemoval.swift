/// What became of `DELETE /api/states/<entity_id>`.
public enum StateRemoval: Sendable, Equatable {
    /// HA removed the state.
    case removed
    /// HA had no such state (404): gone already, which is as good.
    case gone
    /// HA refused or was away: the reason, without the token.
    case failed(String)
}
