import CycleHistory
import HomeAssistantAPI
import CycleService
import CycleCore
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// `cycletrack <command> [options]`: finds the subcommand, runs it, and turns a
/// `CommandError` into a one-line message on stderr and its exit status.
public enum CommandLineTool {
    public static let usage = """
        cycletrack: follows Home Connect appliance cycles in Home Assistant and drives
        iOS Live Activities / Android Live Updates through Supernotify.

        usage: cycletrack <command> [options]

        commands:
          run      the service: poll HA, track cycles, send pushes, store history
          check    validate the config and reach HA: token, entities, supernotify.notify
          replay   feed a recorded trace through the planner and print the calls it makes
          query    cycle history, newest first
          stats    durations, finish-time error, pushes per cycle, energy
          demo     the whole service against simulated appliances, no HA needed

        'cycletrack <command> --help' shows a command's options.
        """

    /// Runs the command line and returns the process's exit status.
    public static func main(_ arguments: [String], environment: [String: String]) async -> Int32 {
        guard let name = arguments.first else {
            print(usage)
            return ExitCode.usage.rawValue
        }
        let rest = Array(arguments.dropFirst())
        if ["--help", "-h", "help"].contains(name) {
            print(usage)
            return ExitCode.ok.rawValue
        }
        if rest.contains("--help") || rest.contains("-h") {
            guard let help = help[name] else { return fail(.usage("unknown command '\(name)'; try --help")) }
            print(help)
            return ExitCode.ok.rawValue
        }
        do throws(CommandError) {
            switch name {
            case "run": return try await RunCommand(arguments: rest, environment: environment).run()
            case "check": return try await CheckCommand(arguments: rest, environment: environment).run()
            case "replay": return try ReplayCommand(arguments: rest, environment: environment).run()
            case "demo": return try await DemoCommand(arguments: rest, environment: environment).run()
            case "query":
                let command = try QueryCommand(arguments: rest, environment: environment, programName: { ProgramName.readable($0) })
                emit(try command.run(now: Date()))
                return ExitCode.ok.rawValue
            case "stats":
                let command = try StatsCommand(arguments: rest, environment: environment, programName: { ProgramName.readable($0) })
                emit(try command.run(now: Date()))
                return ExitCode.ok.rawValue
            default:
                return fail(.usage("unknown command '\(name)'; commands: run, check, replay, query, stats, demo"))
            }
        } catch {
            return fail(error)
        }
    }

    static func fail(_ error: CommandError) -> Int32 {
        StandardError.write("cycletrack: \(error.message)\n")
        return error.code.rawValue
    }

    static func emit(_ text: String) {
        guard !text.isEmpty else { return }
        print(text, terminator: text.hasSuffix("\n") ? "" : "\n")
    }

    static let help: [String: String] = [
        "run": """
            usage: cycletrack run [--config FILE] [--db FILE]

            The service: discovers or loads the appliances, polls Home Assistant, tracks each
            cycle, sends Supernotify calls and stores the history. Runs until SIGTERM/SIGINT.
              --config FILE  configuration (default: $CYCLETRACK_CONFIG, ./cycletrack.json, /data/options.json)
              --db FILE      database (default: the config's "database", else ./cycletrack.sqlite)
            Logs go to stderr, one key=value line per event; CYCLETRACK_LOG=debug|info|warning.
            """,
        "check": """
            usage: cycletrack check [--config FILE]

            Validates the configuration, reaches Home Assistant, confirms the token, the HA
            version, that supernotify.notify exists and each configured entity exists, and
            lists the appliances it would track. Exit 0 only when all is well.
            """,
        "replay": """
            usage: cycletrack replay [--config FILE] --appliance ID [TRACE.jsonl | -] [options]

            Feeds a recorded trace (JSON lines, or stdin) through the same state machine and
            planner that 'run' uses and prints every call it would make.
              --format jsonl|table       jsonl (default): one {"at","kind","body"} object per call
              --steps JSON               e.g. '{"step":5}' or '{"at":[25,50,75]}': other progress steps
              --cycle-push-limit N       another per-cycle limit
              --cycle ID --db FILE       replay a stored cycle instead of a file
              --record FILE              also write what it played into a database (calls marked not sent)
              --db FILE                  the history the finish-time correction learns from (cycles
                                         before the trace; default: the config's database, if any)
            A summary (cycles, outcome, calls per kind) goes to stderr.
            """,
        "query": """
            usage: cycletrack query [--db FILE] [--appliance ID] [--since WHEN] [--until WHEN]
                                    [--program P] [--outcome O] [--limit N] [--format table|json|csv]

            Cycle history, newest first. WHEN: an ISO date or time, or relative: 30m, 12h, 7d, 2w.
            """,
        "stats": """
            usage: cycletrack stats [--db FILE] [--appliance ID] [--since WHEN] [--until WHEN]
                                    [--by program|appliance|week] [--format table|json|csv]

            Counts, duration (median, p90), finish-time estimate error, pushes per cycle, energy.
            """,
        "demo": """
            usage: cycletrack demo [--db FILE] [--speed N]

            Runs the whole service (runner, planner, store) against a simulated dishwasher and
            washer at high speed, with no Home Assistant: prints each call as it would send it,
            then the history it stored. The database is a temporary file unless --db is given.
              --speed N   simulated seconds per real second (default 2000)
            """,
    ]
}
