import CycleHistory
import HomeAssistantAPI
import CycleService
import CycleCore
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// `cycletrack replay`: a recorded trace through the same `ApplianceTracker` that `run`
/// uses, with no HA and no clock; prints every call `run` would have made.
struct ReplayCommand {
    static let help = """
        usage: cycletrack replay [--config FILE] --appliance ID [TRACE.jsonl | -] [options]
               cycletrack replay [--config FILE] --cycle ID --db FILE [options]

        Feeds a recorded trace (JSON lines, a file or stdin) through the same state machine
        and planner that 'run' uses, with the appliance's settings from the configuration,
        and prints every call it would make. Nothing is sent; no Home Assistant is needed.

          --appliance ID           whose settings to use (any id when the config lists none)
          --format jsonl|table     jsonl (default): one {"at","kind","body"} object per call;
                                   table: one aligned line per call
          --steps JSON             other progress steps: '{"step":5}' or '{"at":[25,50,75]}'
          --cycle-push-limit N     another per-cycle limit (3 to 1000)
          --profile NAME           read the trace as another brand: home_connect, miele,
                                   lg_thinq, smartthings, whirlpool, electrolux or plug
          --cycle ID --db FILE     replay a stored cycle (an id from 'cycletrack query')
          --record FILE            also store what it played in a database, as source
                                   "replay" (calls marked replayed, holds not_sent)

        A summary goes to stderr: the cycles and their outcome, the calls per kind, what
        was held back and why, and the steps dropped to fit the per-cycle limit. The trace
        format is described in docs/examples/README.md; a line with "appliance": ID shows
        another appliance (a washer's dryer), replayed beside it with its own settings.

        """

    var configPath: String?
    var applianceID: String?
    var tracePath: String?
    var format: String
    var stepsOverride: ProgressSteps?
    var cyclePushLimit: Int?
    var profile: BrandProfile?
    var cycleID: Int64?
    var databasePath: String?
    var recordPath: String?
    let environment: [String: String]

    init(arguments: [String], environment: [String: String]) throws(CommandError) {
        let parsed = try Arguments(arguments, valued: ["config", "appliance", "format", "steps", "cycle-push-limit", "cycle", "db", "record", "profile"])
        self.environment = environment
        configPath = parsed.value("config")
        applianceID = parsed.value("appliance")
        format = try parsed.choice("format", ["jsonl", "table"], default: "jsonl")
        if let steps = parsed.value("steps") {
            stepsOverride = try configured { () throws(ConfigurationError) in try ConfigurationLoader.parseSteps(steps, origin: "--steps") }
        }
        cyclePushLimit = try parsed.int("cycle-push-limit", in: 3...1000)
        if let name = parsed.value("profile") {
            guard let known = BrandProfile(rawValue: name) else {
                throw .usage("--profile expects one of \(BrandProfile.allCases.map(\.rawValue).joined(separator: ", ")), got '\(name)'")
            }
            profile = known
        }
        if let cycle = parsed.value("cycle") {
            guard let id = Int64(cycle), id > 0 else { throw .usage("--cycle expects a cycle id from 'cycletrack query', got '\(cycle)'") }
            cycleID = id
            guard parsed.value("db") != nil || environment["CYCLETRACK_DB"] != nil else {
                throw .usage("--cycle needs --db FILE (the database the cycle is in)")
            }
        }
        databasePath = parsed.value("db") ?? environment["CYCLETRACK_DB"]
        recordPath = parsed.value("record")
        guard parsed.positionals.count <= 1 else {
            throw .usage("replay takes one trace file, got \(parsed.positionals.count): \(parsed.positionals.joined(separator: " "))")
        }
        tracePath = parsed.positionals.first
        if cycleID != nil, tracePath != nil { throw .usage("give either a trace file or --cycle ID, not both") }
    }

    func run() throws(CommandError) -> Int32 {
        let config = try configured { () throws(ConfigurationError) in try ConfigurationLoader.load(explicit: configPath, environment: environment) }
        let entries: [TraceEntry]
        var warnings: [String] = []
        var storedProfile: BrandProfile?
        let id: String
        if let cycleID {
            let stored = try StoredCycleTrace.load(cycleID: cycleID, databasePath: databasePath ?? "cycletrack.sqlite")
            id = applianceID ?? stored.applianceID
            entries = stored.observations.map { TraceEntry(observation: $0) }
            storedProfile = stored.profile
        } else {
            guard let applianceID else { throw .usage("replay needs --appliance ID (the appliance's settings come from the config)") }
            id = applianceID
            (entries, warnings) = try readTrace()
        }
        var settings = try settingsFor(id, in: config)
        if let stepsOverride { settings.steps = stepsOverride }
        if let cyclePushLimit { settings.cyclePushLimit = cyclePushLimit }
        // A stored cycle is read as it was recorded, unless the configuration or --profile says otherwise.
        if let storedProfile, config.appliance(id)?.hasProfile != true { settings.profile = storedProfile }
        if let profile { settings.profile = profile }
        settings = try learning(settings, before: entries.first?.observation.at)
        // The other appliances a trace of several names (a washer's dryer), as configured.
        var others: [ApplianceSettings] = []
        for other in Set(entries.compactMap(\.appliance)).subtracting([id]).sorted() {
            others.append(try settingsFor(other, in: config))
        }

        var recording: (recorder: CycleRecorder, error: CommandError?)? = try recordPath.map { path throws(CommandError) in
            (try Self.recorder(into: path), nil)
        }
        let history = finishHistory(id, before: entries.first?.observation.at, config: config)
        var delivery = config.delivery
        delivery.clock = .local(environment: environment)
        let result = Replay.run(settings: settings, others: others, entries: entries, dailyLimit: config.dailyPushLimit,
                                history: history, delivery: delivery) { steps, household in
            guard let current = recording, current.error == nil else { return }
            do {
                _ = try current.recorder.record(steps, of: household, status: .replayed)
            } catch {
                recording?.error = .config("cannot record into \(recordPath ?? ""): \(error)")
            }
        }
        if let error = recording?.error { throw error }
        var shown = result
        shown.warnings = warnings + result.warnings
        if format == "jsonl" {
            for call in result.calls { print(CallLine.jsonl(call)) }
        } else {
            print(ReplayTable.render(result.calls), terminator: "")
        }
        StandardError.write(ReplaySummary.render(shown, settings: settings, dailyLimit: config.dailyPushLimit))
        return ExitCode.ok.rawValue
    }

    /// The recorder `--record` writes through. A mistyped folder is said, not made: only
    /// `run` makes the history's folder.
    private static func recorder(into recordPath: String) throws(CommandError) -> CycleRecorder {
        let folder = recordPath.contains("/") ? String(recordPath[..<(recordPath.lastIndex(of: "/") ?? recordPath.endIndex)]) : "."
        var info = stat()
        if !folder.isEmpty, !(stat(folder, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR) {
            throw .config("cannot record into \(recordPath): the folder \(folder) does not exist (replay --record makes no folders)")
        }
        do {
            return CycleRecorder(store: try HistoryStore(path: recordPath), source: .replay)
        } catch {
            throw .config("cannot record into \(recordPath): \(error)")
        }
    }

    /// What `run` would have known of the appliance's finish estimates when the trace
    /// began: the finished cycles before it in `--db` (or the config's database) when
    /// that file exists; none otherwise.
    private func finishHistory(_ id: String, before: Date?, config: Configuration) -> FinishHistory {
        guard let path = databasePath ?? config.database, FileManager.default.fileExists(atPath: path) else {
            return FinishHistory()
        }
        do {
            return try HistoryStore(path: path, mode: .readOnly).finishHistory(applianceID: id, before: before)
        } catch {
            StandardError.write("warning: no finish-time correction or usual durations: \(error)\n")
            return FinishHistory()
        }
    }

    private func settingsFor(_ id: String, in config: Configuration) throws(CommandError) -> ApplianceSettings {
        if let configured = config.appliance(id) { return configured.settings }
        guard config.appliances.isEmpty else {
            let ids = config.appliances.map(\.settings.id).joined(separator: ", ")
            throw .config("\(config.source): no appliance '\(id)'; configured appliances: \(ids)")
        }
        guard ConfigurationLoader.isValidID(id) else {
            throw .usage("--appliance expects 1 to 50 of [A-Za-z0-9_-], got '\(id)'")
        }
        return config.defaultSettings(id: id)
    }

    private func readTrace() throws(CommandError) -> (entries: [TraceEntry], warnings: [String]) {
        let name = tracePath ?? "-"
        var text = ""
        if name == "-" {
            while let line = readLine(strippingNewline: false) { text += line }
        } else {
            guard FileManager.default.fileExists(atPath: name) else { throw CommandError(.noInput, "trace file \(name) does not exist") }
            guard let contents = FileManager.default.contents(atPath: name) else { throw CommandError(.noInput, "trace file \(name) cannot be read") }
            text = String(decoding: contents, as: UTF8.self)
        }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().map { (number: $0.offset + 1, text: String($0.element)) }
        do throws(TraceError) {
            return try Replay.entries(lines: lines)
        } catch {
            throw .config("\(name == "-" ? "stdin" : name): line \(error.line): \(error.message)")
        }
    }

    /// A plug's durations learned from the database's finished cycles that started before
    /// the replayed one, as `run` learns them when it starts (docs/CYCLES.md, "Smart plugs");
    /// the settings as they are without a database file.
    private func learning(_ settings: ApplianceSettings, before: Date?) throws(CommandError) -> ApplianceSettings {
        guard settings.profile == .plug, let path = databasePath ?? (cycleID == nil ? nil : "cycletrack.sqlite"),
              FileManager.default.fileExists(atPath: path) else { return settings }
        do {
            return try LearnedDurationsReader.learning(settings, store: try HistoryStore(path: path, mode: .readOnly), before: before)
        } catch {
            throw CommandError(.config, "\(error)")
        }
    }
}
