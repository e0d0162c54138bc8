import CycleHistory
import HomeAssistantAPI
import CycleCore
import Dispatch
#if canImport(Glibc)
import Glibc
#endif

/// SIGTERM and SIGINT as an `AsyncStream`, for the long-running commands.
///
/// `install()` puts a handler in place first thing in `main`, and the handler only
/// writes the signal's number into a pipe (the one thing a handler may safely do); a
/// reader on its own dispatch queue turns the bytes into the stream. A signal that
/// arrives during start-up therefore waits in the pipe instead of ending the process.
/// (Blocking the signals and using dispatch signal sources left a window: the Swift
/// runtime's `dispatch_main` resets the main thread's mask, and libdispatch installs its
/// handler asynchronously.)
public final class ShutdownSignals: Sendable {
    public let received: AsyncStream<Int32>

    /// The pipe's two ends, set once by `install()` before the handler exists and only read
    /// afterwards, from the handler and the reader.
    nonisolated(unsafe) private static var pipeEnds: (read: Int32, write: Int32) = (-1, -1)

    /// Installs the handler for `signals`. Call it from `main` before anything else; a
    /// second call does nothing.
    public static func install(_ signals: [Int32] = [SIGTERM, SIGINT]) {
        guard pipeEnds.write < 0 else { return }
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        // The writing end never blocks: should the pipe ever be full, a signal more or less
        // changes nothing.
        _ = fcntl(ends[1], F_SETFL, O_NONBLOCK)
        pipeEnds = (ends[0], ends[1])
        for number in signals {
            // A SIGINT its parent told it to ignore (a shell's background job, nohup) stays ignored.
            var current = sigaction()
            if number == SIGINT, sigaction(number, nil, &current) == 0,
               unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self) {
                continue
            }
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { number in
                var byte = UInt8(truncatingIfNeeded: number)
                _ = write(ShutdownSignals.pipeEnds.write, &byte, 1)
            }
            action.sa_flags = SA_RESTART
            sigemptyset(&action.sa_mask)
            sigaction(number, &action, nil)
        }
    }

    /// The stream of signals received since `install()` (which it calls if needed).
    public init() {
        Self.install()
        let (stream, continuation) = AsyncStream<Int32>.makeStream()
        received = stream
        let readEnd = Self.pipeEnds.read
        // A blocking read for the life of the process, on its own thread rather than one
        // of the few the Swift concurrency pool has.
        DispatchQueue(label: "cycletrack.signals").async {
            var byte: UInt8 = 0
            while true {
                let count = read(readEnd, &byte, 1)
                if count == 1 {
                    continuation.yield(Int32(byte))
                } else if count < 0, errno == EINTR {
                    continue
                } else {
                    continuation.finish()
                    return
                }
            }
        }
    }
}
