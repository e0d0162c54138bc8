import CycleHistory
import HomeAssistantAPI
import CycleCore
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Keeps a second `cycletrack run` (or a `demo`) off the same database: two services
/// following the same appliances would both send every start and end.
///
/// The lock is an advisory `flock` on the database file itself, so it follows the
/// file, not the name: a symlink, a hard link or a relative path to the same file all
/// meet the same lock. SQLite's own locks are POSIX record locks, which `flock` does
/// not touch. The descriptor stays open for the life of the lock (closing another
/// descriptor of the file would drop SQLite's record locks), and the kernel releases
/// the lock however the process ends, `kill -9` included.
public final class DatabaseLock: Sendable {
    /// Why the lock could not be taken: one line naming the file.
    public struct Refusal: Error, Sendable, CustomStringConvertible {
        public var description: String
        /// True when another process holds the lock (rather than the file being unusable).
        public var isHeld: Bool
    }

    private let descriptor: Int32

    /// Takes the lock on `database`, creating the file (0600, folder 0700) when missing.
    public init(database: String) throws(Refusal) {
        if !FileManager.default.fileExists(atPath: database) {
            do { try HistoryStore.createPrivately(database) } catch {
                throw Refusal(description: error.description, isHeld: false)
            }
        }
        let descriptor = open(database, O_RDWR | O_CLOEXEC)
        guard descriptor >= 0 else {
            let reason = String(cString: strerror(errno))
            throw Refusal(description: "database \(database) cannot be opened for writing (\(reason)); cycletrack run needs to write its history there",
                          isHeld: false)
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            throw Refusal(description: "another cycletrack run is using \(database) (it holds a lock on that file); stop it first",
                          isHeld: true)
        }
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }
}
