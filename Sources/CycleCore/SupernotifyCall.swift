import FoundationEssentials

/// The kinds of `supernotify.notify` call (docs/PUSHES.md, "Kinds of call").
public enum CallKind: String, Sendable, Codable, CaseIterable {
    case start, quiet, progress, clear, end
    /// The unload reminder after a finished cycle (docs/PUSHES.md, "Unload reminder").
    case reminder

    /// Whether the phone alerts: `start`, `progress`, `end` and `reminder` do.
    public var isAlerting: Bool {
        switch self {
        case .start, .progress, .end, .reminder: true
        case .quiet, .clear: false
        }
    }
}

/// How a cycle ended.
public enum CycleOutcome: String, Sendable, Codable, CaseIterable {
    case finished, aborted, failed
    /// The operation state stayed unavailable longer than `lost_after_minutes`.
    case lost
}

/// One call the service is to make: `POST /api/services/supernotify/notify` with `body`.
public struct SupernotifyCall: Sendable, Equatable {
    public var kind: CallKind
    public var at: Date
    /// The exact JSON body.
    public var body: JSONObject
    /// Why it was made, short, for logs: "start", "step 40", "pause", "resume",
    /// "finish time", "program", "temperature", "heartbeat", "clear: finished", "end: finished", "unload reminder 1".
    public var reason: String

    /// A call of `kind` due `at`.
    public init(kind: CallKind, at: Date, body: JSONObject, reason: String) {
        self.kind = kind
        self.at = at
        self.body = body
        self.reason = reason
    }

    /// The body as sent: compact JSON, keys in insertion order, "/" not escaped,
    /// Unicode kept as is.
    public func bodyJSON() -> String { body.compactJSON() }

    /// What an anomaly note says is wrong ("action required (door open)"), from its reason;
    /// nil for every other call (docs/PUSHES.md, "Anomalies").
    public var anomaly: String? {
        reason.hasPrefix(Self.anomalyMark) ? String(reason.dropFirst(Self.anomalyMark.count)) : nil
    }

    /// How an anomaly note's reason begins.
    static let anomalyMark = "anomaly: "
}
