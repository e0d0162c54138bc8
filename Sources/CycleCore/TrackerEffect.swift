import FoundationEssentials

/// What reaches an appliance's tracker: an observation, or the passing of time.
public enum TrackerEvent: Sendable, Equatable {
    case observed(Observation)
    case tick(Date)
}

/// What the tracker asks its caller to do or record, in order.
public enum TrackerEffect: Sendable, Equatable {
    case cycleStarted(at: Date, program: String?)
    /// A call to make, strictly after every call before it for this appliance.
    case call(SupernotifyCall)
    /// A call not sent for the daily or the per-cycle budget; the next allowed
    /// update carries the latest state.
    case heldBack(kind: CallKind, at: Date, reason: String)
    /// An end notification or unload reminder waiting for quiet hours to end or for
    /// someone to come home, or dropped after waiting; the reason says which
    /// (docs/PUSHES.md, "Quiet hours", "Presence").
    case waiting(kind: CallKind, at: Date, reason: String)
    case cycleEnded(at: Date, outcome: CycleOutcome)
    /// A finished cycle's appliance no longer awaits unloading: *Unloaded* was said, or
    /// its dryer started (`ApplianceTracker.awaitsUnloading`). Nothing to send; the
    /// caller stores the tracker's state with it.
    case unloaded(at: Date)
    /// Something odd in the input, e.g. an unrecognised operation state.
    case warning(String)
}

extension TrackerEffect {
    /// What a `.waiting` reason says after the notice's own reason when it was given up:
    /// "end: finished: dropped, the door opened".
    static let droppedMark = ": dropped, "

    /// Whether this is a `.waiting` effect saying that its notice was given up on (the
    /// door opened, a new cycle started, nobody came home in time), not that it waits.
    public var dropsNotice: Bool {
        if case .waiting(_, _, let reason) = self { return reason.contains(Self.droppedMark) }
        return false
    }
}
