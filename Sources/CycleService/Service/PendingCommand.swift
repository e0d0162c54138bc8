import Dispatch
import Synchronization

/// A command waiting for the runner, with its outcome once there.
public final class PendingCommand: Sendable {
    public let command: RunnerCommand
    private let outcome = Mutex<CommandOutcome?>(nil)
    private let done = DispatchSemaphore(value: 0)

    init(_ command: RunnerCommand) {
        self.command = command
    }

    /// Answers the command (once; a second answer is ignored).
    public func finish(_ outcome: CommandOutcome) {
        let first = self.outcome.withLock { stored in
            guard stored == nil else { return false }
            stored = outcome
            return true
        }
        if first { done.signal() }
    }

    /// The outcome, waiting at most `seconds` for it; nil when none came in time.
    public func wait(_ seconds: Double) -> CommandOutcome? {
        guard done.wait(timeout: .now() + seconds) == .success else { return nil }
        return outcome.withLock { $0 }
    }
}
