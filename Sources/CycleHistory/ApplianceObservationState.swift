import FoundationEssentials

/// What the store remembers of an appliance's last recorded observation, so that
/// the next one stores only what changed.
struct ApplianceObservationState: Equatable {
    /// Every role's state as last recorded.
    var states: [String: String]
    /// The cycle of the last recorded observation.
    var cycleID: Int64?
    /// Whether any observation of the appliance is stored at all.
    var hasObservations: Bool
    /// Rows stored as changes since the last full row.
    var changesSinceFull: Int
    /// The entities' units as last recorded (role → unit).
    var units: [String: String] = [:]

    static let none = ApplianceObservationState(states: [:], cycleID: nil, hasObservations: false, changesSinceFull: 0)

    /// A full row is stored after this many change rows, bounding how far back a
    /// replay or a restart has to read to rebuild the state.
    static let fullRowInterval = 500

    /// What to store for `newStates` seen in `cycleID`: nil when nothing needs storing,
    /// otherwise the roles to write (nil value: the role is no longer reported) and
    /// whether the row is full.
    func row(for newStates: [String: String], cycleID newCycleID: Int64?) -> (changed: [String: String?], full: Bool)? {
        let full = !hasObservations || newCycleID != cycleID || changesSinceFull + 1 >= Self.fullRowInterval
        if full {
            return (newStates.mapValues { Optional($0) }, true)
        }
        var changed: [String: String?] = [:]
        for (role, value) in newStates where states[role] != value {
            changed[role] = .some(value)
        }
        for role in states.keys where newStates[role] == nil {
            changed[role] = .some(nil)
        }
        return changed.isEmpty ? nil : (changed, false)
    }

    /// The state after a stored row (full or changes) is applied.
    mutating func apply(changed: [String: String?], full: Bool, cycleID newCycleID: Int64?) {
        if full {
            states = changed.compactMapValues { $0 }
            changesSinceFull = 0
        } else {
            for (role, value) in changed {
                states[role] = value
            }
            changesSinceFull += 1
        }
        cycleID = newCycleID
        hasObservations = true
    }
}
