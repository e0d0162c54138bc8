import CycleTrack
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

let arguments = Array(CommandLine.arguments.dropFirst())
// The long-running commands stop cleanly on SIGTERM/SIGINT; the signals are held back
// here, before any other thread exists, so that one arriving during start-up waits for
// the service's handler. (Short commands keep the default: Ctrl-C ends them at once.)
if let command = arguments.first, ["run", "demo"].contains(command) {
    ShutdownSignals.block()
}
let status = await CommandLineTool.main(arguments, environment: ProcessInfo.processInfo.environment)
exit(status)
