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
        cycletrack \(CycletrackVersion.current): follows Home Connect appliance cycles in Home Assistant
        and drives iOS Live Activities / Android Live Updates through Supernotify.

        usage: cycletrack <command> [options]

        commands:
        \(CommandName.usageLines)

        'cycletrack help <command>' or 'cycletrack <command> --help' shows a command's
        options; 'cycletrack --version' the version.

        """

    /// The commands' names, in the order `usage` lists them.
    public static let commands = CommandName.allCases.map(\.rawValue)

    /// The one help text of each command: what `cycletrack COMMAND --help` and
    /// `cycletrack help COMMAND` print, and what docs/COMMANDS.md shows.
    public static func help(for command: String) -> String? {
        CommandName(rawValue: command)?.help
    }

    /// Runs the command line and returns the process's exit status.
    public static func main(_ arguments: [String], environment: [String: String]) async -> Int32 {
        guard let name = arguments.first else {
            // Asked for nothing: a usage error, so the help goes where errors go.
            StandardError.write(usage)
            return ExitCode.usage.rawValue
        }
        let rest = Array(arguments.dropFirst())
        if ["--version", "version"].contains(name), rest.isEmpty {
            emit("cycletrack \(CycletrackVersion.current)")
            return ExitCode.ok.rawValue
        }
        if ["--help", "-h", "help"].contains(name) {
            guard let topic = rest.first else {
                emit(usage)
                return ExitCode.ok.rawValue
            }
            guard rest.count == 1, let text = help(for: topic) else {
                return fail(.usage("help: unknown command '\(rest.joined(separator: " "))'; commands: \(commands.joined(separator: ", "))"))
            }
            emit(text)
            return ExitCode.ok.rawValue
        }
        guard let command = CommandName(rawValue: name) else {
            return fail(.usage("unknown command '\(name)'; commands: \(commands.joined(separator: ", ")) (try 'cycletrack --help')"))
        }
        if rest.contains("--help") || rest.contains("-h") {
            emit(command.help)
            return ExitCode.ok.rawValue
        }
        do throws(CommandError) {
            switch command {
            case .run: return try await RunCommand(arguments: rest, environment: environment).run()
            case .check: return try await CheckCommand(arguments: rest, environment: environment).run()
            case .replay: return try ReplayCommand(arguments: rest, environment: environment).run()
            case .demo: return try await DemoCommand(arguments: rest, environment: environment).run()
            case .serve: return try await ServeCommand(arguments: rest, environment: environment).run()
            case .apiKey: emit(try APIKeyCommand(arguments: rest, environment: environment).run())
            case .query: emit(try QueryCommand(arguments: rest, environment: environment).run(now: Date()))
            case .stats: emit(try StatsCommand(arguments: rest, environment: environment).run(now: Date()))
            case .prune: emit(try PruneCommand(arguments: rest, environment: environment).run(now: Date()))
            }
            return ExitCode.ok.rawValue
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
}
