import CycleHistory
import HomeAssistantAPI
import CycleService
import CycleCore
import HistoryWeb
import ServiceAPI
import FoundationEssentials
import LocalTime

/// `cycletrack run`: the service. Runs until SIGTERM or SIGINT, then lets the call in
/// flight finish, commits, and exits 0.
struct RunCommand {
    static let help = """
        usage: cycletrack run [--config FILE] [--db FILE]

        The service: discovers or loads the appliances, follows them in Home Assistant,
        tracks each cycle, sends Supernotify calls and stores the history. Runs until
        SIGTERM or SIGINT, then lets the call in flight finish and exits 0.

          --config FILE  the configuration (default: $CYCLETRACK_CONFIG, else ./cycletrack.json,
                         else /data/options.json, else built-in defaults)
          --db FILE      the history database (default: $CYCLETRACK_DB, else the config's
                         "database", else ./cycletrack.sqlite)

        Only one 'run' (or 'demo') may use a database at a time. With "history":
        {"keep_days": N} in the configuration it deletes ended cycles older than N days,
        at the start and every 6 hours. Logs go to stderr, one key=value line per event;
        CYCLETRACK_LOG=debug|info|warning sets the level.

        """

    var configPath: String?
    var databasePath: String?
    let environment: [String: String]

    init(arguments: [String], environment: [String: String]) throws(CommandError) {
        let parsed = try Arguments(arguments, valued: ["config", "db"])
        guard parsed.positionals.isEmpty else { throw .usage("run takes no arguments, got '\(parsed.positionals[0])'") }
        configPath = parsed.value("config")
        databasePath = parsed.value("db")
        self.environment = environment
    }

    func run() async throws(CommandError) -> Int32 {
        // Before anything else, so that no thread is started with the signals unblocked.
        let signals = ShutdownSignals()
        let log = Log.fromEnvironment(environment)
        let config = try configured { () throws(ConfigurationError) in try ConfigurationLoader.load(explicit: configPath, environment: environment) }
        let access = try configured { () throws(ConfigurationError) in try HomeAssistantAccess.resolve(config, environment: environment) }
        let database = databasePath ?? environment["CYCLETRACK_DB"] ?? config.database ?? "cycletrack.sqlite"
        let lock: DatabaseLock
        do { lock = try DatabaseLock(database: database) } catch { throw .config(error.description) }
        let gateway = HomeAssistantGateway(client: HomeAssistantClient(baseURL: access.url, token: access.token, http: HTTPClient(configuration: .init(caFile: config.caFile))))
        log.info("starting", ["config": config.source, "ha": access.description, "database": database,
                              "discover": String(config.discover), "updates": config.updates.rawValue])

        let (appliances, discovery) = try await Self.appliances(config, gateway: gateway, log: log)
        let api = config.httpPort > 0 ? Self.prepareAPI(database: database, log: log) : nil
        let options = Self.options(config, discovered: discovery?.appliances != nil, link: api?.link, environment: environment)
        var rediscover: (@Sendable () async -> [TrackedAppliance]?)?
        if config.discover {
            rediscover = { await gateway.discover(config, log: log).appliances }
        }
        let runner: Runner
        do {
            runner = try Runner(appliances: appliances, databasePath: database, sourceName: .run, options: options,
                                source: gateway, sink: gateway, events: gateway,
                                surface: config.entities ? gateway : nil, clock: SystemClock(), log: log, rediscover: rediscover)
        } catch {
            throw .config(error.description)
        }
        let page = config.httpPort > 0 ? startPage(config, database: database, api: api, log: log) : nil
        let announcement = api.flatMap { api in
            Self.announce(api.key, port: config.httpPort, page: page, environment: environment, log: log)
        }
        let service = Task { await runner.run() }
        let retention = config.keepDays.map { days in
            Task { await HistoryRetention(database: database, keepDays: days, log: log).run() }
        }
        let watcher = Task {
            for await number in signals.received {
                log.info("signal", ["signal": number == 15 ? "SIGTERM" : number == 2 ? "SIGINT" : String(number),
                                    "action": "finishing the call in flight, then exiting"])
                service.cancel()
                break
            }
        }
        await service.value
        retention?.cancel()
        announcement?.cancel()
        watcher.cancel()
        // The runner closed the API's link: each event stream sends its end, so the
        // integration reads a clean end of the stream rather than a cut connection.
        page?.stop(lettingStreamsEndWithin: 3)
        withExtendedLifetime(lock) {}
        return ExitCode.ok.rawValue
    }

    /// The appliances to track at the start, each logged: the configured ones, or what
    /// discovery finds; with a hint in the log when there are none.
    private static func appliances(_ config: Configuration, gateway: HomeAssistantGateway,
                                   log: Log) async throws(CommandError) -> ([TrackedAppliance], HomeAssistantGateway.DiscoveryOutcome?) {
        var appliances = try configured { () throws(ConfigurationError) in try ApplianceDirectory.resolve(config, discovered: nil, skipUnmapped: config.discover) }
        var discovery: HomeAssistantGateway.DiscoveryOutcome?
        if config.discover {
            discovery = await gateway.discover(config, log: log)
            if let found = discovery?.appliances { appliances = found }
        }
        for appliance in appliances {
            let roles = appliance.entities.keys.sorted().map { "\($0.rawValue)=\(appliance.entities[$0] ?? "")" }
            log.info("tracking", ["appliance": appliance.id, "name": appliance.settings.name, "origin": appliance.origin,
                                  "entities": roles.joined(separator: ",")])
        }
        if appliances.isEmpty {
            let hint = switch discovery {
            case nil: "configure 'appliances' or turn on 'discover'"
            case .found: "discovery found no device of a known brand yet; it will look again"
            case .failed(.unauthorized): "Home Assistant refused the token (see ha_token_refused); discovery tries again later"
            case .failed, .conflict: "discovery could not run yet (see discovery_failed); it tries again soon"
            }
            log.warning("no_appliances", ["hint": hint])
        }
        return (appliances, discovery)
    }

    /// The runner's options from the configuration. `discovered`: whether the first
    /// discovery found the appliances (when it didn't, the next comes soon).
    private static func options(_ config: Configuration, discovered: Bool, link: ServiceLink?,
                                environment: [String: String]) -> Runner.Options {
        var options = Runner.Options(activePollSeconds: config.pollActiveSeconds, idlePollSeconds: config.pollIdleSeconds,
                                     dailyPushLimit: config.dailyPushLimit, rediscoverSeconds: config.discover ? 600 : nil)
        if config.discover, !discovered { options.firstDiscoverySeconds = options.retryDiscoverySeconds }
        options.untrackedSettings = { id, name in config.defaultSettings(id: id, name: name) }
        options.updates = config.updates
        options.link = link
        options.delivery = config.delivery
        options.delivery.clock = .local(environment: environment)
        return options
    }

    /// The history page and the local API beside the service, on its own threads and its
    /// own read-only connections. When it can't listen (a port in use), the service runs
    /// on, tracking and notifying, and says at error level what is missing: the page, and
    /// the integration's way in (`check`'s `http` row says so beforehand).
    private func startPage(_ config: Configuration, database: String, api: (link: ServiceLink, key: APIKey)?, log: Log) -> HistoryServer? {
        let settings = HistoryServer.Settings(listen: config.httpListen, port: UInt16(clamping: config.httpPort), allow: config.httpAllow)
        do {
            return try ServeCommand.startPage(settings, database: database, timeZone: LocalTimeZone.resolve(environment: environment),
                                              log: log, api: api.map { ServiceAPI(link: $0.link, key: $0.key, log: log) })
        } catch {
            log.error("local_server_failed", [
                "error": error.description,
                "meaning": api == nil ? "no history page" : "no history page, and the Home Assistant integration can't connect",
                "action": "tracking and notifying go on; stop what holds the port (another cycletrack?) or set http.port, then restart"])
            return nil
        }
    }

    /// The local API's key and link (docs/API.md): the key made on the first start, the
    /// instance id stored in the history. Nil, logged, when either can't be had: the
    /// service then runs without the API.
    static func prepareAPI(database: String, log: Log) -> (link: ServiceLink, key: APIKey)? {
        let path = APIKey.path(besideDatabase: database)
        do {
            let (key, created) = try APIKey.loadOrCreate(path)
            if created { log.info("api_key_created", ["file": path, "mode": "0600"]) }
            // As the runner opens it: `run` holds the lock, so an empty file is its own new one.
            let store = try HistoryStore(path: database, acceptEmptyFile: true)
            let instance = try store.instanceID(making: { UUID().uuidString.lowercased() }, at: Date())
            return (ServiceLink(version: CycletrackVersion.current, instanceID: instance), key)
        } catch {
            log.warning("api_unavailable", ["error": "\(error)", "action": "running without the local API"])
            return nil
        }
    }

    /// Inside the add-on ($SUPERVISOR_TOKEN set), tells the Supervisor where the API is,
    /// once the server listens; never fatal.
    static func announce(_ key: APIKey, port: Int, page: HistoryServer?, environment: [String: String], log: Log) -> Task<Void, Never>? {
        guard let page, let token = environment["SUPERVISOR_TOKEN"], !token.isEmpty else { return nil }
        let discovery = SupervisorDiscovery(supervisorURL: environment["CYCLETRACK_SUPERVISOR_URL"] ?? "http://supervisor", token: token)
        let host = environment["CYCLETRACK_ANNOUNCE_HOST"] ?? HostName.current()
        let bound = Int(page.port)
        return Task { await discovery.announce(host: host, port: bound == 0 ? port : bound, key: key, log: log) }
    }
}
