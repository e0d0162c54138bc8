import CycleCommands
import CycleService
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

let arguments = Array(CommandLine.arguments.dropFirst())
// The long-running commands stop cleanly on SIGTERM/SIGINT; their handler goes in
// before anything else, so a signal during start-up is kept for the service to act on.
// (Short commands keep the default: Ctrl-C ends them at once.)
if let first = arguments.first, CommandName(rawValue: first)?.runsUntilStopped == true {
    ShutdownSignals.install()
    MemoryPolicy.apply()
}
let status = await CommandLineTool.main(arguments, environment: ProcessInfo.processInfo.environment)
exit(status)
