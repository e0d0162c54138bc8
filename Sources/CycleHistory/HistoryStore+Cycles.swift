import CycleCore
import CSQLite
import FoundationEssentials

extension HistoryStore {
    /// Starts a cycle of the appliance and returns its id.
    public func openCycle(applianceID: String, program: String?, startedAt: Date, source: CycleSource) throws(StoreError) -> Int64 {
        try perform("opening a cycle of '\(applianceID)'") { () throws(SQLiteError) in
            try connection.execute(
                "INSERT INTO cycles (appliance_id, program, started_at, source) VALUES (?1, ?2, ?3, ?4)",
                [applianceID, program, startedAt, source.rawValue])
            return connection.lastInsertRowID
        }
    }

    /// Updates what is known of a cycle as it runs. A nil argument leaves the column
    /// as it is. The first predicted (and shown) finish and the energy counter at the
    /// start keep the first value given; the program and the last predicted (and shown)
    /// finish take the latest; `maxProgress` only ever rises. The shown finish is the
    /// predicted one after the finish-time correction. `progressEstimated` marks the
    /// cycle's progress as estimated from past cycles, for good (false leaves it as it is).
    public func updateCycle(
        id: Int64, program: String?, firstPredictedFinish: Date?, lastPredictedFinish: Date?,
        maxProgress: Int?, energyStart: Double?, firstShownFinish: Date? = nil, lastShownFinish: Date? = nil,
        progressEstimated: Bool = false
    ) throws(StoreError) {
        try perform("updating cycle \(id)") { () throws(SQLiteError) in
            try connection.execute(
                """
                UPDATE cycles SET
                    program = coalesce(?2, program),
                    first_predicted_finish = coalesce(first_predicted_finish, ?3),
                    last_predicted_finish = coalesce(?4, last_predicted_finish),
                    max_progress = coalesce(max(max_progress, ?5), max_progress, ?5),
                    energy_start = coalesce(energy_start, ?6),
                    first_shown_finish = coalesce(first_shown_finish, ?7),
                    last_shown_finish = coalesce(?8, last_shown_finish),
                    progress_estimated = coalesce(?9, progress_estimated)
                WHERE id = ?1
                """, [id, program, firstPredictedFinish, lastPredictedFinish, maxProgress, energyStart.flatMap(Self.plausible),
                      firstShownFinish, lastShownFinish, progressEstimated ? 1 : nil])
        }
        try requireChange("has no cycle \(id) (expected an id from openCycle)")
    }

    /// Ends an open cycle. `energy_kwh` becomes `energyEnd` minus the counter at the
    /// start when both are known and the counter did not go backwards (a reset).
    /// `cost` (in `currency`) is what the cycle's energy cost, when a price was known.
    public func closeCycle(id: Int64, endedAt: Date, outcome: CycleOutcome, energyEnd: Double?,
                           cost: Double? = nil, currency: String? = nil) throws(StoreError) {
        try perform("closing cycle \(id)") { () throws(SQLiteError) in
            try connection.execute(
                """
                UPDATE cycles SET
                    ended_at = ?2,
                    outcome = ?3,
                    energy_kwh = CASE WHEN ?4 >= energy_start THEN ?4 - energy_start END,
                    cost = ?5,
                    currency = ?6
                WHERE id = ?1 AND outcome IS NULL
                """, [id, endedAt, outcome.rawValue, energyEnd.flatMap(Self.plausible), cost.flatMap(Self.plausible), currency])
        }
        try requireChange("has no open cycle \(id) to close (expected an id from openCycle, not yet closed)")
    }

    /// An energy reading to store, or nil (not reported) when it is absurd: `stats`
    /// must be able to add and show whatever the table holds.
    static func plausible(_ value: Double) -> Double? { NumberText.isPlausible(value) ? value : nil }

    /// The appliance's newest cycle started at or before `at`: the one a reminder at `at` reminds of.
    public func lastCycleID(applianceID: String, startedBy at: Date) throws(StoreError) -> Int64? {
        try perform("finding the last cycle of '\(applianceID)'") { () throws(SQLiteError) in
            try connection.firstRow(
                "SELECT id FROM cycles WHERE appliance_id = ?1 AND started_at <= ?2 ORDER BY started_at DESC, id DESC LIMIT 1",
                [applianceID, at]) { $0.int64(0) }
        }
    }

    /// The cycle with this id, if any.
    public func cycle(id: Int64) throws(StoreError) -> CycleRecord? {
        try perform("reading cycle \(id)") { () throws(SQLiteError) in
            try connection.firstRow("SELECT \(CycleRecord.columns) FROM cycles WHERE id = ?1", [id], CycleRecord.init(row:))
        }
    }

    /// How the appliance's finish estimates turned out, per program: the estimate error
    /// (end minus first predicted finish) of every finished cycle with a program and a
    /// prediction, and the duration of every finished cycle with a program, oldest first;
    /// only cycles started before `before` when given (a replayed cycle must not correct
    /// itself). What the household's finish-time correction and anomaly notes learn from.
    public func finishHistory(applianceID: String, before: Date? = nil) throws(StoreError) -> FinishHistory {
        var sql = """
            SELECT program, ended_at - first_predicted_finish, ended_at - started_at FROM cycles
            WHERE appliance_id = ?1 AND outcome = 'finished' AND program IS NOT NULL
              AND ended_at IS NOT NULL
            """
        var values: [any SQLiteBindable] = [applianceID]
        if let before {
            values.append(before)
            sql += " AND started_at < ?2"
        }
        sql += " ORDER BY started_at, id"
        var history = FinishHistory()
        try perform("reading the finish estimates of '\(applianceID)'") { () throws(SQLiteError) in
            try connection.forEachRow(sql, values) { row in
                if let error = row.optionalDouble(1) { history.errors[row.string(0), default: []].append(error) }
                if let duration = row.optionalDouble(2), duration > 0 {
                    history.durations[row.string(0), default: []].append(duration)
                }
            }
        }
        return history
    }

    /// Every cycle without an outcome, oldest first: what a restart resumes.
    public func openCycles() throws(StoreError) -> [CycleRecord] {
        try perform("reading the open cycles") { () throws(SQLiteError) in
            try connection.rows(
                "SELECT \(CycleRecord.columns) FROM cycles WHERE outcome IS NULL ORDER BY started_at, id",
                [], CycleRecord.init(row:))
        }
    }

    /// The cycles the filter matches, newest first (by start, then id).
    public func cycles(matching filter: CycleFilter) throws(StoreError) -> [CycleRecord] {
        let (conditions, values) = Self.conditions(filter)
        var sql = "SELECT \(CycleRecord.columns) FROM cycles" + conditions
        var bound = values
        sql += " ORDER BY started_at DESC, id DESC"
        if let limit = filter.limit {
            bound.append(limit)
            sql += " LIMIT ?\(bound.count)"
            if filter.offset > 0 {
                bound.append(filter.offset)
                sql += " OFFSET ?\(bound.count)"
            }
        }
        return try perform("listing cycles") { () throws(SQLiteError) in
            try connection.rows(sql, bound, CycleRecord.init(row:))
        }
    }

    /// How many cycles the filter matches, its limit aside.
    public func countCycles(matching filter: CycleFilter) throws(StoreError) -> Int {
        let (conditions, values) = Self.conditions(filter)
        return try perform("counting cycles") { () throws(SQLiteError) in
            try connection.firstRow("SELECT count(*) FROM cycles" + conditions, values) { Int($0.int64(0)) } ?? 0
        }
    }

    /// Every program key the history holds, sorted.
    public func programKeys() throws(StoreError) -> [String] {
        try perform("listing the programs") { () throws(SQLiteError) in
            try connection.rows("SELECT DISTINCT program FROM cycles WHERE program IS NOT NULL ORDER BY program", []) { $0.string(0) }
        }
    }

    /// The sources of the stored cycles (`run`, `replay`, `demo`), in that order.
    public func cycleSources() throws(StoreError) -> [CycleSource] {
        let found = try perform("listing the cycles' sources") { () throws(SQLiteError) in
            try connection.rows("SELECT DISTINCT source FROM cycles", []) { $0.string(0) }
        }
        return CycleSource.allCases.filter { found.contains($0.rawValue) }
    }

    /// Hands `visit` the figures `stats` works from, for every cycle matching `filter`
    /// (its order and limit are not used), with the grouping key read as asked. Nothing
    /// is kept: at 100,000 cycles, building full records took most of `stats`' time.
    public func forEachCycleFigures(
        matching filter: CycleFilter, by grouping: CycleFigures.Grouping, _ visit: (CycleFigures) -> Void
    ) throws(StoreError) {
        let key = switch grouping {
        case .appliance: "appliance_id"
        case .program: "program"
        case .none: "NULL"
        }
        let (conditions, values) = Self.conditions(filter)
        let sql = """
            SELECT \(key), started_at, ended_at - started_at, outcome = 'finished',
                   CASE WHEN outcome = 'finished' THEN ended_at - first_predicted_finish END, \(CycleRecord.pushesExpression),
                   energy_kwh, appliance_id, program, first_predicted_finish - started_at, cost, currency
            FROM cycles
            """ + conditions
        try perform("reading cycle figures") { () throws(SQLiteError) in
            try connection.forEachRow(sql, values) { row in
                let key = row.optionalString(0)
                // A string read is most of a row's cost: the key is not read twice.
                visit(CycleFigures(key: key, startedAt: row.date(1), duration: row.optionalDouble(2),
                                   finished: row.int64(3) == 1, estimateError: row.optionalDouble(4),
                                   pushes: Int(row.int64(5)), energyKWh: row.optionalDouble(6),
                                   applianceID: grouping == .appliance ? key : row.optionalString(7),
                                   program: grouping == .program ? key : row.optionalString(8),
                                   firstEstimateLead: row.optionalDouble(9), cost: row.optionalDouble(10),
                                   currency: row.optionalString(11)))
            }
        }
    }

    /// The WHERE clause for `filter`, with its bound values.
    private static func conditions(_ filter: CycleFilter) -> (sql: String, values: [any SQLiteBindable]) {
        var conditions: [String] = []
        var values: [any SQLiteBindable] = []
        func add(_ condition: String, _ value: (any SQLiteBindable)?) {
            if let value { values.append(value) }
            conditions.append(condition.replacing("?", with: "?\(values.count)"))
        }
        if let applianceID = filter.applianceID { add("appliance_id = ?", applianceID) }
        if let since = filter.since { add("started_at >= ?", since) }
        if let until = filter.until { add("started_at < ?", until) }
        if let program = filter.program { add("instr(lower(program), lower(?)) > 0", program) }
        if let programs = filter.programs {
            if programs.isEmpty { add("0", nil) }
            var placeholders: [String] = []
            for key in programs {
                values.append(key)
                placeholders.append("?\(values.count)")
            }
            if !programs.isEmpty { conditions.append("program IN (\(placeholders.joined(separator: ", ")))") }
        }
        if let source = filter.source { add("source = ?", source.rawValue) }
        switch filter.outcome {
        case .open: add("outcome IS NULL", nil)
        case .ended(let outcome): add("outcome = ?", outcome)
        case nil: break
        }
        return (conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND "), values)
    }

    /// Fails with `problem` when the last statement changed no row.
    func requireChange(_ problem: String) throws(StoreError) {
        guard connection.changes > 0 else {
            throw StoreError(path: path, kind: .missingRow, problem: problem)
        }
    }
}
