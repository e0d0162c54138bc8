/// The day's push budget as the caller counted it (docs/PUSHES.md, "Budget"): the
/// relay allows 500 pushes per phone per UTC day; cycletrack keeps to
/// `daily_push_limit` across all appliances and reserves two calls per open
/// cycle for its clear and end.
public struct DailyBudget: Sendable, Equatable {
    /// `daily_push_limit` (default 400).
    public var limit: Int
    /// Calls counted so far in the current UTC day, all appliances.
    public var usedToday: Int
    /// Open cycles across all appliances, this appliance's own included if open.
    public var openCycles: Int
    /// End notifications waiting for quiet hours to end or someone to come home: each
    /// keeps its call reserved while it waits.
    public var waitingEnds: Int

    /// The budget as counted before the call it is given to.
    public init(limit: Int = 400, usedToday: Int = 0, openCycles: Int = 0, waitingEnds: Int = 0) {
        self.limit = limit
        self.usedToday = usedToday
        self.openCycles = openCycles
        self.waitingEnds = waitingEnds
    }

    /// Calls left today.
    public var remaining: Int { limit - usedToday }

    /// Held for the clears and ends of the open cycles, and the ends still waiting.
    public var reserve: Int { 2 * max(openCycles, 0) + max(waitingEnds, 0) }

    /// Whether a call of `kind` may go out now. A start (also one sent in quiet
    /// form) needs more than the reserve; a quiet update more than the reserve plus
    /// 10% of the limit; a progress notification or an unload reminder more than the
    /// reserve; an end any budget at all; a clear always goes out.
    public func allows(_ kind: CallKind, asStart: Bool = false) -> Bool {
        if asStart { return remaining > reserve }
        switch kind {
        case .start, .progress, .reminder: return remaining > reserve
        case .quiet: return Double(remaining) > Double(reserve) + Double(limit) * 0.1
        case .end: return remaining > 0
        case .clear: return true
        }
    }

    /// Counts one call made.
    mutating func spend() { usedToday += 1 }
}
