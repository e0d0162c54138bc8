import CycleCore
import CSQLite
import FoundationEssentials

extension HistoryStore {
    /// Records what Home Assistant showed for the appliance at `at` (role → state
    /// string; a role left out is not reported). Only the roles that differ from the
    /// appliance's previous observation are stored; nothing is stored when nothing
    /// changed and the cycle is the same. The first row of an appliance, the first row
    /// after its cycle changes, and every 500th row hold every role instead.
    ///
    /// Observations of an appliance are expected in time order. `units` (role → unit of
    /// measurement) are stored with a full row and whenever they change.
    /// - Returns: the id of the stored row, or nil when nothing was stored.
    @discardableResult
    public func recordObservation(applianceID: String, cycleID: Int64?, at: Date, states: [Role: String],
                                  units: [Role: String] = [:]) throws(StoreError) -> Int64? {
        let states = Self.keyed(states), units = Self.keyed(units)
        var remembered = try observationState(of: applianceID)
        let unitsChanged = units != remembered.units
        guard let row = remembered.row(for: states, cycleID: cycleID) ?? (unitsChanged ? ([:], false) : nil) else {
            return nil
        }
        let json = encode(row.changed)
        let unitsJSON: String? = row.full || unitsChanged ? encode(units.mapValues { Optional($0) }) : nil
        let id = try perform("recording an observation of '\(applianceID)'") { () throws(SQLiteError) in
            try connection.execute(
                "INSERT INTO observations (appliance_id, cycle_id, at, changed, full, units) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                [applianceID, cycleID, at, json, row.full ? 1 : 0, unitsJSON])
            return connection.lastInsertRowID
        }
        remembered.apply(changed: row.changed, full: row.full, cycleID: cycleID)
        remembered.units = units
        applianceStates[applianceID] = remembered
        return id
    }

    /// Whether ``recordObservation(applianceID:cycleID:at:states:units:)`` would store a
    /// row for these states: they, their units or the cycle differ from the appliance's
    /// last recorded observation. The store is the one owner of what was last recorded.
    public func observationDiffers(applianceID: String, cycleID: Int64?, states: [Role: String],
                                   units: [Role: String] = [:]) throws(StoreError) -> Bool {
        let remembered = try observationState(of: applianceID)
        return remembered.row(for: Self.keyed(states), cycleID: cycleID) != nil || Self.keyed(units) != remembered.units
    }

    private static func keyed(_ byRole: [Role: String]) -> [String: String] {
        Dictionary(uniqueKeysWithValues: byRole.map { ($0.key.rawValue, $0.value) })
    }

    /// The cycle's observations in time order, each with the full state at that point,
    /// preceded by the appliance's last observation before the cycle started (if any),
    /// so a replay sees the state the cycle started from.
    public func observations(cycleID: Int64) throws(StoreError) -> [ObservationRecord] {
        guard let cycle = try cycle(id: cycleID) else { return [] }
        let appliance = cycle.applianceID
        return try perform("reading the observations of cycle \(cycleID)") { () throws(SQLiteError) in
            let bounds = try connection.firstRow(
                "SELECT min(id), max(id) FROM observations WHERE cycle_id = ?1", [cycleID]
            ) { row in (first: row.optionalInt64(0), last: row.optionalInt64(1)) }
            let before = try connection.firstRow(
                """
                SELECT id FROM observations
                WHERE appliance_id = ?1 AND cycle_id IS NOT ?2 AND at <= ?3 AND id < ?4
                ORDER BY id DESC LIMIT 1
                """, [appliance, cycleID, cycle.startedAt, bounds?.first ?? Int64.max]
            ) { row in row.int64(0) }
            guard let first = before ?? bounds?.first else { return [] }
            let last = bounds?.last ?? first
            var result: [ObservationRecord] = []
            try replay(applianceID: appliance, through: last, startingAtOrBefore: first) { record in
                if record.id == before || record.cycleID == cycleID { result.append(record) }
            }
            return result
        }
    }

    /// When the cycle was last heard from: its newest observation's time, nil when none.
    public func lastHeard(cycleID: Int64) throws(StoreError) -> Date? {
        try perform("reading the last observation of cycle \(cycleID)") { () throws(SQLiteError) in
            try connection.firstRow("SELECT max(at) FROM observations WHERE cycle_id = ?1", [cycleID]) { $0.optionalDate(0) } ?? nil
        }
    }

    /// The appliance's newest observation with the full state at that point, if any:
    /// what the history page shows as the appliance's state now.
    public func lastObservation(applianceID: String) throws(StoreError) -> ObservationRecord? {
        try perform("reading the last observation of '\(applianceID)'") { () throws(SQLiteError) in
            guard let last = try connection.firstRow(
                "SELECT max(id) FROM observations WHERE appliance_id = ?1", [applianceID], { $0.optionalInt64(0) }
            ), let last else { return nil }
            var newest: ObservationRecord?
            try replay(applianceID: applianceID, through: last, startingAtOrBefore: last) { newest = $0 }
            return newest
        }
    }

    /// What is remembered of the appliance's last observation, rebuilt from the
    /// database the first time it is needed.
    private func observationState(of applianceID: String) throws(StoreError) -> ApplianceObservationState {
        if let known = applianceStates[applianceID] { return known }
        var state = ApplianceObservationState.none
        try perform("reading the last observation of '\(applianceID)'") { () throws(SQLiteError) in
            guard let last = try connection.firstRow(
                "SELECT max(id) FROM observations WHERE appliance_id = ?1", [applianceID], { $0.optionalInt64(0) }
            ), let last else { return }
            try replay(applianceID: applianceID, through: last, startingAtOrBefore: last) { record in
                state.states = record.states
                state.cycleID = record.cycleID
                state.hasObservations = true
                state.units = record.units
            }
            state.changesSinceFull = try connection.firstRow(
                """
                SELECT count(*) FROM observations WHERE appliance_id = ?1 AND id > coalesce(
                    (SELECT max(id) FROM observations WHERE appliance_id = ?1 AND full = 1), 0)
                """, [applianceID], { Int($0.int64(0)) }) ?? 0
        }
        applianceStates[applianceID] = state
        return state
    }

    /// Rebuilds the appliance's state row by row, from the last full row at or before
    /// `start` through `last`, handing each row with its full state to `visit`.
    private func replay(
        applianceID: String, through last: Int64, startingAtOrBefore start: Int64,
        _ visit: (ObservationRecord) -> Void
    ) throws(SQLiteError) {
        let fullRow = try connection.firstRow(
            "SELECT max(id) FROM observations WHERE appliance_id = ?1 AND full = 1 AND id <= ?2",
            [applianceID, start], { $0.optionalInt64(0) }) ?? nil
        let rows = try connection.rows(
            """
            SELECT id, cycle_id, at, changed, full, units FROM observations
            WHERE appliance_id = ?1 AND id BETWEEN ?2 AND ?3 ORDER BY id
            """, [applianceID, fullRow ?? 0, last]
        ) { row throws(SQLiteError) in
            (id: row.int64(0), cycleID: row.optionalInt64(1), at: row.date(2),
             changed: try decodeChanged(row.string(3), sql: row.sql), full: row.int64(4) != 0,
             units: try row.optionalString(5).map { json throws(SQLiteError) in try decodeChanged(json, sql: row.sql) })
        }
        var state = ApplianceObservationState.none
        for row in rows {
            state.apply(changed: row.changed, full: row.full, cycleID: row.cycleID)
            if let units = row.units { state.units = units.compactMapValues { $0 } }
            visit(ObservationRecord(
                id: row.id, applianceID: applianceID, cycleID: row.cycleID, at: row.at,
                states: state.states, changedRoles: Set(row.changed.keys), units: state.units))
        }
    }

    /// `{"progress":"42","program":null}`, keys sorted. Written by hand: a JSONEncoder per
    /// row was most of the cost of recording an observation.
    private func encode(_ changed: [String: String?]) -> String {
        let fields = changed.keys.sorted().map { key in
            JSONValue.quoted(key) + ":" + (changed[key].flatMap { $0 }.map(JSONValue.quoted) ?? "null")
        }
        return "{" + fields.joined(separator: ",") + "}"
    }

    private func decodeChanged(_ json: String, sql: String) throws(SQLiteError) -> [String: String?] {
        do {
            return try JSONDecoder().decode([String: String?].self, from: Data(json.utf8))
        } catch {
            throw SQLiteError(
                code: SQLITE_MISMATCH,
                message: "observations.changed is '\(json)', expected a JSON object of role to state string or null",
                sql: sql)
        }
    }
}
