import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Where the benchmark finds its inputs: the `cycletrack` binary built next to it,
/// and the package root (for the example traces in `docs/examples`).
struct BenchPaths {
    /// The release `cycletrack` next to this executable.
    let cycletrack: String
    /// The directory holding Package.swift, found by walking up from the executable
    /// (then from the working directory); nil when neither is inside the package.
    let packageRoot: String?

    static func locate() throws(BenchError) -> BenchPaths {
        let executable = try selfExecutable()
        let directory = parent(executable)
        let binary = directory + "/cycletrack"
        guard access(binary, X_OK) == 0 else {
            throw BenchError("""
                \(binary) is missing or not executable: build the service first, \
                in release mode, next to the benchmark:
                    swift build -c release && .build/release/cycletrack-bench
                """)
        }
        let root = packageRoot(from: directory) ?? packageRoot(from: FileManager.default.currentDirectoryPath)
        return BenchPaths(cycletrack: binary, packageRoot: root)
    }

    /// The example traces' directory: `--traces`, else the repository's `docs/examples`.
    func tracesDirectory(_ explicit: String?) -> String {
        if let explicit { return explicit }
        return (packageRoot ?? ".") + "/docs/examples"
    }

    private static func selfExecutable() throws(BenchError) -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { throw BenchError("cannot read /proc/self/exe to find the benchmark's own directory") }
        return String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func packageRoot(from start: String) -> String? {
        var directory = start
        while directory != "/" && !directory.isEmpty {
            if FileManager.default.fileExists(atPath: directory + "/Package.swift") { return directory }
            directory = parent(directory)
        }
        return nil
    }

    private func parent(_ path: String) -> String { Self.parent(path) }

    static func parent(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
