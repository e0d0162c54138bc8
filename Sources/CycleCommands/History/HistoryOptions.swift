import CycleHistory
import HomeAssistantAPI
import CycleService
import CycleCore
import FoundationEssentials
import LocalTime

/// The options `query` and `stats` share: which database, which cycles, and how to
/// write the result.
struct HistoryOptions: Sendable {
    enum Format: String, CaseIterable, Sendable {
        case table, json, csv
    }

    static let outcomes = ["finished", "aborted", "failed", "lost", "open"]

    /// The file `--db` names, else `$CYCLETRACK_DB`, else the config file's `database`
    /// (the config `run` would read, or `--config`), else `./cycletrack.sqlite`.
    let database: String
    let applianceID: String?
    let since: String?
    let until: String?
    /// Matched against the program key and its readable name, ignoring case.
    let program: String?
    let outcome: CycleFilter.Outcome?
    let source: CycleSource?
    let format: Format

    /// The option names these cover (all take a value).
    static let names: Set<String> = ["config", "db", "appliance", "since", "until", "program", "outcome", "source", "format"]

    init(_ arguments: Arguments, environment: [String: String]) throws(CommandError) {
        database = try Self.database(arguments, environment: environment)
        applianceID = arguments.value("appliance")
        since = arguments.value("since")
        until = arguments.value("until")
        program = arguments.value("program")
        switch try arguments.choice("outcome", Self.outcomes, default: "") {
        case "": outcome = nil
        case "open": outcome = .open
        case let ended: outcome = .ended(ended)
        }
        let source = try arguments.choice("source", CycleSource.allCases.map(\.rawValue), default: "")
        self.source = CycleSource(rawValue: source)
        let name = try arguments.choice("format", Format.allCases.map(\.rawValue), default: Format.table.rawValue)
        // `choice` only returns one of the raw values.
        format = Format(rawValue: name) ?? .table
    }

    /// Reads a history command's words: the shared options, `extra` ones of its own,
    /// `--help`, and no positional arguments.
    static func parse(_ words: [String], command: CommandName, extra: Set<String>, environment: [String: String])
        throws(CommandError) -> (arguments: Arguments, options: HistoryOptions, showHelp: Bool) {
        let parsed = try Arguments(words, valued: names.union(extra), flags: ["help"])
        if let first = parsed.positionals.first {
            throw .usage("\(command.rawValue) takes no arguments besides options, got '\(first)'")
        }
        return (parsed, try HistoryOptions(parsed, environment: environment), parsed.flag("help"))
    }

    /// Where the history is, found as `run` finds it.
    static func database(_ arguments: Arguments, environment: [String: String]) throws(CommandError) -> String {
        if let path = arguments.value("db") {
            guard !path.isEmpty else { throw .usage("--db expects a file path, got an empty value") }
            return path
        }
        if let path = environment["CYCLETRACK_DB"], !path.isEmpty { return path }
        let explicit = arguments.value("config")
        let config = try configured { () throws(ConfigurationError) in try ConfigurationLoader.load(explicit: explicit, environment: environment) }
        return config.database ?? "./cycletrack.sqlite"
    }

    /// The `--since` / `--until` range; a usage error (exit 64) for a bad or empty range.
    func range(now: Date, timeZone: LocalTimeZone) throws(CommandError) -> (since: Date?, until: Date?) {
        let start = try since.map { text throws(CommandError) in
            try TimeArgument.parse(text, option: "since", bound: .start, now: now, timeZone: timeZone)
        }
        let end = try until.map { text throws(CommandError) in
            try TimeArgument.parse(text, option: "until", bound: .end, now: now, timeZone: timeZone)
        }
        if let start, let end, start >= end {
            throw .usage("--since \(since ?? "") is not before --until \(until ?? ""): expected a range that contains some time")
        }
        return (start, end)
    }

    /// The cycles these options select. `--program` matches a program key or its
    /// readable name (what the table shows), as a substring ignoring case.
    func filter(range: (since: Date?, until: Date?), store: HistoryStore, programName: (String) -> String,
                limit: Int? = nil) throws(CommandError) -> CycleFilter {
        var filter = CycleFilter(applianceID: applianceID, since: range.since, until: range.until, outcome: outcome,
                                 limit: limit, source: source)
        if let program {
            let wanted = program.lowercased()
            let keys = try Self.read(store) { () throws(StoreError) in try store.programKeys() }
            filter.programs = keys.filter { $0.lowercased().contains(wanted) || programName($0).lowercased().contains(wanted) }
        }
        return filter
    }

    /// The history, opened read-only: 66 for a missing file; a data error (78) for a
    /// file that isn't SQLite or has a schema of another version; never modifies the file.
    func openStore() throws(CommandError) -> HistoryStore {
        try Self.openReadOnly(database)
    }

    static func openReadOnly(_ database: String) throws(CommandError) -> HistoryStore {
        do {
            return try HistoryStore(path: database, mode: .readOnly)
        } catch {
            throw CommandError(error.kind == .missingFile ? .noInput : .config, error.description)
        }
    }

    /// Runs a store read, reporting its failure as a data error (78).
    static func read<T>(_ store: HistoryStore, _ body: () throws(StoreError) -> T) throws(CommandError) -> T {
        do { return try body() } catch { throw .config(error.description) }
    }
}
