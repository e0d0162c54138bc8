import CycleService
import FoundationEssentials
import ServiceAPI

/// `cycletrack api-key`: prints the local API's key, for setting the Home Assistant
/// integration up by hand (docs/API.md, "Auth").
struct APIKeyCommand {
    static let help = """
        usage: cycletrack api-key [--config FILE | --db FILE]

        Prints the key the Home Assistant integration needs to call the service's local
        API (docs/API.md): 64 hex characters, made by 'cycletrack run' on its first start
        and kept in cycletrack.api-key beside the history database (mode 0600). Inside
        the add-on the integration gets it through the Supervisor's discovery instead.

          --config FILE  the configuration whose "database" to use (found as 'run' finds it)
          --db FILE      the history database (default: $CYCLETRACK_DB, else the config's
                         "database", else ./cycletrack.sqlite)

        Exits 66 when no key was made yet (start 'cycletrack run' once). To make a new key,
        stop the service, delete the file and start it again.

        """

    let database: String

    init(arguments: [String], environment: [String: String]) throws(CommandError) {
        let parsed = try Arguments(arguments, valued: ["config", "db"])
        guard parsed.positionals.isEmpty else { throw .usage("api-key takes no arguments, got '\(parsed.positionals[0])'") }
        database = try HistoryOptions.database(parsed, environment: environment)
    }

    func run() throws(CommandError) -> String {
        let path = APIKey.path(besideDatabase: database)
        let key: APIKey?
        do { key = try APIKey.read(path) } catch { throw .config(error.description) }
        guard let key else {
            throw CommandError(.noInput, "no API key yet at \(path): 'cycletrack run' makes it on its first start (with the history page on)")
        }
        return key.text
    }
}
