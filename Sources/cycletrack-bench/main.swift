#if canImport(Glibc)
import Glibc
#endif

// The benchmark: see docs/BENCHMARK.md. Exit 0, or 1 when the per-cycle push budget
// was exceeded, 64 for a bad command line, 70 when it could not run (message on stderr).
do throws(BenchError) {
    let options = try BenchOptions(arguments: Array(CommandLine.arguments.dropFirst()))
    if options.showHelp {
        print(BenchOptions.usage)
        exit(0)
    }
    let run = BenchmarkRun(options: options, paths: try BenchPaths.locate())
    exit(try run.run())
} catch {
    Console.writeError("cycletrack-bench: \(error.message)\n")
    exit(error.exitCode)
}
