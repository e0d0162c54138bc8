import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// A private temporary directory for the run (config, token, databases, logs),
/// removed at the end, and the token the stand-in and the service share: random,
/// made at run time, written only to a 0600 file in that directory, never printed.
final class BenchWorkspace {
    let directory: String
    let token: String
    let tokenFile: String

    init() throws(BenchError) {
        let base = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array((base + "/cycletrack-bench-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else {
            throw BenchError("cannot create a temporary directory in \(base): \(String(cString: strerror(errno)))")
        }
        directory = String(cString: made)
        var generator = SystemRandomNumberGenerator()
        token = (0..<4).map { _ in
            let word = String(generator.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - word.count) + word
        }.joined()
        tokenFile = directory + "/ha_token"
        let fd = open(tokenFile, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard fd >= 0 else { throw BenchError("cannot create \(tokenFile): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        let bytes = Array((token + "\n").utf8)
        guard write(fd, bytes, bytes.count) == bytes.count else { throw BenchError("cannot write \(tokenFile)") }
    }

    /// A path inside the directory.
    func path(_ name: String) -> String { directory + "/" + name }

    /// Size of a file in bytes, 0 when missing.
    func size(of path: String) -> Int {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : 0
    }

    /// Removes the directory and everything in it.
    func remove() {
        try? FileManager.default.removeItem(atPath: directory)
    }
}
