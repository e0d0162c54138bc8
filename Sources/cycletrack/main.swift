import CycleTrack
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

let status = await CommandLineTool.main(Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment)
exit(status)
