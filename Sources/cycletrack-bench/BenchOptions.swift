/// The benchmark's command line.
struct BenchOptions {
    static let usage = """
        usage: cycletrack-bench [--quick] [--footprint-seconds N] [--cycles N] [--latency-changes N]
                                [--idle-seconds N] [--traces DIR] [--seed N] [--keep-files]

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

    /// Reads the arguments after the program name.
    init(arguments: [String]) throws(BenchError) {
        var footprint: Double?
        var cycles: Int?
        var changes: Int?
        var idle: Double?
        var rest = arguments[...]
        while let word = rest.popFirst() {
            func value() throws(BenchError) -> String {
                guard let next = rest.popFirst() else { throw BenchError.usage("\(word) expects a value") }
                return next
            }
            switch word {
            case "--quick": quick = true
            case "--help", "-h": showHelp = true
            case "--keep-files": keepFiles = true
            case "--footprint-seconds":
                let text = try value()
                guard let seconds = Double(text), seconds >= 5, seconds <= 3600 else {
                    throw BenchError.usage("--footprint-seconds expects a number of seconds from 5 to 3600, got '\(text)'")
                }
                footprint = seconds
            case "--cycles":
                let text = try value()
                guard let count = Int(text), count >= 100, count <= 10_000_000 else {
                    throw BenchError.usage("--cycles expects a whole number from 100 to 10000000, got '\(text)'")
                }
                cycles = count
            case "--latency-changes":
                let text = try value()
                guard let count = Int(text), count >= 0, count <= 1_000 else {
                    throw BenchError.usage("--latency-changes expects a whole number from 0 to 1000, got '\(text)'")
                }
                changes = count
            case "--idle-seconds":
                let text = try value()
                guard let seconds = Double(text), seconds >= 5, seconds <= 3600 else {
                    throw BenchError.usage("--idle-seconds expects a number of seconds from 5 to 3600, got '\(text)'")
                }
                idle = seconds
            case "--traces":
                tracesDirectory = try value()
            case "--seed":
                let text = try value()
                guard let number = UInt64(text) else { throw BenchError.usage("--seed expects a whole number, got '\(text)'") }
                seed = number
            default:
                throw BenchError.usage("unknown argument '\(word)'; try --help")
            }
        }
        footprintSeconds = footprint ?? (quick ? 10 : 120)
        historyCycles = cycles ?? (quick ? 5_000 : 100_000)
        latencyChanges = changes ?? (quick ? 4 : 40)
        idleSeconds = idle ?? (quick ? 10 : 60)
    }

    /// Seconds of planner work to time (the corpus is repeated to fill them).
    var throughputSeconds: Double { quick ? 0.3 : 1.5 }
    /// How many times each history command and each start-up is timed.
    var repetitions: Int { quick ? 3 : 5 }
}
