import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// A process spawned with `posix_spawn`, its stdout and stderr going to files, and
/// reaped with `waitpid` by this object alone (so exit statuses and times are exact).
/// A process still running when the object goes away is killed and reaped.
final class ChildProcess {
    enum Status: Equatable, CustomStringConvertible {
        case exited(Int32)
        case signaled(Int32)

        var description: String {
            switch self {
            case .exited(let code): "exit \(code)"
            case .signaled(let signal): "killed by signal \(signal)"
            }
        }
    }

    let pid: pid_t
    /// Just before `posix_spawn`.
    let spawnedAt: ContinuousClock.Instant
    let stdoutPath: String
    let stderrPath: String
    private(set) var status: Status?
    /// When `waitpid` first saw it gone.
    private(set) var exitedAt: ContinuousClock.Instant?

    init(executable: String, arguments: [String], environment: [String: String],
         stdoutPath: String, stderrPath: String) throws(BenchError) {
        self.stdoutPath = stdoutPath
        self.stderrPath = stderrPath
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdoutPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        spawnedAt = ContinuousClock.now
        let result = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        guard result == 0 else {
            throw BenchError("cannot start \(executable): \(String(cString: strerror(result)))")
        }
        self.pid = pid
    }

    deinit {
        if status == nil {
            kill(pid, SIGKILL)
            var raw: Int32 = 0
            waitpid(pid, &raw, 0)
        }
    }

    /// The exit status if it has ended, without waiting.
    @discardableResult
    func poll() -> Status? {
        if let status { return status }
        var raw: Int32 = 0
        let result = waitpid(pid, &raw, WNOHANG)
        guard result == pid else { return nil }
        exitedAt = ContinuousClock.now
        // The <sys/wait.h> macros, which Swift doesn't import: low 7 bits the signal, else bits 8-15 the code.
        status = raw & 0x7f == 0 ? .exited((raw >> 8) & 0xff) : .signaled(raw & 0x7f)
        return status
    }

    /// Waits up to `timeout` seconds for it to end, checking every millisecond.
    func wait(timeout: Double) -> Status? {
        let timer = Stopwatch()
        while poll() == nil {
            if timer.seconds >= timeout { return nil }
            usleep(1_000)
        }
        return status
    }

    /// Sends `signal` (SIGTERM, SIGKILL) unless it has already been reaped.
    func send(_ signal: Int32) {
        if poll() == nil { kill(pid, signal) }
    }

    /// Its stderr so far, last `lines` lines, for error messages.
    func stderrTail(_ lines: Int = 5) -> String {
        guard let data = FileManager.default.contents(atPath: stderrPath) else { return "" }
        return String(decoding: data, as: UTF8.self).split(separator: "\n").suffix(lines).joined(separator: "\n")
    }

    /// Its stdout, read after it ended.
    func standardOutput() -> String {
        FileManager.default.contents(atPath: stdoutPath).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }
}
