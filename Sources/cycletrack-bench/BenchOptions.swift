import CycleCommands

/// The benchmark's command line.
struct BenchOptions {
    static let usage = """
        usage: cycletrack-bench [--quick] [--footprint-seconds N] [--cycles N] [--latency-changes N]
                                [--idle-seconds N] [--traces DIR] [--seed N] [--keep-files]
               cycletrack-bench --real-ha [--ha-changes N] [--ha-restarts N] [--seed N] [--keep-files]

        Measures pushes per cycle over a trace corpus, planner throughput, the service's
        memory and CPU against a stand-in Home Assistant, history queries at scale,
        start-up time, and the latency from a change in HA to the Supernotify call with
        the idle CPU, in events and in poll mode. Needs the release build of cycletrack
        next to it:

            swift build -c release --static-swift-stdlib && .build/release/cycletrack-bench

          --quick                a fast smoke run of every phase (10 s footprint, 5,000 cycles,
                                 4 latency changes and 10 s idle per mode)
          --footprint-seconds N  how long `cycletrack run` is measured (default 120)
          --latency-changes N    changes in running cycles timed per mode (default 40; 0 skips the
                                 latency phase; poll mode takes about 10 s per change)
          --idle-seconds N       how long the idle CPU is measured per mode (default 60)
          --cycles N             cycles in the generated history database (default 100000)
          --traces DIR           the example traces (default: docs/examples in the package)
          --seed N               seed of the generated traces and history (default 20261102)
          --keep-files           keep the temporary directory (configs, logs, databases) and print its path

        --real-ha runs only this: the service in events mode against a real Home Assistant
        2026.11.0 (scripts/ha/forky-root.sh; root), timing a state change to the Supernotify
        call in HA, one observation per burst, and the way back after HA restarts:

          --ha-changes N         changes in running cycles timed (default 200)
          --ha-restarts N        HA restarts mid-cycle (default 5; 0 skips them)
        """

    var quick = false
    var footprintSeconds = 120.0
    var historyCycles = 100_000
    var latencyChanges = 40
    var idleSeconds = 60.0
    var tracesDirectory: String?
    var seed: UInt64 = 20_261_102
    var showHelp = false
    var keepFiles = false
    var realHA = false
    var haChanges = 200
    var haRestarts = 5

    /// Reads the arguments after the program name, as the `cycletrack` commands read theirs.
    init(arguments: [String]) throws(BenchError) {
        do throws(CommandError) {
            let parsed = try Arguments(arguments, valued: ["footprint-seconds", "cycles", "latency-changes", "idle-seconds",
                                                           "traces", "seed", "ha-changes", "ha-restarts"],
                                       flags: ["quick", "help", "keep-files", "real-ha"])
            showHelp = parsed.flag("help") || parsed.positionals.contains("-h")
            if let word = parsed.positionals.first(where: { $0 != "-h" }) {
                throw .usage("unknown argument '\(word)'; try --help")
            }
            quick = parsed.flag("quick")
            keepFiles = parsed.flag("keep-files")
            realHA = parsed.flag("real-ha")
            haChanges = try parsed.int("ha-changes", in: 1...10_000) ?? 200
            haRestarts = try parsed.int("ha-restarts", in: 0...100) ?? 5
            tracesDirectory = parsed.value("traces")
            footprintSeconds = try parsed.number("footprint-seconds", in: 5...3600) ?? (quick ? 10 : 120)
            historyCycles = try parsed.int("cycles", in: 100...10_000_000) ?? (quick ? 5_000 : 100_000)
            latencyChanges = try parsed.int("latency-changes", in: 0...1_000) ?? (quick ? 4 : 40)
            idleSeconds = try parsed.number("idle-seconds", in: 5...3600) ?? (quick ? 10 : 60)
            if let text = parsed.value("seed") {
                guard let number = UInt64(text) else { throw .usage("--seed expects a whole number, got '\(text)'") }
                seed = number
            }
        } catch {
            throw BenchError.usage(error.message)
        }
    }

    /// Seconds of planner work to time (the corpus is repeated to fill them).
    var throughputSeconds: Double { quick ? 0.3 : 1.5 }
    /// How many times each history command and each start-up is timed.
    var repetitions: Int { quick ? 3 : 5 }
}
