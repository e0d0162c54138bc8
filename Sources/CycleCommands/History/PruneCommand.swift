import CycleHistory
import HomeAssistantAPI
import CycleService
import CycleCore
import FoundationEssentials
#if canImport(Glibc)
import Glibc
import LocalTime
#endif

/// `cycletrack prune`: deletes old cycles with their observations and pushes, and
/// hands the space back to the file system when asked (`--vacuum`).
public struct PruneCommand: Sendable {
    /// The `--help` text.
    public static let help = """
        usage: cycletrack prune --before WHEN [--source run|replay|demo] [--vacuum]
                                [--db FILE | --config FILE] [--dry-run]

        Deletes the ended cycles that started before WHEN, with their observations and
        pushes. Cycles still running are kept. Without --source it also deletes what was
        recorded between cycles before WHEN; with it, only cycles of that source go
        ('--source demo' removes what 'cycletrack demo --db' stored).

          --before WHEN     as for 'cycletrack query --until': 2026-01-01, 90d, ...
          --source S        only cycles recorded by run, replay or demo
          --vacuum          afterwards, rebuild the file so it shrinks on disk (needs a
                            moment without writes; a running service waits for it)
          --dry-run         say how many cycles would go, delete nothing
          --db FILE         the history database (found as 'cycletrack query' finds it)
          --config FILE     the configuration whose "database" to use

        It is safe while 'cycletrack run' writes to the same file. To prune as the service
        runs, set "history": {"keep_days": N} in the configuration instead.

        """

    let database: String
    let before: String?
    let source: CycleSource?
    let vacuum: Bool
    let dryRun: Bool
    let showHelp: Bool
    let timeZone: LocalTimeZone

    /// Reads the options; a usage error (exit 64) for an unknown option or a missing or bad `--before`.
    public init(arguments: [String], environment: [String: String], timeZone: LocalTimeZone? = nil) throws(CommandError) {
        let parsed = try Arguments(arguments, valued: ["before", "source", "db", "config"], flags: ["vacuum", "dry-run", "help"])
        if let extra = parsed.positionals.first {
            throw .usage("prune takes no arguments besides options, got '\(extra)'")
        }
        showHelp = parsed.flag("help")
        vacuum = parsed.flag("vacuum")
        dryRun = parsed.flag("dry-run")
        before = parsed.value("before")
        let source = try parsed.choice("source", CycleSource.allCases.map(\.rawValue), default: "")
        self.source = CycleSource(rawValue: source)
        database = showHelp ? "" : try HistoryOptions.database(parsed, environment: environment)
        if !showHelp, before == nil {
            throw .usage("prune needs --before WHEN (e.g. --before 180d, or --before 2026-01-01)")
        }
        self.timeZone = timeZone ?? LocalTimeZone.resolve(environment: environment)
    }

    /// Prunes and returns what it did, for stdout: 64 for a bad time, 66 for a missing
    /// database, 78 for one that can't be read or written.
    public func run(now: Date) throws(CommandError) -> String {
        if showHelp { return Self.help }
        let cutoff = try TimeArgument.parse(before ?? "", option: "before", bound: .start, now: now, timeZone: timeZone)
        guard FileManager.default.fileExists(atPath: database) else {
            throw CommandError(.noInput, "database \(database) does not exist (expected the history file that `cycletrack run` writes)")
        }
        func count(_ number: Int, _ noun: String) -> String {
            "\(number) \(source.map { "\($0.rawValue) " } ?? "")\(noun)\(number == 1 ? "" : "s")"
        }
        let when = TimeText.local(cutoff, timeZone: timeZone)
        if dryRun {
            let reader = try HistoryOptions.openReadOnly(database)
            let filter = CycleFilter(until: cutoff, source: source)
            let cycles = try HistoryOptions.read(reader) { () throws(StoreError) in try reader.cycles(matching: filter) }
            let ended = cycles.filter { !$0.isOpen }.count
            return "would delete \(count(ended, "cycle")) that started before \(when) (dry run: nothing deleted)\n"
                + (try kept(reader, before: cutoff, now: now))
        }
        let store: HistoryStore
        do { store = try HistoryStore(path: database) } catch { throw .config(error.description) }
        let sizeBefore = Self.bytes(database)
        let result = try HistoryOptions.read(store) { () throws(StoreError) in try store.prune(before: cutoff, source: source) }
        let observations = "\(result.observations) observation\(result.observations == 1 ? "" : "s")"
        let pushes = "\(result.pushes) push\(result.pushes == 1 ? "" : "es")"
        var text = "deleted \(count(result.cycles, "cycle")) that started before \(when), with \(observations) and \(pushes)\n"
        text += try kept(store, before: cutoff, now: now)
        if vacuum {
            try HistoryOptions.read(store) { () throws(StoreError) in try store.vacuum() }
            let sizeAfter = Self.bytes(database)
            text += "vacuumed \(database): \(Self.megabytes(sizeBefore)) -> \(Self.megabytes(sizeAfter))\n"
        }
        return text
    }

    /// The open cycles that started before the cutoff, each with why it stays: prune
    /// never deletes a cycle that may still be running (nor one whose end was never heard).
    private func kept(_ store: HistoryStore, before cutoff: Date, now: Date) throws(CommandError) -> String {
        let open = try HistoryOptions.read(store) { () throws(StoreError) in
            try store.openCycles().filter { $0.startedAt < cutoff && (source == nil || $0.source == source) }
        }
        guard !open.isEmpty else { return "" }
        var text = "kept \(open.count) open cycle\(open.count == 1 ? "" : "s") that started before the cutoff: an open cycle is never pruned\n"
        for cycle in open {
            let heard = try HistoryOptions.read(store) { () throws(StoreError) in try store.lastHeard(cycleID: cycle.id) }
            var why = "still open (no end heard)"
            if let heard { why += ", last heard \(TimeText.duration(now.timeIntervalSince(heard))) ago" }
            if cycle.isOverdue(at: now), let finish = cycle.expectedFinish {
                why += ", overdue since \(TimeText.local(finish, timeZone: timeZone))"
            }
            text += "  cycle \(cycle.id) \(cycle.applianceID) started \(TimeText.local(cycle.startedAt, timeZone: timeZone)): \(why)\n"
        }
        return text + "  'cycletrack run', following the appliance, ends such a cycle when it reports an end, or as lost after lost_after_minutes without news\n"
    }

    /// The file's size with its write-ahead log, bytes.
    static func bytes(_ path: String) -> Int {
        ["", "-wal"].reduce(0) { total, suffix in
            var info = stat()
            return total + (stat(path + suffix, &info) == 0 ? Int(info.st_size) : 0)
        }
    }

    static func megabytes(_ bytes: Int) -> String {
        NumberText.fixed(Double(bytes) / 1_048_576, decimals: 1) + " MB"
    }
}
