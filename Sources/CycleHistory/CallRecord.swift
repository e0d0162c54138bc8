import CycleCore
import CSQLite
import FoundationEssentials

/// One row of `pushes`: a Supernotify call made, in flight, or held back.
public struct CallRecord: Sendable, Equatable {
    public var id: Int64
    public var cycleID: Int64?
    public var applianceID: String
    /// When the planner decided on the call.
    public var at: Date
    public var kind: CallKind
    /// Why the planner made (or held back) the call.
    public var reason: String
    /// The exact JSON body of the call.
    public var body: String
    public var status: PushStatus
    public var httpStatus: Int?
    public var error: String?
    public var latencyMs: Double?
    /// When the call reached a final status (see `PushStatus.isFinal`).
    public var finishedAt: Date?

    public init(
        id: Int64, cycleID: Int64?, applianceID: String, at: Date, kind: CallKind, reason: String, body: String,
        status: PushStatus, httpStatus: Int?, error: String?, latencyMs: Double?, finishedAt: Date?
    ) {
        self.id = id
        self.cycleID = cycleID
        self.applianceID = applianceID
        self.at = at
        self.kind = kind
        self.reason = reason
        self.body = body
        self.status = status
        self.httpStatus = httpStatus
        self.error = error
        self.latencyMs = latencyMs
        self.finishedAt = finishedAt
    }

    /// The columns `init(row:)` expects, in order.
    static let columns = """
        id, cycle_id, appliance_id, at, kind, reason, body, status, http_status, error, latency_ms, finished_at
        """

    /// A column holding one of a set of names, or an error naming the column and the names it may hold.
    private static func named<Name: RawRepresentable & CaseIterable>(_ row: SQLiteRow, _ index: Int32,
                                                                     _ column: String) throws(SQLiteError) -> Name where Name.RawValue == String {
        let text = row.string(index)
        guard let name = Name(rawValue: text) else {
            throw SQLiteError(code: SQLITE_MISMATCH,
                              message: "\(column) is '\(text)', expected one of \(Name.allCases.map(\.rawValue).joined(separator: "|"))",
                              sql: row.sql)
        }
        return name
    }

    init(row: SQLiteRow) throws(SQLiteError) {
        let status: PushStatus = try Self.named(row, 7, "pushes.status")
        let kind: CallKind = try Self.named(row, 4, "pushes.kind")
        self.init(
            id: row.int64(0), cycleID: row.optionalInt64(1), applianceID: row.string(2), at: row.date(3),
            kind: kind, reason: row.string(5), body: row.string(6), status: status,
            httpStatus: row.optionalInt64(8).map { Int($0) }, error: row.optionalString(9),
            latencyMs: row.optionalDouble(10), finishedAt: row.optionalDate(11))
    }
}
