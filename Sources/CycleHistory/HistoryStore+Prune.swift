import CycleCore
import CSQLite
import FoundationEssentials

/// What `HistoryStore.prune` removed.
public struct PruneResult: Sendable, Equatable {
    public var cycles: Int
    public var observations: Int
    public var pushes: Int

    public init(cycles: Int = 0, observations: Int = 0, pushes: Int = 0) {
        self.cycles = cycles
        self.observations = observations
        self.pushes = pushes
    }
}

extension HistoryStore {
    /// Deletes the ended cycles that started before `before` (of `source` only, when
    /// given), with their observations and pushes, in one transaction. Open cycles stay.
    ///
    /// Without a source it also deletes what was recorded between cycles before
    /// `before`: observations outside any cycle, up to each appliance's last complete
    /// observation at or before `before` (the rows after it are stored as changes
    /// against it, so it stays), and calls that belong to no cycle.
    public func prune(before: Date, source: CycleSource? = nil) throws(StoreError) -> PruneResult {
        let doomed = source == nil
            ? "SELECT id FROM cycles WHERE outcome IS NOT NULL AND started_at < ?1"
            : "SELECT id FROM cycles WHERE outcome IS NOT NULL AND started_at < ?1 AND source = ?2"
        let values: [any SQLiteBindable] = source.map { [before, $0.rawValue] } ?? [before]
        do {
            return try transaction { () throws -> PruneResult in
                var result = PruneResult()
                try connection.execute("DELETE FROM pushes WHERE cycle_id IN (\(doomed))", values)
                result.pushes = connection.changes
                try connection.execute("DELETE FROM observations WHERE cycle_id IN (\(doomed))", values)
                result.observations = connection.changes
                try connection.execute("DELETE FROM cycles WHERE id IN (\(doomed))", values)
                result.cycles = connection.changes
                if source == nil {
                    try connection.execute("DELETE FROM pushes WHERE cycle_id IS NULL AND at < ?1", [before])
                    result.pushes += connection.changes
                    try connection.execute(
                        """
                        DELETE FROM observations AS o
                        WHERE o.cycle_id IS NULL AND o.at < ?1
                          AND o.id < (SELECT max(f.id) FROM observations AS f
                                      WHERE f.appliance_id = o.appliance_id AND f.full = 1 AND f.at <= ?1)
                        """, [before])
                    result.observations += connection.changes
                }
                return result
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(path: path, kind: .sqlite, problem: "failed while pruning: \(error)")
        }
    }

    /// Rebuilds the file to hand the space of deleted rows back to the file system.
    /// Needs a moment without other writers; `run` may wait for it.
    public func vacuum() throws(StoreError) {
        try perform("vacuuming") { () throws(SQLiteError) in
            try connection.execute("VACUUM")
            // In WAL mode the rebuilt pages land in the log: fold them back into the file.
            _ = try connection.firstRow("PRAGMA wal_checkpoint(TRUNCATE)", []) { $0.int64(0) }
        }
    }
}
