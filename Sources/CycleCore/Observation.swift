import FoundationEssentials

/// An entity role of an appliance (BEHAVIOUR.md). The raw value is the key used in
/// traces, the configuration's `entities` and the database.
public enum Role: String, CaseIterable, Sendable, Codable, Comparable {
    case operationState = "operation_state"
    case progress
    case finishTime = "finish_time"
    case program
    case door
    case temperature
    case power
    case energy

    public static func < (lhs: Role, rhs: Role) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!  // every case is in allCases
    }
}

/// Home Connect's operation states, spelled as HA's enum sensor gives them.
public enum OperationState: String, CaseIterable, Sendable, Codable {
    case inactive, ready, delayedstart, run, pause, actionrequired, finished, error, aborting
}

/// What the operation state entity showed.
public enum OperationReading: Sendable, Equatable {
    case known(OperationState)
    /// `unavailable`, `unknown`, or the role missing from the observation.
    case unavailable
    /// A value outside the known states: ignored with a warning, the previous state stands.
    case unrecognised(String)
}
