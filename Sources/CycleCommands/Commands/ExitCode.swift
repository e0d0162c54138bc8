import CycleHistory
import HomeAssistantAPI
import CycleService
import CycleCore

/// Exit statuses, from BSD's sysexits as docs/REFERENCE.md, "Exit codes", names them.
public enum ExitCode: Int32, Sendable {
    case ok = 0
    /// A check or command that ran and found something wrong (e.g. `check` with a failing item).
    case failure = 1
    /// EX_USAGE: the command line is wrong.
    case usage = 64
    /// EX_NOINPUT: an input file does not exist.
    case noInput = 66
    /// EX_UNAVAILABLE: Home Assistant could not be reached and the command cannot go on.
    case unavailable = 69
    /// EX_SOFTWARE: an internal error.
    case software = 70
    /// EX_CONFIG: a configuration or data error, naming the file, key and what was expected.
    case config = 78
}
