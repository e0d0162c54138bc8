import CSQLite
import FoundationEssentials

extension HistoryStore {
    /// Whether a Home Assistant integration announced itself (table `integration`), and
    /// whether the REST states the service had posted are gone from HA since.
    public enum IntegrationRecord: Sendable, Equatable {
        /// No integration: the service posts its REST states.
        case none
        /// Announced; `restStatesRemoved` once none of the service's REST states is left in HA.
        case configured(restStatesRemoved: Bool)
    }

    /// The stored record (`.none` without a row).
    public func integrationRecord() throws(StoreError) -> IntegrationRecord {
        try perform("reading whether an integration is configured") { () throws(SQLiteError) in
            let removed = try connection.firstRow("SELECT rest_entities_removed FROM integration WHERE id = 1", []) { $0.int64(0) }
            return removed.map { .configured(restStatesRemoved: $0 != 0) } ?? .none
        }
    }

    /// Records an integration's announcement; a repeated one keeps what was removed.
    public func recordIntegration(at: Date) throws(StoreError) {
        try perform("recording the integration") { () throws(SQLiteError) in
            try connection.execute("INSERT OR IGNORE INTO integration (id, announced_at, rest_entities_removed) VALUES (1, ?1, 0)", [at])
        }
    }

    /// Records that none of the service's REST states is left in HA.
    public func recordRestStatesRemoved() throws(StoreError) {
        try perform("recording the REST states removed") { () throws(SQLiteError) in
            try connection.execute("UPDATE integration SET rest_entities_removed = 1 WHERE id = 1", [])
        }
    }

    /// Drops the record: the integration was removed, and the service posts its REST states again.
    public func forgetIntegration() throws(StoreError) {
        try perform("forgetting the integration") { () throws(SQLiteError) in
            try connection.execute("DELETE FROM integration", [])
        }
    }
}
