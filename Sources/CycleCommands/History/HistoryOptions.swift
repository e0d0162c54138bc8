import CycleHistory
import HomeAssistantAPI
import CycleService
import CycleCore
import FoundationEssentials

/// The options `query` and `stats` share: which database, which appliance, which
/// time range, and how to write the result.
struct HistoryOptions: Sendable {
    enum Format: String, CaseIterable, Sendable {
        case table, json, csv
    }

    /// The file `--db` names, else `$CYCLETRACK_DB`, else the config file's `database`, else
    /// `./cycletrack.sqlite`.
    let database: String
    let applianceID: String?
    let since: String?
    let until: String?
    let format: Format

    /// The option names these cover (all take a value).
    static let names: Set<String> = ["db", "appliance", "since", "until", "format"]

    init(_ arguments: Arguments, environment: [String: String]) throws(CommandError) {
        if let path = arguments.value("db") {
            guard !path.isEmpty else { throw .usage("--db expects a file path, got an empty value") }
            database = path
        } else if let path = environment["CYCLETRACK_DB"], !path.isEmpty {
            database = path
        } else if let configured = try configured { () throws(ConfigurationError) in try ConfigurationLoader.load(explicit: nil, environment: environment) }.database {
            // The database the service writes, when its config file is where `run` finds it.
            database = configured
        } else {
            database = "./cycletrack.sqlite"
        }
        applianceID = arguments.value("appliance")
        since = arguments.value("since")
        until = arguments.value("until")
        let name = try arguments.choice("format", Format.allCases.map(\.rawValue), default: Format.table.rawValue)
        // `choice` only returns one of the raw values.
        format = Format(rawValue: name) ?? .table
    }

    /// The `--since` / `--until` range; a config error (exit 78) for a bad or empty range.
    func range(now: Date, timeZone: TimeZone) throws(CommandError) -> (since: Date?, until: Date?) {
        let start = try since.map { text throws(CommandError) in
            try TimeArgument.parse(text, option: "since", bound: .start, now: now, timeZone: timeZone)
        }
        let end = try until.map { text throws(CommandError) in
            try TimeArgument.parse(text, option: "until", bound: .end, now: now, timeZone: timeZone)
        }
        if let start, let end, start >= end {
            throw .config("--since \(since ?? "") is not before --until \(until ?? ""): expected a range that contains some time")
        }
        return (start, end)
    }

    /// The history, opened read-only: a config error (exit 78) for a missing file, a
    /// file that isn't SQLite or a schema of another version; never modifies the file.
    func openStore() throws(CommandError) -> HistoryStore {
        do {
            return try HistoryStore(path: database, mode: .readOnly)
        } catch {
            throw .config(error.description)
        }
    }
}
