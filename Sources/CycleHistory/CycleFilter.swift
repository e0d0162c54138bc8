import FoundationEssentials

/// Which cycles `HistoryStore.cycles(matching:)` returns (newest first); nil means any.
public struct CycleFilter: Sendable, Equatable {
    /// Which outcome to match: an ended cycle's outcome, or still open.
    public enum Outcome: Sendable, Equatable {
        case ended(String)
        case open
    }

    public var applianceID: String?
    /// Cycles that started at or after this time.
    public var since: Date?
    /// Cycles that started before this time.
    public var until: Date?
    /// Matches the program key exactly or as a substring, ignoring (ASCII) case.
    public var program: String?
    /// Matches only these program keys exactly (an empty list matches nothing).
    public var programs: [String]?
    /// Only cycles recorded by this source.
    public var source: CycleSource?
    public var outcome: Outcome?
    /// At most this many cycles; nil for all.
    public var limit: Int?
    /// Skip this many of the newest first (the history page's next pages); with `limit`.
    public var offset: Int = 0

    public init(
        applianceID: String? = nil, since: Date? = nil, until: Date? = nil, program: String? = nil,
        outcome: Outcome? = nil, limit: Int? = nil, programs: [String]? = nil, source: CycleSource? = nil
    ) {
        self.programs = programs
        self.source = source
        self.applianceID = applianceID
        self.since = since
        self.until = until
        self.program = program
        self.outcome = outcome
        self.limit = limit
    }
}
