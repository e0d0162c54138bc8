import FoundationEssentials

/// One stored observation of an appliance, with the full state rebuilt at that point.
public struct ObservationRecord: Sendable, Equatable {
    public var id: Int64
    public var applianceID: String
    /// The cycle open when it was seen; nil when none was.
    public var cycleID: Int64?
    public var at: Date
    /// Every role's state as of this observation (role → HA state string), rebuilt
    /// by accumulating the stored changes: what `replay` feeds to the state machine.
    public var states: [String: String]
    /// The roles this row stored (changed, appeared or disappeared since the previous one).
    public var changedRoles: Set<String>
    /// The entities' units of measurement as of this observation (role → unit); empty for
    /// rows recorded before the store kept units (migration 0006).
    public var units: [String: String]

    public init(id: Int64, applianceID: String, cycleID: Int64?, at: Date, states: [String: String], changedRoles: Set<String>,
                units: [String: String] = [:]) {
        self.units = units
        self.id = id
        self.applianceID = applianceID
        self.cycleID = cycleID
        self.at = at
        self.states = states
        self.changedRoles = changedRoles
    }
}
