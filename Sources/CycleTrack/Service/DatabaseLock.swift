#if canImport(Glibc)
import Glibc
#endif

/// Keeps a second `cycletrack run` off the same database: two services following the
/// same appliances would both send every start and end. An advisory `flock` on
/// `<database>.lock`, held for the life of the process and released by the kernel when
/// it ends, however it ends (`kill -9` included).
public final class DatabaseLock: Sendable {
    private let descriptor: Int32

    public init(database: String) throws(CommandError) {
        let path = database + ".lock"
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw .config("cannot create \(path) (\(String(cString: strerror(errno)))): is the database's folder writable?")
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            throw .config("another cycletrack run is using \(database) (it holds \(path)); stop it first")
        }
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }
}
