import CycleService

/// The subcommands of `cycletrack`: each name written once, with the line the usage
/// shows for it and its help text.
public enum CommandName: String, CaseIterable, Sendable {
    case run, check, replay, query, stats, prune, serve, demo
    case apiKey = "api-key"

    /// What `cycletrack --help` says it does, in one line.
    var summary: String {
        switch self {
        case .run: "the service: follow HA, track cycles, send pushes, store history"
        case .check: "validate the config and reach HA: token, entities, supernotify"
        case .replay: "feed a recorded trace through the planner and print the calls it makes"
        case .query: "cycle history, newest first"
        case .stats: "durations, finish-time error, pushes per cycle, energy"
        case .prune: "delete old cycles from the history"
        case .serve: "the history page alone, over a history file (run serves it too)"
        case .demo: "the whole service against simulated appliances, no HA needed"
        case .apiKey: "print the local API's key, for the Home Assistant integration"
        }
    }

    /// The one help text: what `cycletrack COMMAND --help` and `cycletrack help COMMAND`
    /// print, and what docs/COMMANDS.md shows.
    var help: String {
        switch self {
        case .run: RunCommand.help
        case .check: CheckCommand.help
        case .replay: ReplayCommand.help
        case .query: QueryCommand.help
        case .stats: StatsCommand.help
        case .prune: PruneCommand.help
        case .serve: ServeCommand.help
        case .demo: DemoCommand.help
        case .apiKey: APIKeyCommand.help
        }
    }

    /// Whether it runs until stopped, so SIGTERM and SIGINT must end it cleanly.
    public var runsUntilStopped: Bool { self == .run || self == .demo }

    /// The commands section of the usage: one line per command, in order.
    static var usageLines: String {
        allCases.map { "  " + $0.rawValue.padded(to: 9) + $0.summary }.joined(separator: "\n")
    }
}
