import CSQLite
import FoundationEssentials

extension HistoryStore {
    /// The settings changed through the local API, by appliance, then key: each value as
    /// the JSON text it was stored with (docs/API.md, "Settings").
    public func settingsOverrides() throws(StoreError) -> [String: [String: String]] {
        try keyedSettings(table: "appliance_settings", scope: "appliance_id", what: "the settings changed through the API")
    }

    /// Replaces every stored setting of the appliance with `values` (key to JSON text);
    /// empty drops them all. One transaction.
    public func replaceSettingsOverrides(applianceID: String, _ values: [String: String], at: Date) throws(StoreError) {
        try replaceKeyedSettings(table: "appliance_settings", scope: "appliance_id", applianceID, values, at: at)
    }

    /// This service's instance id: the one stored, or `make()`'s, stored now and kept for good.
    public func instanceID(making make: () -> String, at: Date) throws(StoreError) -> String {
        try perform("reading or storing the instance id") { () throws(SQLiteError) in
            if let stored = try connection.firstRow("SELECT instance_id FROM service_instance WHERE id = 1", [], { $0.string(0) }) {
                return stored
            }
            try connection.execute("INSERT OR IGNORE INTO service_instance (id, instance_id, created_at) VALUES (1, ?1, ?2)",
                                   [make(), at])
            return try connection.firstRow("SELECT instance_id FROM service_instance WHERE id = 1", [], { $0.string(0) }) ?? ""
        }
    }

    /// The energy of every stored cycle, summed per appliance (kWh): the total an energy
    /// sensor shows.
    public func energyTotals() throws(StoreError) -> [String: Double] {
        try perform("summing the cycles' energy") { () throws(SQLiteError) in
            var totals: [String: Double] = [:]
            try connection.forEachRow(
                "SELECT appliance_id, total(energy_kwh) FROM cycles WHERE energy_kwh IS NOT NULL GROUP BY appliance_id"
            ) { row in totals[row.string(0)] = row.double(1) }
            return totals
        }
    }
}
