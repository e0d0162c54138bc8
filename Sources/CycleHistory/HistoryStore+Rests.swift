import CycleCore
import FoundationEssentials

extension HistoryStore {
    /// Keeps a smart plug cycle's longest rest inside it, in seconds (`cycles.longest_rest_seconds`).
    public func recordLongestRest(cycleID: Int64, seconds: Double) throws(StoreError) {
        guard seconds.isFinite, seconds >= 0 else { return }
        try perform("recording the longest rest of cycle \(cycleID)") { () throws(SQLiteError) in
            try connection.execute("UPDATE cycles SET longest_rest_seconds = ?2 WHERE id = ?1", [cycleID, seconds])
        }
        try requireChange("has no cycle \(cycleID) (expected an id from openCycle)")
    }

    /// The longest rests of the appliance's latest finished cycles recorded by `run`, newest
    /// first, at most `limit`; cycles without one are left out.
    public func longestRests(applianceID: String, limit: Int) throws(StoreError) -> [Double] {
        try perform("reading the rests of '\(applianceID)'") { () throws(SQLiteError) in
            try connection.rows(
                """
                SELECT longest_rest_seconds FROM cycles
                WHERE appliance_id = ?1 AND outcome = 'finished' AND longest_rest_seconds IS NOT NULL
                    AND source = 'run'
                ORDER BY started_at DESC LIMIT ?2
                """, [applianceID, Int64(limit)]) { row in row.double(0) }
        }
    }
}
