import CycleHistory
import HomeAssistantAPI
import CycleService
import CycleCore
import FoundationEssentials
#if canImport(Glibc)
import Glibc
import LocalTime
#endif

/// `cycletrack demo`: the real runner, planner and store against a simulated
/// dishwasher and washer at high speed, with no HA and no network.
struct DemoCommand {
    static let help = """
        usage: cycletrack demo [--db FILE] [--speed N]

        Runs the whole service (runner, planner, store) against a simulated dishwasher and
        washer at high speed, with no Home Assistant: prints each call as the phone would
        show it, then the history it stored. Times are local ($TZ, else /etc/localtime).

          --db FILE   keep the history in FILE (default: a temporary file, removed at the
                      end). Its cycles are marked as source "demo" ('query --source demo',
                      'prune --source demo'); a database a running 'cycletrack run' holds
                      is refused.
          --speed N   simulated seconds per real second (default 2000: a 3.5-hour cycle
                      in about 6 s)

        """

    var databasePath: String?
    var speed: Double
    let environment: [String: String]

    init(arguments: [String], environment: [String: String]) throws(CommandError) {
        let parsed = try Arguments(arguments, valued: ["db", "speed"])
        guard parsed.positionals.isEmpty else { throw .usage("demo takes no arguments, got '\(parsed.positionals[0])'") }
        databasePath = parsed.value("db")
        if databasePath == "" { throw .usage("--db expects a file path, got an empty value") }
        speed = Double(try parsed.int("speed", in: 1...1_000_000) ?? 2000)
        self.environment = environment
    }

    func run() async throws(CommandError) -> Int32 {
        let signals = ShutdownSignals()
        let temporary = databasePath == nil
        let path = databasePath ?? "\(environment["TMPDIR"] ?? "/tmp")/cycletrack-demo-\(getpid()).sqlite"
        defer {
            if temporary {
                for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
            }
        }
        let lock = try Self.lock(path)
        defer { withExtendedLifetime(lock) {} }
        let timeZone = LocalTimeZone.resolve(environment: environment)
        // Whole minutes, so the printed times read like a clock.
        let start = Date()
        let origin = Date(timeIntervalSince1970: (start.timeIntervalSince1970 / 60).rounded(.down) * 60)
        let clock = AcceleratedClock(origin: origin, speed: speed)
        let household = DemoHousehold(appliances: SimulatedAppliance.demoHousehold, clock: clock)
        let printer = DemoPrinter(clock: clock, timeZone: timeZone) { line in StandardOutput.line(line) }
        var log = Log.fromEnvironment(environment)
        if environment["CYCLETRACK_LOG"] == nil { log.level = .warning }
        let runner: Runner
        var options = Runner.Options(activePollSeconds: 10, idlePollSeconds: 30, dailyPushLimit: 400, rediscoverSeconds: nil)
        options.delivery = household.delivery
        do {
            runner = try Runner(
                appliances: household.tracked, databasePath: path, sourceName: .demo, options: options,
                source: household, sink: printer, clock: clock, log: log)
        } catch {
            throw .config("demo database \(path): \(error)")
        }
        let end = household.appliances.map(\.over).max() ?? 0
        let cycleSeconds = NumberText.int(3.5 * 3600 / speed, .toNearestOrAwayFromZero) ?? 0
        StandardOutput.line("cycletrack demo: a dishwasher and a washer, \(NumberText.plain(speed))x speed (a 3.5-hour cycle in about \(cycleSeconds) s)")
        StandardOutput.line("Alice (\(DemoHousehold.person)) is out when the dishwasher finishes: its end notification waits until she is home")
        StandardOutput.line("time   appliance  kind    what the phone shows")
        let interruption = await Self.play(runner, clock: clock, until: origin.addingTimeInterval(end), signals: signals)
        StandardOutput.line("")
        StandardOutput.line("stored in \(temporary ? "a temporary database (use --db FILE to keep it)" : path):")
        let query = try QueryCommand(arguments: ["--db", path], environment: environment, timeZone: timeZone)
        StandardOutput.write(try query.run(now: clock.now()))
        return interruption ?? ExitCode.ok.rawValue
    }

    /// The lock `run` takes: a demo must not write into a history a service is writing.
    private static func lock(_ path: String) throws(CommandError) -> DatabaseLock {
        do {
            return try DatabaseLock(database: path)
        } catch {
            guard error.isHeld else { throw .config("demo database: \(error.description)") }
            let holder = LockHolder.describe(path).map { " by \($0)" } ?? ""
            throw .config("demo refuses \(path): it is held\(holder), a running cycletrack service writing its history there; "
                          + "run the demo without --db, or with another file")
        }
    }

    /// Runs the household until the demo's end on its clock, or until Ctrl-C (which stops
    /// it cleanly too: the history so far is shown and the temporary database removed).
    /// Returns the exit status an interruption asks for.
    private static func play(_ runner: Runner, clock: AcceleratedClock, until end: Date, signals: ShutdownSignals) async -> Int32? {
        let service = Task { await runner.run() }
        let timer = Task {
            try? await clock.sleep(until: end)
            service.cancel()
        }
        let interrupted = Task { () -> Int32? in
            for await number in signals.received {
                service.cancel()
                timer.cancel()
                return 128 + number
            }
            return nil
        }
        await service.value
        timer.cancel()
        interrupted.cancel()
        return await interrupted.value
    }
}
