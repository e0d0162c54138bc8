import Foundation

/// The built `cycletrack` executable, run as a user runs it: a child process with its
/// own arguments, environment, standard streams and exit status.
final class CycletrackProcess: @unchecked Sendable {
    // Unchecked: the process and the pipes are owned here; output is read after exit, or
    // through `stderrSoFar`, which locks.
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// The executable beside the test bundle (`.build/<triple>/debug/cycletrack`).
    static var executable: String {
        let testBinary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var directory = testBinary.deletingLastPathComponent()
        while directory.pathComponents.count > 1 {
            let candidate = directory.appendingPathComponent("cycletrack").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            if directory.lastPathComponent.hasSuffix(".xctest") || directory.lastPathComponent == "Contents" {
                directory = directory.deletingLastPathComponent()
                continue
            }
            break
        }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        return root.appendingPathComponent(".build/debug/cycletrack").path
    }

    let process = Process()
    private let out = Pipe()
    private let err = Pipe()
    private let lock = NSLock()
    private var errData = Data()
    private var outData = Data()

    /// A child a test left running (it threw before stopping it) goes with it: SIGTERM.
    deinit {
        if process.isRunning { process.terminate() }
    }

    init(_ arguments: [String], environment: [String: String] = [:], directory: String? = nil, stdin: String? = nil) throws {
        process.executableURL = URL(fileURLWithPath: Self.executable)
        process.arguments = arguments
        var env = ["PATH": "/usr/bin:/bin", "HOME": NSTemporaryDirectory()]
        env.merge(environment) { _, new in new }
        process.environment = env
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        process.standardOutput = out
        process.standardError = err
        if let stdin {
            let input = Pipe()
            process.standardInput = input
            try process.run()
            input.fileHandleForWriting.write(Data(stdin.utf8))
            try input.fileHandleForWriting.close()
        } else {
            process.standardInput = FileHandle.nullDevice
            try process.run()
        }
        err.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let chunk = handle.availableData
            guard let self, !chunk.isEmpty else { return }
            self.lock.withLock { self.errData.append(chunk) }
        }
        out.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let chunk = handle.availableData
            guard let self, !chunk.isEmpty else { return }
            self.lock.withLock { self.outData.append(chunk) }
        }
    }

    /// Runs to the end (bounded: killed after `timeout` seconds) and returns what it did.
    static func run(_ arguments: [String], environment: [String: String] = [:], directory: String? = nil,
                    stdin: String? = nil, timeout: Double = 60) throws -> Result {
        let child = try CycletrackProcess(arguments, environment: environment, directory: directory, stdin: stdin)
        return child.wait(timeout: timeout)
    }

    var stderrSoFar: String { lock.withLock { String(decoding: errData, as: UTF8.self) } }
    var stdoutSoFar: String { lock.withLock { String(decoding: outData, as: UTF8.self) } }

    func signal(_ number: Int32) { kill(process.processIdentifier, number) }

    /// Waits for the exit (SIGKILL after `timeout`), then drains both pipes.
    func wait(timeout: Double) -> Result {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning, Date() < deadline { usleep(20_000) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        process.waitUntilExit()
        out.fileHandleForReading.readabilityHandler = nil
        err.fileHandleForReading.readabilityHandler = nil
        let restOut = out.fileHandleForReading.readDataToEndOfFile()
        let restErr = err.fileHandleForReading.readDataToEndOfFile()
        return lock.withLock {
            outData.append(restOut)
            errData.append(restErr)
            return Result(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                          stderr: String(decoding: errData, as: UTF8.self))
        }
    }

    /// Waits until stderr holds `text` (`count` times; bounded); false when it never came.
    func waitForLog(_ text: String, count: Int = 1, timeout: Double = 30) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        func seen() -> Bool { stderrSoFar.components(separatedBy: text).count - 1 >= count }
        while Date() < deadline {
            if seen() { return true }
            if !process.isRunning { return seen() }
            usleep(20_000)
        }
        return false
    }
}

/// A scratch folder for one test, removed afterwards.
final class Scratch {
    let path: String

    init() throws {
        path = NSTemporaryDirectory() + "cycletrack-e2e-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    @discardableResult
    func write(_ name: String, _ contents: String, mode: Int = 0o644) -> String {
        let file = path + "/" + name
        _ = FileManager.default.createFile(atPath: file, contents: Data(contents.utf8), attributes: [.posixPermissions: mode])
        return file
    }

    func exists(_ name: String) -> Bool { FileManager.default.fileExists(atPath: path + "/" + name) }
}

/// The example traces: the repository's `docs/examples`.
enum SharedTraces {
    static var directory: String? {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        for candidate in ["docs/examples"] {
            let path = root.appendingPathComponent(candidate).standardized.path
            if FileManager.default.fileExists(atPath: path) { return path }
        }
        return nil
    }
}
