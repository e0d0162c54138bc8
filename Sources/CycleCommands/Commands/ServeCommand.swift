import CycleHistory
import CycleService
import CycleCore
import HistoryWeb
import ServiceAPI
import FoundationEssentials
import LocalTime

/// `cycletrack serve`: the history page alone, over a history file, until SIGTERM or
/// SIGINT: to browse a history without running the service (a copy, a replayed one).
/// `run` starts the same page beside the service (see `startPage`).
struct ServeCommand {
    static let help = """
        usage: cycletrack serve [--db FILE] [--config FILE] [--listen ADDRESS] [--port N]
                                [--allow ADDRESS,...]

        Serves the history page (the appliances now, the cycles, each cycle's timeline,
        per-program statistics) from a history file, read-only, until SIGTERM/SIGINT.
        'cycletrack run' serves the same page itself (config "http").

          --db FILE          the history database (found as 'cycletrack query' finds it)
          --config FILE      the configuration whose "database" and "http" to use
          --listen ADDRESS   the address to listen on (default: http.listen, 127.0.0.1)
          --port N           the port (default: http.port, 8099); 0 picks a free one
          --allow A,B        only these client addresses (default: http.allow; all)

        The address it serves on is logged: history_page url=http://127.0.0.1:8099/

        """

    let configPath: String?
    let databasePath: String?
    let listen: String?
    let port: Int?
    let allow: [String]?
    let environment: [String: String]

    init(arguments: [String], environment: [String: String]) throws(CommandError) {
        let parsed = try Arguments(arguments, valued: ["config", "db", "listen", "port", "allow"])
        guard parsed.positionals.isEmpty else { throw .usage("serve takes no arguments, got '\(parsed.positionals[0])'") }
        configPath = parsed.value("config")
        databasePath = parsed.value("db")
        listen = parsed.value("listen")
        port = try parsed.int("port", in: 0...65535)
        allow = parsed.value("allow").map { $0.split(separator: ",").map { String($0) } }
        if let listen, ClientAllowList.parse(listen) == nil {
            throw .usage("serve --listen expects an IP address like 127.0.0.1, 0.0.0.0 or ::, got '\(listen)'")
        }
        for address in allow ?? [] where ClientAllowList.parse(address) == nil {
            throw .usage("serve --allow expects IP addresses like 172.30.32.2 or ::1, got '\(address)'")
        }
        self.environment = environment
    }

    /// Says at start what is wrong with the history file rather than answering every page
    /// with a 503: missing (66), or not a cycletrack history or unreadable (78).
    static func checkHistory(_ database: String) throws(CommandError) {
        do {
            _ = try HistoryStore(path: database, mode: .readOnly)
        } catch {
            throw CommandError(error.kind == .missingFile ? .noInput : .config, "serve: \(error.description)")
        }
    }

    func run() async throws(CommandError) -> Int32 {
        let signals = ShutdownSignals()
        let log = Log.fromEnvironment(environment)
        let config = try configured { () throws(ConfigurationError) in try ConfigurationLoader.load(explicit: configPath, environment: environment) }
        let database = databasePath ?? environment["CYCLETRACK_DB"] ?? config.database ?? "cycletrack.sqlite"
        let settings = HistoryServer.Settings(
            listen: listen ?? config.httpListen, port: UInt16(clamping: port ?? config.httpPort), allow: allow ?? config.httpAllow)
        try Self.checkHistory(database)
        let server: HistoryServer
        do {
            server = try Self.startPage(settings, database: database, timeZone: LocalTimeZone.resolve(environment: environment), log: log)
        } catch {
            throw .config(error.description)
        }
        for await number in signals.received {
            log.info("signal", ["signal": number == 15 ? "SIGTERM" : number == 2 ? "SIGINT" : String(number), "action": "exiting"])
            break
        }
        server.stop()
        return ExitCode.ok.rawValue
    }

    /// Starts the history page over `database` and logs where it is; each request is
    /// logged at debug level.
    /// With `api`, paths under `/api/` are the local API's (docs/API.md).
    static func startPage(_ settings: HistoryServer.Settings, database: String, timeZone: LocalTimeZone, log: Log,
                          api: ServiceAPI? = nil) throws(HistoryServerError) -> HistoryServer {
        let site = HistorySite(databasePath: database, timeZone: timeZone)
        var opened = settings
        // HA reaches the API from its own address, not the ingress proxy's: the key guards it.
        if api != nil { opened.openPrefixes = ["/api/"] }
        let settings = opened
        let respond: @Sendable (HistoryRequest) -> HistoryResponse = { request in
            if let api, ServiceAPI.handles(request.path) { return api.respond(to: request) }
            return site.respond(to: request)
        }
        let server = try HistoryServer(settings, respond: respond, served: { request, status in
            log.debug("http_request", ["method": request.method, "path": request.path, "status": String(status)])
        }, refused: { address in
            log.warning("http_refused", ["client": address, "status": "403", "allow": settings.allow.joined(separator: ","),
                                         "action": "answered 403; logged once per address"])
        })
        let host = settings.listen.contains(":") ? "[\(settings.listen)]" : settings.listen
        log.info("history_page", ["url": "http://\(host):\(server.port)/", "database": database,
                                  "allow": settings.allow.isEmpty ? "any" : settings.allow.joined(separator: ",")])
        return server
    }
}
