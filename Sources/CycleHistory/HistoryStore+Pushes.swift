import CycleCore
import CSQLite
import FoundationEssentials

extension HistoryStore {
    /// Records a Supernotify call (before it is made, as `pending`, or as `notSent`
    /// when held back, `held` or `dropped` for a notice that waits or was given up) and
    /// returns its id. The cycle's `pushes` count follows (the statuses that are calls,
    /// `PushStatus.isCall`), kept by the schema's triggers.
    public func recordPush(
        cycleID: Int64?, applianceID: String, at: Date, kind: CallKind, reason: String, body: String, status: PushStatus
    ) throws(StoreError) -> Int64 {
        try perform("recording a \(kind.rawValue) push for '\(applianceID)'") { () throws(SQLiteError) in
            try connection.execute(
                """
                INSERT INTO pushes (cycle_id, appliance_id, at, kind, reason, body, status, finished_at)
                VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
                """, [cycleID, applianceID, at, kind.rawValue, reason, body, status.rawValue, status.isFinal ? at : nil])
            return connection.lastInsertRowID
        }
    }

    /// Records how a call went: its status, HTTP status, error and latency replace the
    /// earlier ones; `finished_at` becomes `at` for a final status, and is cleared otherwise.
    public func markPush(id: Int64, status: PushStatus, httpStatus: Int?, error: String?, latencyMs: Double?, at: Date) throws(StoreError) {
        try perform("marking push \(id) \(status.rawValue)") { () throws(SQLiteError) in
            try connection.execute(
                """
                UPDATE pushes SET status = ?2, http_status = ?3, error = ?4, latency_ms = ?5, finished_at = ?6
                WHERE id = ?1
                """, [id, status.rawValue, httpStatus, error, latencyMs, status.isFinal ? at : nil])
        }
        try requireChange("has no push \(id) (expected an id from recordPush)")
    }

    /// Marks every call of the appliance still `pending` as superseded by the start of
    /// cycle `cycleID`, and returns the highest push id it marked (nil: none).
    public func supersedePendingPushes(applianceID: String, byCycle cycleID: Int64, at: Date) throws(StoreError) -> Int64? {
        try perform("superseding the pending pushes of '\(applianceID)'") { () throws(SQLiteError) in
            let through = try connection.firstRow(
                "SELECT max(id) FROM pushes WHERE appliance_id = ?1 AND status = 'pending'", [applianceID]
            ) { $0.optionalInt64(0) } ?? nil
            guard let through else { return nil }
            try connection.execute(
                """
                UPDATE pushes SET status = 'superseded', finished_at = ?3,
                    error = 'superseded by the start of cycle ' || ?2 || ' before it went out'
                WHERE appliance_id = ?1 AND status = 'pending' AND id <= ?4
                """, [applianceID, cycleID, at, through])
            return through
        }
    }

    /// How many calls count against the daily budget on `now`'s UTC day: every
    /// recorded call but those held back (`not_sent`), held, dropped or replayed, whose `at` falls in that day.
    public func pushesCounted(onUTCDayOf now: Date) throws(StoreError) -> Int {
        // Unix time has no leap seconds: UTC days are exact multiples of 86 400 s.
        let dayStart = (now.timeIntervalSince1970 / 86_400).rounded(.down) * 86_400
        return try perform("counting today's pushes") { () throws(SQLiteError) in
            try connection.firstRow(
                "SELECT count(*) FROM pushes WHERE at >= ?1 AND at < ?2 AND status NOT IN ('not_sent', 'held', 'dropped', 'replayed')",
                [dayStart, dayStart + 86_400], { Int($0.int64(0)) }) ?? 0
        }
    }

    /// Calls left `pending` or `sending` (by a crash or a stop), oldest first.
    public func unfinishedPushes() throws(StoreError) -> [CallRecord] {
        try perform("reading unfinished pushes") { () throws(SQLiteError) in
            try connection.rows(
                "SELECT \(CallRecord.columns) FROM pushes WHERE status IN ('pending', 'sending') ORDER BY id",
                [], CallRecord.init(row:))
        }
    }

    /// Every call recorded for the cycle, in the order recorded.
    public func pushes(cycleID: Int64) throws(StoreError) -> [CallRecord] {
        try perform("reading the pushes of cycle \(cycleID)") { () throws(SQLiteError) in
            try connection.rows(
                "SELECT \(CallRecord.columns) FROM pushes WHERE cycle_id = ?1 ORDER BY id",
                [cycleID], CallRecord.init(row:))
        }
    }
}
