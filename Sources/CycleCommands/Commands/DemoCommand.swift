import CycleHistory
import HomeAssistantAPI
import CycleService
import CycleCore
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// `cycletrack demo`: the real runner, planner and store against a simulated
/// dishwasher and washer at high speed, with no HA and no network.
struct DemoCommand {
    var databasePath: String?
    var speed: Double
    let environment: [String: String]

    init(arguments: [String], environment: [String: String]) throws(CommandError) {
        let parsed = try Arguments(arguments, valued: ["db", "speed"])
        guard parsed.positionals.isEmpty else { throw .usage("demo takes no arguments, got '\(parsed.positionals[0])'") }
        databasePath = parsed.value("db")
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
        // Whole minutes, so the printed times read like a clock.
        let start = Date()
        let origin = Date(timeIntervalSince1970: (start.timeIntervalSince1970 / 60).rounded(.down) * 60)
        let clock = AcceleratedClock(origin: origin, speed: speed)
        let household = DemoHousehold(appliances: SimulatedAppliance.demoHousehold, clock: clock)
        let printer = DemoPrinter(clock: clock) { line in print(line) }
        var log = Log.fromEnvironment(environment)
        if environment["CYCLETRACK_LOG"] == nil { log.level = .warning }
        let runner: Runner
        do {
            runner = try Runner(
                appliances: household.tracked, databasePath: path, sourceName: .demo,
                options: .init(activePollSeconds: 10, idlePollSeconds: 30, dailyPushLimit: 400, rediscoverSeconds: nil),
                source: household, sink: printer, clock: clock, log: log)
        } catch {
            throw .config("demo database \(path): \(error)")
        }
        let end = household.appliances.map(\.over).max() ?? 0
        print("cycletrack demo: a dishwasher and a washer, \(Int(speed))x speed (a 3.5-hour cycle in about \(Int(3.5 * 3600 / speed)) s)")
        print("time   appliance  kind    what the phone shows")
        let service = Task { await runner.run() }
        let timer = Task {
            try? await clock.sleep(until: origin.addingTimeInterval(end))
            service.cancel()
        }
        // Ctrl-C stops the demo cleanly too: the history so far is shown and the
        // temporary database removed.
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
        let interruption = await interrupted.value
        print("")
        print("stored in \(temporary ? "a temporary database (use --db FILE to keep it)" : path):")
        let query = try QueryCommand(arguments: ["--db", path], environment: environment, programName: { ProgramName.readable($0) })
        CommandLineTool.emit(try query.run(now: clock.now()))
        return interruption ?? ExitCode.ok.rawValue
    }
}
