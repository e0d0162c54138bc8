import CSQLite
import FoundationEssentials

extension HistoryStore {
    /// The household's and the people's settings changed through the local API, by scope
    /// (`household` or a person entity), then key: each value as the JSON text it was
    /// stored with (docs/API.md, "The household").
    public func householdOverrides() throws(StoreError) -> [String: [String: String]] {
        try keyedSettings(table: "household_settings", scope: "scope", what: "the household's settings changed through the API")
    }

    /// Replaces every stored setting of `scope` with `values` (key to JSON text); empty
    /// drops them all. One transaction.
    public func replaceHouseholdOverrides(scope: String, _ values: [String: String], at: Date) throws(StoreError) {
        try replaceKeyedSettings(table: "household_settings", scope: "scope", scope, values, at: at)
    }

    /// Every row of a settings table (`appliance_settings`, `household_settings`): scope, key, JSON value.
    func keyedSettings(table: String, scope column: String, what: String) throws(StoreError) -> [String: [String: String]] {
        try perform("reading \(what)") { () throws(SQLiteError) in
            var all: [String: [String: String]] = [:]
            try connection.forEachRow("SELECT \(column), key, value FROM \(table) ORDER BY \(column), key") { row in
                all[row.string(0), default: [:]][row.string(1)] = row.string(2)
            }
            return all
        }
    }

    /// Replaces the rows of one scope in a settings table with `values`, in one transaction.
    func replaceKeyedSettings(table: String, scope column: String, _ scope: String, _ values: [String: String],
                              at: Date) throws(StoreError) {
        do {
            try transaction { () throws -> Void in
                try connection.execute("DELETE FROM \(table) WHERE \(column) = ?1", [scope])
                for key in values.keys.sorted() {
                    try connection.execute("INSERT INTO \(table) (\(column), key, value, changed_at) VALUES (?1, ?2, ?3, ?4)",
                                           [scope, key, values[key] ?? "null", at])
                }
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(path: path, kind: .sqlite, problem: "failed while storing the settings of '\(scope)': \(error)")
        }
    }
}
